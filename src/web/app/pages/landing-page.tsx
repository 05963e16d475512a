import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { BadgeEuro, CalendarCheck, GraduationCap, Megaphone, Search, Users } from 'lucide-react';
import type { LandingClub } from '@shared/landing-schemas';
import { ButtonLink } from '@web/components/ui/button';
import { GeneratedCover } from '@web/components/ui/cover';
import { Skeleton } from '@web/components/ui/skeleton';
import { useMe } from '@web/lib/viewer';
import { paths } from '@web/lib/paths';
import { landingQuery } from '@web/features/marketing/api/landing';
import { CourseCardSkeleton, CourseGrid } from '@web/features/courses/components/course-card';

const LEARNER_STEPS = [
  {
    Icon: Search,
    title: 'Find a course',
    text: 'Search by subject, city or price; see dates, seats left and reviews from learners who took it.',
  },
  {
    Icon: CalendarCheck,
    title: 'Enrol in a session',
    text: 'Free or paid, in one payment or monthly installments. Full? Join the waitlist.',
  },
  { Icon: Users, title: 'Learn together', text: 'Your class times in your own time zone, on your dashboard and in your calendar.' },
];
const EDUCATOR_STEPS = [
  { Icon: Megaphone, title: 'Publish a course', text: 'Describe it in Markdown, add sessions and class times, online or in your city.' },
  {
    Icon: GraduationCap,
    title: 'Fill your sessions',
    text: 'Learners find you in search; you see the roster and export it when you need it.',
  },
  { Icon: BadgeEuro, title: 'Get paid', text: 'Card payments go to your payout account, with the platform fee shown up front.' },
];

/** The figures of the data (courses, educators, cities): nothing invented. */
function Figures() {
  const { data, isPending, isError } = useQuery(landingQuery);
  if (isError) return null;
  const items = data
    ? [
        { n: data.figures.courses, label: data.figures.courses === 1 ? 'course' : 'courses' },
        { n: data.figures.educators, label: data.figures.educators === 1 ? 'educator' : 'educators' },
        { n: data.figures.cities, label: data.figures.cities === 1 ? 'city in person' : 'cities in person' },
      ]
    : [];
  return (
    <dl className="mx-auto mt-10 grid max-w-3xl grid-cols-3 gap-2 sm:gap-6" aria-busy={isPending} aria-label="Agora in figures">
      {isPending
        ? [0, 1, 2].map((i) => <Skeleton key={i} className="mx-auto h-14 w-24" />)
        : items.map((f) => (
            <div key={f.label} className="flex flex-col-reverse">
              <dt className="text-xs text-slate-700 sm:text-sm">{f.label}</dt>
              <dd className="text-3xl font-extrabold tracking-tight text-brand-700 sm:text-4xl" data-testid="figure">
                {f.n}
              </dd>
            </div>
          ))}
    </dl>
  );
}

function HeroSearch({ signedIn }: { signedIn: boolean }) {
  const navigate = useNavigate();
  const [q, setQ] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const target = paths.courseSearch({ q: q.trim() || undefined });
    // A visitor logs in first (the public-path rule), then lands on the results.
    void navigate(signedIn ? target : paths.login(target));
  };
  return (
    <form role="search" onSubmit={submit} className="mx-auto mt-8 flex max-w-xl gap-2">
      <label htmlFor="landing-search" className="sr-only">
        What do you want to learn?
      </label>
      <input
        id="landing-search"
        type="search"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        placeholder="Try “guitar”, “Python” or “sourdough”"
        className="min-w-0 flex-1 rounded-xl border border-slate-300 bg-white px-4 py-3 text-base text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500"
      />
      <button
        type="submit"
        className="inline-flex items-center gap-2 rounded-xl bg-brand-700 px-5 py-3 font-semibold text-white shadow-sm hover:bg-brand-800 focus:outline-none focus:ring-2 focus:ring-brand-500 focus:ring-offset-2"
      >
        <Search className="h-5 w-5" aria-hidden="true" />
        <span className="hidden sm:inline">Search</span>
        <span className="sr-only sm:hidden">Search courses</span>
      </button>
    </form>
  );
}

