import { BookOpen, CreditCard, MessagesSquare, ShieldCheck, Users, Zap } from 'lucide-react';
import { ButtonLink } from '@web/components/ui/button';
import { useMe } from '@web/lib/viewer';
import { paths } from '@web/lib/paths';

const FEATURES = [
  { Icon: BookOpen, title: 'Live courses', text: 'Small groups, real educators, class times that fit your week — online or in your city.' },
  { Icon: Users, title: 'Clubs and events', text: 'Meet people who love what you love, from chess nights to coding circles.' },
  { Icon: MessagesSquare, title: 'Talk to your educator', text: 'Ask questions before you enrol and keep in touch after class.' },
  { Icon: CreditCard, title: 'Pay your way', text: 'One payment or monthly installments, with a clear refund policy on every course.' },
  {
    Icon: ShieldCheck,
    title: 'Safe by default',
    text: 'Your session never lives in reach of scripts, and your card never touches our servers.',
  },
  { Icon: Zap, title: 'Fast everywhere', text: 'Pages that open instantly, even on a slow phone connection.' },
];

export default function LandingPage() {
  const { data: me } = useMe();
  return (
    <>
      <section className="bg-gradient-to-b from-brand-50 to-slate-50">
        <div className="mx-auto max-w-6xl px-4 py-20 text-center sm:py-28">
          <p className="text-sm font-semibold uppercase tracking-wider text-brand-700">The marketplace for learning together</p>
          <h1 className="mx-auto mt-3 max-w-3xl text-4xl font-extrabold tracking-tight text-slate-900 sm:text-6xl">
            Learn anything, live, with people who care
          </h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-700">
            Agora connects curious learners with independent educators. Find a course that starts next week, join a club in your city, and
            grow with others.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            {me ? (
              <ButtonLink to={paths.explore} className="px-6 py-3 text-base">
                Go to Explore
              </ButtonLink>
            ) : (
              <>
                <ButtonLink to={paths.signup} className="px-6 py-3 text-base">
                  Get started free
                </ButtonLink>
                <ButtonLink to={paths.login()} variant="secondary" className="px-6 py-3 text-base">
                  Log in
                </ButtonLink>
              </>
            )}
          </div>
        </div>
      </section>
      <section className="mx-auto max-w-6xl px-4 py-16" aria-labelledby="features">
        <h2 id="features" className="text-center text-3xl font-bold tracking-tight text-slate-900">
          Everything a learning community needs
        </h2>
        <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map(({ Icon, title, text }) => (
            <div key={title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
              <Icon className="h-7 w-7 text-brand-700" aria-hidden="true" />
              <h3 className="mt-3 font-semibold text-slate-900">{title}</h3>
              <p className="mt-1 text-sm text-slate-600">{text}</p>
            </div>
          ))}
        </div>
      </section>
      <section className="bg-brand-700">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-6 px-4 py-12">
          <div>
            <h2 className="text-2xl font-bold text-white">Teach on Agora</h2>
            <p className="mt-1 text-brand-100">Publish a course in minutes and get paid straight to your bank account.</p>
          </div>
          <ButtonLink to={paths.educatorBenefits} variant="secondary">
            Why educators choose Agora
          </ButtonLink>
        </div>
      </section>
    </>
  );
}
