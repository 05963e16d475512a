import { BookOpen, CalendarDays, Sparkles, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { CourseCard } from '@shared/courses-schemas';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { ButtonLink } from '@web/components/ui/button';
import { PageHeader } from '@web/components/ui/card';
import { useViewer } from '@web/lib/viewer';
import { CourseGrid, CourseGridSkeleton } from '@web/features/courses/components/course-card';
import { paths } from '@web/lib/paths';
import { exploreQuery } from '@web/features/courses/api/explore';
import { ClubsExploreSection } from '@web/features/clubs/home-sections';
import { distinctShelves } from './distinct-shelves';

const AREAS = [
  { to: paths.courseSearch(), title: 'Courses', text: 'Live classes in sessions, online or near you.', Icon: BookOpen },
  { to: paths.clubs, title: 'Clubs', text: 'Groups that meet for events around what they love.', Icon: Users },
  { to: paths.dashboard, title: 'Your dashboard', text: 'Your upcoming class times and enrolments.', Icon: CalendarDays },
];

const GRID = 'sm:grid-cols-2 lg:grid-cols-4';
/** Cards a shelf shows (a row of four on wide screens). */
const PER_SHELF = 4;

function Shelf({
  id,
  title,
  subtitle,
  more,
  courses,
  featured = false,
}: {
  id: string;
  title: string;
  subtitle?: ReactNode;
  /** The search that continues the shelf ("See all"); none for the featured shelf. */
  more?: string;
  courses: CourseCard[];
  /** Paid placement: set apart on a tinted panel and labelled as such. */
  featured?: boolean;
}) {
  if (!courses.length) return null;
  return (
    <section
      aria-labelledby={id}
      className={featured ? 'mt-10 rounded-2xl border border-brand-100 bg-brand-50/60 px-4 pb-5 pt-4 sm:px-6 sm:pb-6 sm:pt-5' : 'mt-10'}
    >
      <div className="mb-4 flex flex-wrap items-end justify-between gap-2">
        <div>
          <h2 id={id} className="flex items-center gap-2 text-xl font-bold tracking-tight text-slate-900">
            {featured && <Sparkles className="h-5 w-5 text-brand-700" aria-hidden="true" />}
            {title}
          </h2>
          {subtitle && <p className="text-sm text-slate-600">{subtitle}</p>}
        </div>
        {more && (
          <Link to={more} className="text-sm font-semibold text-brand-700 hover:underline">
            See all<span className="sr-only"> {title.toLowerCase()}</span>
          </Link>
        )}
      </div>
      {/* Phones: a row to swipe through; wider screens: a grid. */}
      <CourseGrid
        courses={courses}
        label={title}
        className="-mx-4 flex snap-x snap-mandatory scroll-px-4 overflow-x-auto px-4 pb-2 sm:mx-0 sm:grid sm:grid-cols-2 sm:overflow-visible sm:px-0 sm:pb-0 lg:grid-cols-4"
        itemClassName="w-[80%] shrink-0 snap-start sm:w-auto"
      />
    </section>
  );
}

export default function ExplorePage() {
  const me = useViewer();
  const { data, error, isPending } = useQuery(exploreQuery);
  const empty = data && !data.featured.length && !data.upcoming.length && !data.popular.length && !data.nearYou.length;
  const today = new Date().toISOString().slice(0, 10);
  // Each course on one shelf: a shelf leaves out what the shelves above it show.
  const [featured, nearYou, upcoming, popular] = data
    ? distinctShelves([data.featured, me.city ? data.nearYou : [], data.upcoming, data.popular], PER_SHELF)
    : [[], [], [], []];
  return (
    <div>
      <PageHeader
        title={`Welcome, ${me.firstName}`}
        subtitle={me.city ? `Courses and clubs online and around ${me.city}.` : 'Find something new to learn this week.'}
      />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {AREAS.map(({ to, title, text, Icon }) => (
          <Link
            key={to}
            to={to}
            className="group flex items-start gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm transition hover:border-brand-500 hover:shadow sm:block sm:p-6"
          >
            <Icon className="h-8 w-8 shrink-0 text-brand-700" aria-hidden="true" />
            <div>
              <h2 className="text-lg font-semibold text-slate-900 group-hover:text-brand-700 sm:mt-3">{title}</h2>
              <p className="mt-1 text-sm text-slate-600">{text}</p>
            </div>
          </Link>
        ))}
      </div>

      {isPending ? (
        <div className="mt-10">
          <div className="mb-4 h-6 w-40 animate-pulse rounded bg-slate-200" aria-hidden="true" />
          <CourseGridSkeleton count={4} className={GRID} />
        </div>
      ) : error && !data ? (
        <div className="mt-8">
          <Alert tone="error" title="Courses could not be loaded">
            {error instanceof ApiError ? error.message : 'Please try again later.'}
          </Alert>
        </div>
      ) : empty ? (
        <div className="mt-8 rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center">
          <h2 className="text-lg font-semibold text-slate-900">No courses yet</h2>
          <p className="mt-1 text-sm text-slate-600">Upcoming and popular courses will appear here as soon as educators publish them.</p>
          <div className="mt-5 flex flex-wrap justify-center gap-3">
            <ButtonLink to={paths.courseSearch()} variant="secondary">
              Search courses
            </ButtonLink>
            <ButtonLink to={paths.educatorOnboard} variant="secondary">
              Teach a course
            </ButtonLink>
          </div>
        </div>
      ) : data ? (
        <>
          <Shelf
            id="featured"
            title="Featured"
            featured
            subtitle={
              <>
                Upcoming courses from educators on{' '}
                <Link to={paths.pricing} className="font-medium text-brand-700 hover:underline">
                  Educator Pro
                </Link>
                .
              </>
            }
            courses={featured}
          />
          {me.city && (
            <Shelf
              id="near-you"
              title={`Near you in ${me.city}`}
              subtitle="In person in your city, and online courses starting soon."
              more={paths.courseSearch({ city: me.city, sort: 'soonest' })}
              courses={nearYou}
            />
          )}
          <Shelf
            id="starting-soon"
            title="Starting soon"
            subtitle="Join before the first class."
            more={paths.courseSearch({ sort: 'soonest', startsAfter: today, hasSeats: true })}
            courses={upcoming}
          />
          <Shelf
            id="popular"
            title="Popular"
            subtitle="Loved by learners."
            more={paths.courseSearch({ sort: 'rating' })}
            courses={popular}
          />
          {!me.city && (
            <p className="mt-8 text-sm text-slate-600">
              Add your city in{' '}
              <Link to={paths.settings} className="font-semibold text-brand-700 hover:underline">
                settings
              </Link>{' '}
              to see courses near you.
            </p>
          )}
        </>
      ) : null}
      <ClubsExploreSection />
    </div>
  );
}
