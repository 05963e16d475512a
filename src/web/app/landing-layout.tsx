import type { ReactNode } from 'react';
import { Link, Outlet } from 'react-router';
import { Logo } from '@web/components/brand';
import { ButtonLink } from '@web/components/ui/button';
import { useMe } from '@web/lib/viewer';
import { paths } from '@web/lib/paths';

/** The public pages (spec section 2); Pricing only for a signed-in user, who may open it. */
const PUBLIC_LINKS = [
  { to: paths.project, label: 'Project' },
  { to: paths.roadmap, label: 'Roadmap' },
  { to: paths.contact, label: 'Contact' },
];
const linksFor = (signedIn: boolean) => (signedIn ? [{ to: paths.pricing, label: 'Pricing' }, ...PUBLIC_LINKS] : PUBLIC_LINKS);

/** The landing layout: public marketing pages (children instead of the route's outlet: the not-found page). */
export function LandingLayout({ children }: { children?: ReactNode }) {
  const { data: me } = useMe();
  const LINKS = linksFor(Boolean(me));
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
          <Logo />
          <nav aria-label="Site" className="hidden gap-6 sm:flex">
            {LINKS.map((l) => (
              <Link key={l.to} to={l.to} className="text-sm font-medium text-slate-700 hover:text-brand-700">
                {l.label}
              </Link>
            ))}
          </nav>
          <div className="flex items-center gap-2">
            {me ? (
              <ButtonLink to={paths.explore}>Open Agora</ButtonLink>
            ) : (
              <>
                <ButtonLink to={paths.login()} variant="ghost">
                  Log in
                </ButtonLink>
                <ButtonLink to={paths.signup}>Sign up</ButtonLink>
              </>
            )}
          </div>
        </div>
      </header>
      <main id="main" className="flex-1">
        {children ?? <Outlet />}
      </main>
      <footer className="border-t border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 px-4 py-8 text-sm text-slate-600">
          <p>© {new Date().getFullYear()} Agora. Learn together.</p>
          <nav aria-label="Footer" className="flex flex-wrap gap-4">
            {LINKS.map((l) => (
              <Link key={l.to} to={l.to} className="hover:text-brand-700">
                {l.label}
              </Link>
            ))}
          </nav>
        </div>
      </footer>
    </div>
  );
}
