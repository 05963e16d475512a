import type { ReactNode } from 'react';
import { BookOpen, CalendarDays, CreditCard, GraduationCap, Search, ShieldCheck } from 'lucide-react';
import { Markdown } from '@web/components/markdown';
import roadmapSource from '../../../../docs/roadmap.md?raw';

function InfoPage({ title, lead, children }: { title: string; lead: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-4xl px-4 py-14">
      <h1 className="text-4xl font-extrabold tracking-tight text-slate-900">{title}</h1>
      <p className="mt-3 text-lg text-slate-700">{lead}</p>
      <div className="mt-10">{children}</div>
    </div>
  );
}

const HOW = [
  {
    Icon: Search,
    title: 'Courses, found quickly',
    text: 'Educators publish courses with sessions (dates, capacity) and class times. Learners search by subject, city, price and date, with typo-tolerant full-text search.',
  },
  {
    Icon: CalendarDays,
    title: 'Sessions and class times',
    text: 'A course runs in sessions; each session meets at class times, shown in your own time zone, on your dashboard and in your calendar app.',
  },
  {
    Icon: BookOpen,
    title: 'Enrol, or wait for a seat',
    text: 'Free sessions take one click. When a session is full, the waitlist moves up by itself as soon as a seat frees, and the learner is emailed.',
  },
  {
    Icon: CreditCard,
    title: 'Payments that add up',
    text: 'Cards are taken by our payment provider, never by our servers: one payment or monthly installments, refunds by each course’s policy, and payouts to the educator net of a published platform fee.',
  },
  {
    Icon: GraduationCap,
    title: 'Made for independent educators',
    text: 'A Markdown editor with preview, a roster per session with CSV export, sales and payouts on the educator dashboard.',
  },
  {
    Icon: ShieldCheck,
    title: 'Safe by default',
    text: 'Sessions live in HttpOnly cookies, two-factor sign-in is one setting away, and every change to an account can be traced in the admin audit log.',
  },
];

export function ProjectPage() {
  return (
    <InfoPage
      title="About the project"
      lead="Agora is a marketplace for live learning: independent educators teach small groups, online or in their city, and learners find, join and pay for them in one place."
    >
      <div className="space-y-4 text-slate-700">
        <p>
          We believe the best learning happens together: a small group, a real educator and a time on the calendar. Agora makes it simple to
          find that group, and lets educators spend their time teaching rather than on spreadsheets and payment links.
        </p>
      </div>
      <h2 className="mt-12 text-2xl font-bold tracking-tight text-slate-900">How it works</h2>
      <ul className="mt-6 grid gap-5 sm:grid-cols-2">
        {HOW.map(({ Icon, title, text }) => (
          <li key={title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <Icon className="h-6 w-6 text-brand-700" aria-hidden="true" />
            <h3 className="mt-3 font-semibold text-slate-900">{title}</h3>
            <p className="mt-1 text-sm text-slate-600">{text}</p>
          </li>
        ))}
      </ul>
      <p className="mt-10 text-slate-700">
        Agora is built in the open: a TypeScript application (a Fastify API and a React web app over PostgreSQL). What is done and what
        comes next is on the roadmap.
      </p>
    </InfoPage>
  );
}

/** The roadmap is one Markdown file in the repository (docs/roadmap.md), shown as written, minus its title and maintainer note. */
const ROADMAP = roadmapSource.replace(/^# .*\n+(?:.+\n)*?\n/, '');

export function RoadmapPage() {
  return (
    <InfoPage title="Roadmap" lead="What Agora does today, what we are building now, and what comes next.">
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        {/* The file is wrapped at a width for reading in an editor: its bullets are sentences, not lines. */}
        <Markdown source={ROADMAP} baseLevel={1} wrapped />
      </div>
    </InfoPage>
  );
}
