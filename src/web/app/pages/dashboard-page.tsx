import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useQueries, useQuery } from '@tanstack/react-query';
import { BookOpen, CalendarDays, GraduationCap, Plus, Search } from 'lucide-react';
import { ButtonLink } from '@web/components/ui/button';
import { PageHeader } from '@web/components/ui/card';
import { useViewer } from '@web/lib/viewer';
import { courseQuery } from '@web/features/courses/api/courses';
import { dashboardQuery } from '@web/features/dashboard/api/dashboard';
import { type DashboardClassTime, type DashboardEnrolment, type DashboardTeaching } from '@shared/dashboard-schemas';
import { Badge } from '@web/components/ui/badge';
import { Skeleton } from '@web/components/ui/skeleton';
import { CourseCover } from '@web/components/ui/cover';
import { dateIn } from '@shared/time';
import { formatDate, formatDateRange, formatTimeRange, relativeDayLabel, viewerTimeZone } from '@web/lib/format';
import { Stars } from '@web/components/ui/stars';
import { CalendarActions } from '@web/features/dashboard/calendar-actions';
import { ClassChart } from '@web/features/dashboard/class-chart';
import { Panel } from '@web/components/ui/panel';
import { paths } from '@web/lib/paths';
import { ClassTimeDetails } from '@web/components/class-time-details';
import { LoadError } from '@web/components/ui/load-error';
import { MyClubsPanel } from '@web/features/clubs/home-sections';
import { MyAttendancePanel } from '@web/features/attendance/my-attendance-panel';

function EmptyNote({ children }: { children: ReactNode }) {
  return <div className="rounded-xl border border-dashed border-slate-300 p-5 text-center text-sm text-slate-600">{children}</div>;
}

