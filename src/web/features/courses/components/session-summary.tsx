import { Link } from 'react-router';
import type { CourseView } from '@shared/courses-schemas';
import { formatPrice } from '@shared/courses';
import { CourseCover } from '@web/components/ui/cover';
import { formatDateRange, plural, viewerTimeZone } from '@web/lib/format';
import { ClassTimeList } from './session-card';
import { paths } from '@web/lib/paths';

type Session = CourseView['sessions'][number];

/** The course and session being confirmed, as a compact summary. */
export function SessionSummary({ course, session, visible = 6 }: { course: CourseView; session: Session; visible?: number }) {
  const zone = viewerTimeZone();
  return (
    <div className="rounded-2xl border border-slate-200 bg-white shadow-sm">
      <div className="flex gap-4 border-b border-slate-100 p-5">
        <CourseCover
          src={course.coverImage}
          seed={course.id}
          title={course.title}
          category={course.category}
          className="aspect-[16/9] w-28 shrink-0 self-start rounded-lg"
        />
        <div className="min-w-0">
          <h2 className="break-words font-semibold text-slate-900">
            <Link to={paths.course(course.id)} className="hover:text-brand-700 hover:underline">
              {course.title}
            </Link>
          </h2>
          <p className="text-sm text-slate-600">by {course.educator.name}</p>
          <p className="mt-1 text-sm font-medium text-slate-800">
            {formatDateRange(session.startsOn, session.endsOn)} · {plural(session.classTimes.length, 'class', 'classes')}
          </p>
        </div>
      </div>
      <div className="p-5">
        <h3 className="text-sm font-semibold text-slate-900">Class times</h3>
        <p className="text-xs text-slate-600">In your time zone, {zone}.</p>
        <div className="mt-1">
          <ClassTimeList times={session.classTimes} viewerZone={zone} sessionZone={session.timeZone} visible={visible} />
        </div>
      </div>
      <dl className="flex flex-wrap justify-between gap-3 border-t border-slate-100 p-5 text-sm">
        <div>
          <dt className="text-slate-600">Price</dt>
          <dd className="text-xl font-bold text-slate-900">{formatPrice(course.priceCents, course.currency)}</dd>
        </div>
        <div className="text-right">
          <dt className="text-slate-600">Seats</dt>
          <dd className="font-medium text-slate-900">
            {session.seatsLeft > 0
              ? `${session.seatsLeft} of ${session.capacity} left`
              : `Full${session.waitlisted ? `, ${session.waitlisted} waiting` : ''}`}
          </dd>
        </div>
      </dl>
    </div>
  );
}
