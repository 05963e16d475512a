import { Fragment, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { BarChart3, Bell, ChevronDown, LogOut, Menu, Settings, ShieldCheck, UsersRound, X } from 'lucide-react';
import { Logo } from '@web/components/brand';
import { paths } from '@web/lib/paths';
import { useSignOut } from '@web/features/accounts/api/sign-in';
import { adminMeQuery } from '@web/features/admin/api/access';
import { useViewer } from '@web/lib/viewer';
import { BellCount, UnreadBadge, useUnreadCounts } from './unread-badge';

const NAV = [
  { to: paths.explore, label: 'Explore' },
  { to: paths.courseSearch(), label: 'Courses' },
  { to: paths.clubs, label: 'Clubs' },
  { to: paths.mailbox, label: 'Mailbox' },
  { to: paths.dashboard, label: 'Dashboard' },
];

const navClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-lg px-3 py-2 text-sm font-medium ${isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900'}`;

/** Notifications live under /mailbox but are not the mailbox: there the bell is the current item, not Mailbox. */
const onNotifications = (pathname: string) => pathname === paths.notifications || pathname.startsWith(`${paths.notifications}/`);

const unreadName = (label: string, n: number) => (n > 0 ? `${label}, ${n} unread` : label);

/** The way in to /mailbox/notifications, on every width, with its own unread count. */
function NotificationsBell({ unread }: { unread: number }) {
  return (
    <NavLink
      to={paths.notifications}
      aria-label={unreadName('Notifications', unread)}
      title="Notifications"
      className={({ isActive }) =>
        `relative rounded-lg p-2 ${isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900'}`
      }
    >
      <Bell className="h-5 w-5" aria-hidden="true" />
      <BellCount total={unread} />
    </NavLink>
  );
}

function AvatarMenu() {
  const me = useViewer();
  const signOut = useSignOut();
  const [open, setOpen] = useState(false);
  // Asked only once the menu opens: most users never see an admin item.
  const admin = useQuery({ ...adminMeQuery, enabled: open, staleTime: 60_000 }).data?.admin ?? false;
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent | KeyboardEvent) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !ref.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);
  return (
    <div ref={ref} className="relative">
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={`Account menu for ${me.firstName} ${me.lastName}`}
        onClick={() => setOpen((o) => !o)}
        className="flex items-center gap-1 rounded-full p-0.5 hover:bg-slate-100"
      >
        <img
          src={me.profileImage}
          alt=""
          className="h-9 w-9 rounded-full border border-slate-200 object-cover"
          width={36}
          height={36}
          fetchPriority="low"
        />
        <ChevronDown className="h-4 w-4 text-slate-600" aria-hidden="true" />
      </button>
      {open && (
        <div role="menu" className="absolute right-0 z-40 mt-2 w-56 rounded-xl border border-slate-200 bg-white p-1 shadow-lg">
          <div className="border-b border-slate-100 px-3 py-2">
            <p className="truncate text-sm font-semibold text-slate-900">
              {me.firstName} {me.lastName}
            </p>
            <p className="truncate text-xs text-slate-600">{me.email}</p>
          </div>
          <Link
            role="menuitem"
            to={paths.settings}
            onClick={() => setOpen(false)}
            className="flex items-center gap-2 rounded-lg px-3 py-2 text-sm text-slate-800 hover:bg-slate-100"
          >
            <Settings className="h-4 w-4" aria-hidden="true" /> Settings
          </Link>
          <Link
            role="menuitem"
            to={paths.learners}
            onClick={() => setOpen(false)}
            className="flex items-center gap-2 rounded-lg px-3 py-2 text-sm text-slate-800 hover:bg-slate-100"
          >
            <UsersRound className="h-4 w-4" aria-hidden="true" /> Learners
          </Link>
          {me.educator && (
            <Link
              role="menuitem"
              to={paths.educatorAnalytics(me.id)}
              onClick={() => setOpen(false)}
              className="flex items-center gap-2 rounded-lg px-3 py-2 text-sm text-slate-800 hover:bg-slate-100"
            >
              <BarChart3 className="h-4 w-4" aria-hidden="true" /> Analytics
            </Link>
          )}
          {admin && (
            <Link
              role="menuitem"
              to={paths.admin}
              onClick={() => setOpen(false)}
              className="flex items-center gap-2 rounded-lg px-3 py-2 text-sm text-slate-800 hover:bg-slate-100"
            >
              <ShieldCheck className="h-4 w-4" aria-hidden="true" /> Admin
            </Link>
          )}
          <button
            role="menuitem"
            type="button"
            onClick={() => void signOut()}
            className="flex w-full items-center gap-2 rounded-lg px-3 py-2 text-left text-sm text-slate-800 hover:bg-slate-100"
          >
            <LogOut className="h-4 w-4" aria-hidden="true" /> Sign out
          </button>
        </div>
      )}
    </div>
  );
}

