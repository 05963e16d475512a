import { CalendarDays, MapPin, Monitor, Users } from 'lucide-react';
import { Link } from 'react-router';
import type { CourseCard as Card } from '@shared/courses-schemas';
import { courseAgesText, formatPrice } from '@shared/courses';
import { Badge } from '@web/components/ui/badge';
import { Skeleton } from '@web/components/ui/skeleton';
import { CourseCover } from '@web/components/ui/cover';
import { categoryLabel, levelLabel, startsIn } from '@web/lib/format';
import { Stars } from '@web/components/ui/stars';
import { paths } from '@web/lib/paths';

function Seats({ course }: { course: Card }) {
  if (!course.nextStartOn) return <span className="text-slate-600">No upcoming session</span>;
  if (course.seatsLeft === 0) return <span className="font-medium text-amber-800">Full · waitlist open</span>;
  if (course.seatsLeft <= 3)
    return (
      <span className="font-medium text-amber-800">
        Only {course.seatsLeft} {course.seatsLeft === 1 ? 'seat' : 'seats'} left
      </span>
    );
  return <span>{course.seatsLeft} seats left</span>;
}

/** A course in a list of results: everything to decide whether to open it. */
export function CourseCard({
  course,
  headingLevel = 3,
  linkTo = paths.course,
}: {
  course: Card;
  headingLevel?: 2 | 3;
  /** Where the card leads (the landing page sends a visitor to log in first). */
  linkTo?: (courseId: string) => string;
}) {
  const H = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="group relative flex w-full flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition hover:border-brand-500 hover:shadow-md focus-within:ring-2 focus-within:ring-brand-500">
      <CourseCover
        src={course.coverImage}
        seed={course.id}
        title={course.title}
        category={course.category}
        className="aspect-[16/9] w-full"
      />
      <div className="flex flex-1 flex-col p-4">
        <div className="flex flex-wrap gap-1.5">
          <Badge tone="brand">{categoryLabel(course.category)}</Badge>
          <Badge>{levelLabel(course.level)}</Badge>
          {courseAgesText(course.minAge, course.maxAge) && <Badge>{courseAgesText(course.minAge, course.maxAge)}</Badge>}
        </div>
        <H className="mt-2 line-clamp-2 text-base font-semibold leading-snug text-slate-900 group-hover:text-brand-700">
          <Link to={linkTo(course.id)} className="after:absolute after:inset-0 focus:outline-none">
            {course.title}
          </Link>
        </H>
        <p className="mt-0.5 text-sm text-slate-600">by {course.educatorName}</p>
        <div className="mt-2">
          <Stars value={course.ratingAvg} count={course.ratingCount} />
        </div>
        <ul className="mt-3 space-y-1 text-sm text-slate-700">
          <li className="flex items-center gap-2">
            {course.format === 'online' ? (
              <Monitor className="h-4 w-4 shrink-0 text-slate-500" aria-hidden="true" />
            ) : (
              <MapPin className="h-4 w-4 shrink-0 text-slate-500" aria-hidden="true" />
            )}
            <span className="truncate">{course.format === 'online' ? 'Online' : (course.city ?? 'In person')}</span>
          </li>
          <li className="flex items-center gap-2">
            <CalendarDays className="h-4 w-4 shrink-0 text-slate-500" aria-hidden="true" />
            <span>{course.nextStartOn ? `Starts ${startsIn(course.nextStartOn)}` : 'Dates to be announced'}</span>
          </li>
          <li className="flex items-center gap-2">
            <Users className="h-4 w-4 shrink-0 text-slate-500" aria-hidden="true" />
            <Seats course={course} />
          </li>
        </ul>
        <p className="mt-auto pt-3 text-lg font-bold text-slate-900">{formatPrice(course.priceCents, course.currency)}</p>
      </div>
    </article>
  );
}

export function CourseCardSkeleton() {
  return (
    <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm" aria-hidden="true">
      <Skeleton className="aspect-[16/9] w-full rounded-none" />
      <div className="space-y-2.5 p-4">
        <Skeleton className="h-4 w-24" />
        <Skeleton className="h-5 w-4/5" />
        <Skeleton className="h-4 w-1/2" />
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="h-6 w-16" />
      </div>
    </div>
  );
}

/** A responsive grid of course cards (a list, named for screen readers). */
export function CourseGrid({
  courses,
  label,
  className = 'grid sm:grid-cols-2 lg:grid-cols-3',
  itemClassName = '',
  linkTo,
}: {
  courses: Card[];
  label: string;
  className?: string;
  itemClassName?: string;
  linkTo?: (courseId: string) => string;
}) {
  return (
    <ul aria-label={label} className={`gap-4 ${className}`}>
      {courses.map((c) => (
        <li key={c.id} className={`flex ${itemClassName}`}>
          <CourseCard course={c} linkTo={linkTo} />
        </li>
      ))}
    </ul>
  );
}

export function CourseGridSkeleton({ count = 6, className = 'sm:grid-cols-2 lg:grid-cols-3' }: { count?: number; className?: string }) {
  return (
    <div className={`grid gap-4 ${className}`} role="status" aria-label="Loading courses">
      {Array.from({ length: count }, (_, i) => (
        <CourseCardSkeleton key={i} />
      ))}
    </div>
  );
}