/** Class times grouped by day, in the viewer's zone. */
function ClassTimes({ times, zone, label }: { times: DashboardClassTime[]; zone: string; label: string }) {
  const days: [string, DashboardClassTime[]][] = [];
  for (const t of times) {
    const key = dateIn(new Date(t.startsAt), zone);
    const last = days[days.length - 1];
    if (last && last[0] === key) last[1].push(t);
    else days.push([key, [t]]);
  }
  return (
    <ol className="space-y-4" aria-label={label}>
      {days.map(([key, list]) => (
        <li key={key}>
          <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-600">{relativeDayLabel(key, zone)}</h3>
          <ul className="mt-1.5 space-y-2">
            {list.map((t) => (
              <li key={t.id} className="flex gap-3 rounded-xl border border-slate-100 bg-slate-50 p-3">
                <div className="w-24 shrink-0 text-sm font-semibold tabular-nums text-slate-900 sm:w-28">
                  {formatTimeRange(t.startsAt, t.endsAt, zone)}
                </div>
                <div className="min-w-0 text-sm">
                  <Link
                    to={paths.course(t.courseId)}
                    className="break-words font-semibold text-slate-900 hover:text-brand-700 hover:underline"
                  >
                    {t.courseTitle}
                  </Link>
                  {t.forWhom && <p className="font-medium text-slate-700">For {t.forWhom}</p>}
                  <ClassTimeDetails classTime={t} viewerZone={zone} zone={t.timeZone} />
                  <Link
                    to={paths.classroom(t.courseId, t.sessionId)}
                    className="mt-0.5 inline-block text-xs font-semibold text-brand-700 hover:underline"
                  >
                    Classroom<span className="sr-only"> of {t.courseTitle}</span>
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}

const STATUS_BADGE: Record<string, ReactNode> = {
  active: <Badge tone="green">Enrolled</Badge>,
  pending_payment: <Badge tone="amber">Payment pending</Badge>,
  completed: <Badge>Completed</Badge>,
};

function MyCourses({ courses }: { courses: DashboardEnrolment[] }) {
  const today = new Date().toISOString().slice(0, 10);
  return (
    <ul className="grid gap-3 sm:grid-cols-2" aria-label="Your courses">
      {courses.map((c) => (
        <li key={c.enrolmentId} className="flex gap-3 rounded-xl border border-slate-200 p-3">
          <CourseCover
            src={c.coverImage}
            seed={c.courseId}
            title={c.courseTitle}
            category={c.category}
            className="aspect-[16/9] w-24 shrink-0 self-start rounded-lg"
          />
          <div className="min-w-0 text-sm">
            <Link
              to={paths.course(c.courseId)}
              className="line-clamp-2 break-words font-semibold text-slate-900 hover:text-brand-700 hover:underline"
            >
              {c.courseTitle}
            </Link>
            {c.learnerName && <p className="font-medium text-slate-700">For {c.learnerName}</p>}
            <p className="text-slate-600">{formatDateRange(c.startsOn, c.endsOn)}</p>
            <p className="mt-1 flex flex-wrap items-center gap-2">
              {STATUS_BADGE[c.status]}
              {c.status === 'active' && (
                <Link to={paths.classroom(c.courseId, c.sessionId)} className="text-xs font-semibold text-brand-700 hover:underline">
                  Classroom<span className="sr-only"> of {c.courseTitle}</span>
                </Link>
              )}
              {c.status !== 'completed' && c.endsOn >= today && (
                <Link
                  to={paths.drop(c.courseId, c.sessionId, c.learnerProfileId ?? undefined)}
                  className="text-xs font-semibold text-slate-600 hover:text-red-700 hover:underline"
                >
                  Drop{c.learnerName ? ` ${c.learnerName}` : ''}
                  <span className="sr-only">
                    {' '}
                    {c.learnerName ? 'from ' : ''}
                    {c.courseTitle}
                  </span>
                </Link>
              )}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Waitlists, with the learner's place in each queue (from the course view). */
function Waitlists({ waitlists }: { waitlists: DashboardEnrolment[] }) {
  const views = useQueries({ queries: waitlists.slice(0, 10).map((w) => ({ ...courseQuery(w.courseId), staleTime: 30_000 })) });
  return (
    <ul className="space-y-2" aria-label="Your waitlists">
      {waitlists.map((w, i) => {
        const session = views[i]?.data?.sessions.find((s) => s.id === w.sessionId);
        const seat = w.learnerProfileId
          ? session?.learnerEnrolments?.find((e) => e.learnerProfileId === w.learnerProfileId)
          : session?.myEnrolment;
        const position = seat?.waitlistPosition;
        return (
          <li key={w.enrolmentId} className="rounded-xl border border-slate-200 p-3 text-sm">
            <Link to={paths.course(w.courseId)} className="break-words font-semibold text-slate-900 hover:text-brand-700 hover:underline">
              {w.courseTitle}
            </Link>
            {w.learnerName && <p className="font-medium text-slate-700">For {w.learnerName}</p>}
            <p className="text-slate-600">{formatDateRange(w.startsOn, w.endsOn)}</p>
            <p className="mt-1 flex flex-wrap items-center gap-2">
              {w.status === 'offered' && seat?.offerEnded ? (
                <Badge tone="slate">The offer of a seat has ended</Badge>
              ) : w.status === 'offered' ? (
                <>
                  <Badge tone="brand">A seat is held for you</Badge>
                  <Link to={paths.checkout(w.courseId, w.sessionId)} className="text-xs font-semibold text-brand-700 hover:underline">
                    Claim your seat<span className="sr-only"> in {w.courseTitle}</span>
                  </Link>
                </>
              ) : (
                <Badge tone="amber">{position ? `Waitlisted #${position}` : 'On the waitlist'}</Badge>
              )}
              <Link
                to={paths.drop(w.courseId, w.sessionId, w.learnerProfileId ?? undefined)}
                className="text-xs font-semibold text-slate-600 hover:text-red-700 hover:underline"
              >
                Leave<span className="sr-only"> the waitlist of {w.courseTitle}</span>
              </Link>
            </p>
          </li>
        );
      })}
    </ul>
  );
}

const COURSE_STATUS: Record<string, ReactNode> = {
  draft: <Badge tone="amber">Draft</Badge>,
  published: <Badge tone="green">Published</Badge>,
  archived: <Badge>Archived</Badge>,
};

function Teaching({ courses }: { courses: DashboardTeaching[] }) {
  if (!courses.length) {
    return (
      <EmptyNote>
        You have not created a course yet.{' '}
        <Link to={paths.newCourse} className="font-semibold text-brand-700 hover:underline">
          Create your first course
        </Link>
      </EmptyNote>
    );
  }
  return (
    <ul className="divide-y divide-slate-100" aria-label="Courses you teach">
      {courses.map((c) => (
        <li key={c.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
          <div className="min-w-0">
            <p className="flex flex-wrap items-center gap-2">
              <Link to={paths.course(c.id)} className="break-words font-semibold text-slate-900 hover:text-brand-700 hover:underline">
                {c.title}
              </Link>
              {COURSE_STATUS[c.status]}
            </p>
            <p className="mt-0.5 flex flex-wrap gap-x-3 gap-y-1 text-sm text-slate-600">
              <span>
                <span className="font-semibold text-slate-900">{c.active}</span> enrolled
              </span>
              {c.waitlisted > 0 && (
                <span>
                  <span className="font-semibold text-slate-900">{c.waitlisted}</span> waiting
                </span>
              )}
              <span>{c.nextStartOn ? `Next start ${formatDate(c.nextStartOn)}, ${c.seatsLeft} seats left` : 'No upcoming session'}</span>
              <Stars value={c.ratingAvg} count={c.ratingCount} />
            </p>
          </div>
          <div className="flex gap-2">
            <ButtonLink to={paths.courseRoster(c.id)} variant="secondary" className="px-3 py-1.5">
              Roster<span className="sr-only"> of {c.title}</span>
            </ButtonLink>
            <ButtonLink to={paths.editCourse(c.id)} variant="ghost" className="px-3 py-1.5">
              Edit<span className="sr-only"> {c.title}</span>
            </ButtonLink>
          </div>
        </li>
      ))}
    </ul>
  );
}

function DashboardSkeleton() {
  return (
    <div role="status" aria-label="Loading your dashboard" className="grid gap-6 lg:grid-cols-[1fr_20rem]">
      <div className="space-y-3 rounded-2xl border border-slate-200 bg-white p-5">
        <Skeleton className="h-6 w-32" />
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-16 w-full" />
        ))}
      </div>
      <Skeleton className="h-44 w-full rounded-2xl" />
    </div>
  );
}

export default function DashboardPage() {
  const me = useViewer();
  const { data, error, refetch } = useQuery(dashboardQuery);
  const zone = viewerTimeZone();
  const isEducator = !!me.educator || !!data?.teaching;
  const learnerNothing = !!data && !data.courses.length && !data.waitlists.length && !data.thisWeek.length && !data.later.length;

  return (
    <div>
      <PageHeader
        title="Dashboard"
        subtitle={`Hi ${me.firstName}. Your classes, courses and waitlists; times in ${zone}.`}
        actions={<CalendarActions />}
      />
      {error && !data ? (
        <LoadError title="Your dashboard could not be loaded" error={error} onRetry={() => void refetch()} />
      ) : !data ? (
        <DashboardSkeleton />
      ) : (
        <div className="flex flex-col gap-6">
          <MyClubsPanel />
          {learnerNothing ? (
            isEducator ? (
              <Panel id="learning" title="Learning">
                <EmptyNote>
                  You're not enrolled in any course yet.{' '}
                  <Link to={paths.courseSearch()} className="font-semibold text-brand-700 hover:underline">
                    Find a course
                  </Link>{' '}
                  to learn something new.
                </EmptyNote>
              </Panel>
            ) : (
              <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center">
                <GraduationCap className="mx-auto h-10 w-10 text-brand-700" aria-hidden="true" />
                <h2 className="mt-3 text-lg font-semibold text-slate-900">You're not enrolled in any course yet</h2>
                <p className="mt-1 text-sm text-slate-600">Find a live course that fits your week; its class times will show up here.</p>
                <ButtonLink to={paths.courseSearch()} className="mt-5">
                  <Search className="h-4 w-4" aria-hidden="true" /> Find a course
                </ButtonLink>
              </div>
            )
          ) : (
            <>
              <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
                <div className="min-w-0 space-y-6">
                  <Panel id="this-week" title="This week" action={<span className="text-sm text-slate-600">Next 7 days</span>}>
                    {data.thisWeek.length ? (
                      <ClassTimes times={data.thisWeek} zone={zone} label="Class times this week" />
                    ) : (
                      <EmptyNote>
                        No classes in the next 7 days.{' '}
                        {data.later.length ? (
                          'Your next ones are below.'
                        ) : (
                          <Link to={paths.courseSearch()} className="font-semibold text-brand-700 hover:underline">
                            Find a course
                          </Link>
                        )}
                      </EmptyNote>
                    )}
                  </Panel>
                  {data.later.length > 0 && (
                    <Panel id="later" title="Later">
                      <ClassTimes times={data.later.slice(0, 12)} zone={zone} label="Later class times" />
                      {data.later.length > 12 && (
                        <p className="mt-3 text-sm text-slate-600">
                          And {data.later.length - 12} more: download the calendar to see them all.
                        </p>
                      )}
                    </Panel>
                  )}
                </div>
                <div className="space-y-6">
                  <section aria-label="Classes per day" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
                    <ClassChart times={[...data.thisWeek, ...data.later]} zone={zone} />
                  </section>
                  <Panel id="waitlists" title="Your waitlists">
                    {data.waitlists.length ? (
                      <Waitlists waitlists={data.waitlists} />
                    ) : (
                      <p className="text-sm text-slate-600">You are not waiting for a seat anywhere.</p>
                    )}
                  </Panel>
                </div>
              </div>

              <Panel
                id="courses"
                title="Your courses"
                action={
                  <Link to={paths.courseSearch()} className="text-sm font-semibold text-brand-700 hover:underline">
                    Find more
                  </Link>
                }
              >
                {data.courses.length ? (
                  <MyCourses courses={data.courses} />
                ) : (
                  <EmptyNote>
                    <BookOpen className="mx-auto mb-2 h-6 w-6 text-slate-400" aria-hidden="true" />
                    No courses yet: you are on a waitlist.{' '}
                    <Link to={paths.courseSearch()} className="font-semibold text-brand-700 hover:underline">
                      Browse courses
                    </Link>
                  </EmptyNote>
                )}
              </Panel>
              <MyAttendancePanel />
            </>
          )}

          {isEducator ? (
            <div className={learnerNothing ? 'order-first' : ''}>
              <Panel
                id="teaching"
                title="Teaching"
                action={
                  <ButtonLink to={paths.newCourse} className="py-2">
                    <Plus className="h-4 w-4" aria-hidden="true" /> Create a course
                  </ButtonLink>
                }
              >
                <Teaching courses={data.teaching ?? []} />
                <p className="mt-4 text-sm">
                  <Link to={paths.educatorDashboard} className="font-semibold text-brand-700 hover:underline">
                    Sales and payouts
                  </Link>
                </p>
              </Panel>
            </div>
          ) : (
            <p className="flex items-center gap-2 text-sm text-slate-600">
              <CalendarDays className="h-4 w-4" aria-hidden="true" /> Want to teach?{' '}
              <Link to={paths.educatorOnboard} className="font-semibold text-brand-700 hover:underline">
                Become an educator
              </Link>
            </p>
          )}
        </div>
      )}
    </div>
  );
}