/** The default layout: the app shell for signed-in screens (children instead of the route's outlet: the not-found page). */
export function AppLayout({ children }: { children?: ReactNode }) {
  const [menu, setMenu] = useState(false);
  const { pathname } = useLocation();
  const unread = useUnreadCounts();
  const itemClass = (s: { isActive: boolean }, to: string) =>
    navClass({ isActive: s.isActive && (to !== paths.mailbox || !onNotifications(pathname)) });
  // NavLink marks an active link aria-current="page"; Mailbox is not the current page on /mailbox/notifications.
  const notCurrent = (to: string) => (to === paths.mailbox && onNotifications(pathname) ? ('false' as const) : undefined);
  // The mobile menu closes on navigation: adjusted while rendering, not in an effect.
  const [menuPath, setMenuPath] = useState(pathname);
  if (pathname !== menuPath) {
    setMenuPath(pathname);
    setMenu(false);
  }
  return (
    <div className="min-h-screen">
      <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
          <div className="flex items-center gap-6">
            <Logo />
            <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
              {NAV.map((n) => (
                <NavLink key={n.to} to={n.to} className={(s) => itemClass(s, n.to)} aria-current={notCurrent(n.to)}>
                  {n.label}
                  {n.to === paths.mailbox && <UnreadBadge total={unread.mailbox} />}
                </NavLink>
              ))}
            </nav>
          </div>
          <div className="flex items-center gap-2">
            <NotificationsBell unread={unread.notifications} />
            <AvatarMenu />
            <button
              type="button"
              className="relative rounded-lg p-2 text-slate-700 hover:bg-slate-100 md:hidden"
              aria-expanded={menu}
              aria-controls="mobile-nav"
              aria-label={menu ? 'Close menu' : unreadName('Open menu', unread.total)}
              onClick={() => setMenu((m) => !m)}
            >
              {menu ? <X className="h-5 w-5" aria-hidden="true" /> : <Menu className="h-5 w-5" aria-hidden="true" />}
              {!menu && unread.total > 0 && (
                <span aria-hidden="true" className="absolute right-1 top-1 h-2.5 w-2.5 rounded-full bg-brand-700 ring-2 ring-white" />
              )}
            </button>
          </div>
        </div>
        {menu && (
          <nav id="mobile-nav" aria-label="Main" className="border-t border-slate-200 px-4 py-2 md:hidden">
            {NAV.map((n) => (
              <Fragment key={n.to}>
                <NavLink to={n.to} className={(s) => `block ${itemClass(s, n.to)}`} aria-current={notCurrent(n.to)}>
                  {n.label}
                  {n.to === paths.mailbox && <UnreadBadge total={unread.mailbox} />}
                </NavLink>
                {n.to === paths.mailbox && (
                  <NavLink to={paths.notifications} className={(s) => `block ${navClass(s)}`}>
                    Notifications
                    <UnreadBadge total={unread.notifications} testId="notifications-menu-badge" />
                  </NavLink>
                )}
              </Fragment>
            ))}
          </nav>
        )}
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-8">
        {children ?? <Outlet />}
      </main>
    </div>
  );
}
