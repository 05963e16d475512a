import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { paths } from '@web/lib/paths';
import { PageHeader } from '@web/components/ui/card';
import { PaymentHistoryCard } from '@web/features/payments/payment-history-card';
import { InstallmentsCard } from '@web/features/payments/installments-card';
import { useViewer } from '@web/lib/viewer';
import { ProfileForm } from '@web/features/accounts/profile-form';
import { SignInSessionsCard } from '@web/features/accounts/sign-in-sessions-card';
import { LearnersCard } from '@web/features/accounts/learners-card';
import { TwoFactorCard } from '@web/features/accounts/two-factor-card';
import { LinkedAccountsCard } from '@web/features/accounts/linked-accounts-card';
import { NotificationPreferencesCard } from '@web/features/notifications/notification-preferences-card';
import { DeleteAccountCard, EmailCard, PasswordCard } from '@web/features/accounts/account-settings-cards';
import { BlockedPeopleCard } from '@web/features/mailbox/blocked-people-card';

/**
 * The settings' sections, each with its own address (/user/settings#<id>): the side
 * navigation jumps to them, a link (an email's, a notification's) opens one, and the
 * browser's back button returns to the one before.
 */
export const SETTINGS_SECTIONS = [
  { id: 'profile', label: 'Profile' },
  { id: 'learners', label: 'Learners' },
  { id: 'payments', label: 'Payments' },
  { id: 'notifications', label: 'Notifications' },
  { id: 'security', label: 'Sign-in & security' },
  { id: 'account', label: 'Email & account' },
  { id: 'blocked', label: 'Blocked people' },
] as const;
type SectionId = (typeof SETTINGS_SECTIONS)[number]['id'];

export default function SettingsPage() {
  const me = useViewer();
  const active = useActiveSection();
  useSettleOnHash();
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader title="Settings" subtitle="Your profile, learners, payments, notifications, sign-in security and account." />
      <div className="lg:grid lg:grid-cols-[12rem_minmax(0,1fr)] lg:items-start lg:gap-8">
        <SettingsNav active={active} />
        <div className="space-y-10">
          <Section id="profile">
            <ProfileForm user={me} />
          </Section>
          <Section id="learners">
            <LearnersCard />
          </Section>
          <Section id="payments">
            <InstallmentsCard />
            <PaymentHistoryCard />
          </Section>
          <Section id="notifications">
            <NotificationPreferencesCard />
          </Section>
          <Section id="security">
            <PasswordCard />
            <TwoFactorCard />
            <LinkedAccountsCard />
            <SignInSessionsCard />
          </Section>
          <Section id="account">
            <EmailCard user={me} />
            <DeleteAccountCard user={me} />
          </Section>
          <Section id="blocked">
            <BlockedPeopleCard />
          </Section>
          <p className="text-sm text-slate-600">
            Need help from support? Share the details on your{' '}
            <Link to={paths.authTest} className="font-semibold text-brand-700 hover:underline">
              session page
            </Link>
            .
          </p>
        </div>
      </div>
    </div>
  );
}

/** A group of cards with its address; the margin keeps its top clear of the sticky header (and, when narrow, of the section bar). */
function Section({ id, children }: { id: SectionId; children: ReactNode }) {
  const label = SETTINGS_SECTIONS.find((s) => s.id === id)!.label;
  return (
    <div id={id} data-settings-section={id} aria-label={label} role="group" className="scroll-mt-36 space-y-6 lg:scroll-mt-24">
      {children}
    </div>
  );
}

/**
 * The side navigation: a column that stays in view on a wide screen; on a narrow one, a bar
 * under the header that scrolls sideways. The section on screen is marked as the current one.
 */
function SettingsNav({ active }: { active: SectionId }) {
  const bar = useRef<HTMLUListElement>(null);
  // Keep the current section's link in view in the sideways bar (narrow screens).
  useEffect(() => {
    const list = bar.current;
    const link = list?.querySelector<HTMLElement>(`[data-section="${active}"]`);
    if (!list || !link || list.scrollWidth <= list.clientWidth) return;
    list.scrollTo({ left: link.offsetLeft - (list.clientWidth - link.offsetWidth) / 2, behavior: 'smooth' });
  }, [active]);
  return (
    <nav
      aria-label="Settings sections"
      className="sticky top-16 z-20 -mx-4 mb-6 border-b border-slate-200 bg-white/95 px-4 py-2 backdrop-blur lg:top-24 lg:mx-0 lg:mb-0 lg:border-0 lg:bg-transparent lg:p-0 lg:backdrop-blur-none"
    >
      <ul ref={bar} className="flex gap-1 overflow-x-auto lg:flex-col lg:overflow-visible">
        {SETTINGS_SECTIONS.map((s) => (
          <li key={s.id} className="shrink-0">
            <Link
              to={{ hash: s.id }}
              data-section={s.id}
              aria-current={active === s.id ? 'location' : undefined}
              className={`block whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium transition ${
                active === s.id ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900'
              }`}
            >
              {s.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The section at the top of the screen (under the header), else the one in the address. */
function useActiveSection(): SectionId {
  const { hash } = useLocation();
  const fromHash = SETTINGS_SECTIONS.find((s) => `#${s.id}` === hash)?.id;
  const [seen, setSeen] = useState<SectionId>(fromHash ?? 'profile');
  useEffect(() => {
    const onScroll = () => {
      // The last section whose top has passed a line a third of the way down the screen.
      const line = Math.min(window.innerHeight / 3, 240);
      let current: SectionId = SETTINGS_SECTIONS[0].id;
      for (const s of SETTINGS_SECTIONS) {
        const el = document.getElementById(s.id);
        if (el && el.getBoundingClientRect().top <= line) current = s.id;
      }
      // At the very bottom, the last section is the one being read even if it is short.
      if (window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2) current = SETTINGS_SECTIONS.at(-1)!.id;
      setSeen(current);
    };
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
    };
  }, [hash]);
  return seen;
}

/**
 * A link into a section (/user/settings#notifications) lands on it although the cards above
 * are still loading and growing: until the person scrolls, types or touches, or for a few
 * seconds, the section is brought back under the header whenever the page's height changes.
 */
function useSettleOnHash() {
  const { hash, key } = useLocation();
  useEffect(() => {
    const id = hash.slice(1);
    const target = SETTINGS_SECTIONS.some((s) => s.id === id) || id === 'installments' ? document.getElementById(id) : null;
    if (!target) return;
    target.scrollIntoView({ block: 'start' });
    let done = false;
    const stop = () => {
      done = true;
      observer.disconnect();
    };
    const observer = new ResizeObserver(() => {
      if (!done) target.scrollIntoView({ block: 'start' });
    });
    observer.observe(document.body);
    const timer = window.setTimeout(stop, 4000);
    const events = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;
    for (const e of events) window.addEventListener(e, stop, { passive: true, once: true });
    return () => {
      stop();
      window.clearTimeout(timer);
      for (const e of events) window.removeEventListener(e, stop);
    };
  }, [hash, key]);
}