function ClubShelf({ clubs, signedIn }: { clubs: LandingClub[]; signedIn: boolean }) {
  if (!clubs.length) return null;
  return (
    <section aria-labelledby="featured-clubs" className="mt-14">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h2 id="featured-clubs" className="text-2xl font-bold tracking-tight text-slate-900">
            Clubs to join
          </h2>
          <p className="text-slate-600">The biggest open clubs: meet people who learn what you learn.</p>
        </div>
        <Link to={signedIn ? paths.clubs : paths.login(paths.clubs)} className="text-sm font-semibold text-brand-700 hover:underline">
          See every club
        </Link>
      </div>
      <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Featured clubs">
        {clubs.map((c) => (
          <li key={c.id} className="relative overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
            {c.coverImage ? (
              <img src={c.coverImage} alt="" className="aspect-[16/9] w-full object-cover" />
            ) : (
              <GeneratedCover seed={c.id} title={c.name} category={c.category} className="block aspect-[16/9] w-full" />
            )}
            <div className="p-4">
              <h3 className="font-semibold text-slate-900">
                <Link to={signedIn ? paths.club(c.id) : paths.login(paths.club(c.id))} className="after:absolute after:inset-0">
                  {c.name}
                </Link>
              </h3>
              <p className="mt-1 line-clamp-2 text-sm text-slate-600">{c.summary}</p>
              <p className="mt-2 inline-flex items-center gap-1 text-sm text-slate-500">
                <Users className="h-4 w-4" aria-hidden="true" />
                {c.memberCount === 1 ? '1 member' : `${c.memberCount.toLocaleString('en-GB')} members`}
              </p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Featured({ signedIn }: { signedIn: boolean }) {
  const { data, isPending, isError } = useQuery(landingQuery);
  if (isError || (data && !data.featuredCourses.length && !data.featuredClubs.length)) return null;
  return (
    <section className="mx-auto max-w-6xl px-4 py-16">
      <div aria-labelledby="featured-courses">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <div>
            <h2 id="featured-courses" className="text-2xl font-bold tracking-tight text-slate-900">
              Courses starting soon
            </h2>
            <p className="text-slate-600">The best rated course of each subject with a seat left.</p>
          </div>
          <Link
            to={signedIn ? paths.courseSearch() : paths.login(paths.courseSearch())}
            className="text-sm font-semibold text-brand-700 hover:underline"
          >
            See every course
          </Link>
        </div>
        <div className="mt-6">
          {isPending ? (
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy="true" aria-label="Loading courses">
              {[0, 1, 2].map((i) => (
                <CourseCardSkeleton key={i} />
              ))}
            </div>
          ) : (
            <CourseGrid
              courses={data?.featuredCourses ?? []}
              label="Featured courses"
              // Phones: a row to swipe through; wider screens: a grid.
              className="-mx-4 flex snap-x snap-mandatory scroll-px-4 overflow-x-auto px-4 pb-2 sm:mx-0 sm:grid sm:grid-cols-2 sm:overflow-visible sm:px-0 sm:pb-0 lg:grid-cols-3"
              itemClassName="w-[80%] shrink-0 snap-start sm:w-auto"
              linkTo={signedIn ? undefined : (id) => paths.login(paths.course(id))}
            />
          )}
        </div>
      </div>
      {data && <ClubShelf clubs={data.featuredClubs} signedIn={signedIn} />}
    </section>
  );
}

function Steps({ id, title, steps }: { id: string; title: string; steps: typeof LEARNER_STEPS }) {
  return (
    <div aria-labelledby={id} role="group">
      <h3 id={id} className="text-lg font-semibold text-brand-700">
        {title}
      </h3>
      <ol className="mt-4 space-y-5">
        {steps.map(({ Icon, title: t, text }, i) => (
          <li key={t} className="flex gap-4">
            <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-100 text-brand-700">
              <Icon className="h-5 w-5" aria-hidden="true" />
            </span>
            <div>
              <p className="font-semibold text-slate-900">
                {i + 1}. {t}
              </p>
              <p className="text-sm text-slate-600">{text}</p>
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** `/` and `/landing`: what Agora is in one look, from the data. */
export default function LandingPage() {
  const { data: me } = useMe();
  const signedIn = Boolean(me);
  return (
    <>
      <section className="bg-gradient-to-b from-brand-50 to-slate-50">
        <div className="mx-auto max-w-6xl px-4 py-16 text-center sm:py-24">
          <p className="text-sm font-semibold uppercase tracking-wider text-brand-700">The marketplace for learning together</p>
          <h1 className="mx-auto mt-3 max-w-3xl text-4xl font-extrabold tracking-tight text-slate-900 sm:text-6xl">
            Learn anything, live, with people who care
          </h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-700">
            Agora connects curious learners with independent educators: small groups, real class times, online or in your city.
          </p>
          <HeroSearch signedIn={signedIn} />
          <Figures />
        </div>
      </section>

      <Featured signedIn={signedIn} />

      <section aria-labelledby="how-it-works" className="border-y border-slate-200 bg-white">
        <div className="mx-auto max-w-6xl px-4 py-16">
          <h2 id="how-it-works" className="text-center text-3xl font-bold tracking-tight text-slate-900">
            How it works
          </h2>
          <div className="mt-10 grid gap-10 md:grid-cols-2">
            <Steps id="for-learners" title="For learners" steps={LEARNER_STEPS} />
            <Steps id="for-educators" title="For educators" steps={EDUCATOR_STEPS} />
          </div>
        </div>
      </section>

      <section aria-label="Get started" className="mx-auto grid max-w-6xl gap-6 px-4 py-16 md:grid-cols-2">
        <div className="rounded-2xl bg-brand-700 p-8 text-white">
          <h2 className="text-2xl font-bold">Start learning</h2>
          <p className="mt-2 text-brand-100">Create a free account and enrol in your first session this week.</p>
          <ButtonLink to={signedIn ? paths.explore : paths.signup} variant="secondary" className="mt-6">
            {signedIn ? 'Explore courses' : 'Sign up to learn'}
          </ButtonLink>
        </div>
        <div className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
          <h2 className="text-2xl font-bold text-slate-900">Teach on Agora</h2>
          <p className="mt-2 text-slate-700">Publish a course, set your dates and price, and get paid to your bank account.</p>
          <ButtonLink to={signedIn ? paths.educatorOnboard : paths.signup} className="mt-6">
            {signedIn ? 'Become an educator' : 'Sign up to teach'}
          </ButtonLink>
        </div>
      </section>
    </>
  );
}
