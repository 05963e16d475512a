import type { ReactNode } from 'react';
import { Mail } from 'lucide-react';

function InfoPage({ title, lead, children }: { title: string; lead: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-4xl px-4 py-14">
      <h1 className="text-4xl font-extrabold tracking-tight text-slate-900">{title}</h1>
      <p className="mt-3 text-lg text-slate-700">{lead}</p>
      <div className="mt-10">{children}</div>
    </div>
  );
}

export function ProjectPage() {
  return (
    <InfoPage
      title="About the project"
      lead="Agora is a marketplace for live learning, built to be fast, safe with your money and data, and pleasant to use."
    >
      <div className="space-y-4 text-slate-700">
        <p>
          We believe the best learning happens together: a small group, a real educator, and a time on the calendar. Agora makes it simple
          to find that group and for independent educators to make a living teaching it.
        </p>
        <p>
          We build in the open and measure what matters: pages that load quickly, payments that can never be charged twice, and accounts
          protected by modern security.
        </p>
      </div>
    </InfoPage>
  );
}

const ROADMAP = [
  { when: 'Now', items: ['Accounts: sign-up, email verification, Google login, password reset, sessions'] },
  {
    when: 'Next',
    items: ['Courses with sessions and class times, search, enrolment and reviews', 'Card payments, installments and educator payouts'],
  },
  { when: 'Later', items: ['Clubs and events', 'Mailbox and live notifications', 'Educator analytics'] },
];

export function RoadmapPage() {
  return (
    <InfoPage title="Roadmap" lead="What we are building, in the order we are building it.">
      <ol className="space-y-6">
        {ROADMAP.map((r) => (
          <li key={r.when} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <h2 className="text-lg font-semibold text-brand-700">{r.when}</h2>
            <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-700">
              {r.items.map((i) => (
                <li key={i}>{i}</li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </InfoPage>
  );
}

export function ContactPage() {
  return (
    <InfoPage title="Contact us" lead="Questions, feedback or a problem with a course? We answer within one working day.">
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <p className="flex items-center gap-2 text-slate-700">
          <Mail className="h-5 w-5 text-brand-700" aria-hidden="true" />{' '}
          <a className="font-semibold text-brand-700 hover:underline" href="mailto:hello@agora.local">
            hello@agora.local
          </a>
        </p>
        <p className="mt-3 text-sm text-slate-600">
          For help with your account, include the details from your session page (Settings → session page) so we can find you quickly.
        </p>
      </div>
    </InfoPage>
  );
}
