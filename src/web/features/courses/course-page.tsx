import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { CalendarDays, ClipboardList, Globe2, MapPin, Monitor, Pencil, PersonStanding, ShieldCheck, Star, Users } from 'lucide-react';
import type { CourseView } from '@shared/courses-schemas';
import { courseAgesText, formatPrice } from '@shared/courses';
import { installmentTerms } from '@shared/payments';
import { Alert } from '@web/components/ui/alert';
import { ButtonLink, buttonClass } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { Badge } from '@web/components/ui/badge';
import { Skeleton } from '@web/components/ui/skeleton';
import { CourseCover } from '@web/components/ui/cover';
import { CourseGate } from './components/course-gate';
import { EducatorCard } from './components/educator-card';
import { categoryLabel, formatDateRange, formatDateTime, levelLabel, refundPolicy, startsIn, viewerTimeZone } from '@web/lib/format';
import { RatingSummary, ReviewList } from './components/reviews';
import { SessionCard } from './components/session-card';
import { Stars } from '@web/components/ui/stars';
import { paths } from '@web/lib/paths';
import { useAfterPaint } from '@web/lib/use-after-paint';

// The Markdown renderer (about 50 kB) loads after the page is on screen: the description is below the fold.
const Markdown = lazy(() => import('@web/components/markdown').then((m) => ({ default: m.Markdown })));

const descriptionPlaceholder = (
  <div className="space-y-2" aria-hidden="true">
    <Skeleton className="h-4 w-full" />
    <Skeleton className="h-4 w-5/6" />
    <Skeleton className="h-4 w-2/3" />
  </div>
);

/** The course's Markdown description: its renderer is asked for once the page above it has been painted. */
function Description({ source }: { source: string }) {
  const afterPaint = useAfterPaint();
  if (!afterPaint) return descriptionPlaceholder;
  return (
    <Suspense fallback={descriptionPlaceholder}>
      <Markdown source={source} baseLevel={3} />
    </Suspense>
  );
}

function CourseSkeleton() {
  return (
    <div role="status" aria-label="Loading the course">
      <Skeleton className="aspect-[3/1] w-full rounded-2xl" />
      <div className="mt-6 grid gap-8 lg:grid-cols-[1fr_20rem]">
        <div className="space-y-3">
          <Skeleton className="h-5 w-48" />
          <Skeleton className="h-9 w-3/4" />
          <Skeleton className="h-5 w-full" />
          <Skeleton className="h-5 w-2/3" />
          <Skeleton className="mt-6 h-40 w-full rounded-2xl" />
        </div>
        <Skeleton className="h-56 w-full rounded-2xl" />
      </div>
    </div>
  );
}

/** How the course is paid for: once, or in monthly installments. */
function PaymentOptions({ course }: { course: CourseView }) {
  if (course.priceCents === 0) return <p className="text-sm text-slate-600">No payment needed: enrol and you're in.</p>;
  const n = course.installments;
  return (
    <ul className="space-y-1 text-sm text-slate-700">
      <li>One payment of {formatPrice(course.priceCents, course.currency)}</li>
      {n && n > 1 && <li>or {installmentTerms(course.priceCents, n, course.currency)}</li>}
    </ul>
  );
}

function Section({ id, title, children, action }: { id: string; title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} id={id} className="scroll-mt-24">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${id}-title`} className="text-xl font-bold tracking-tight text-slate-900">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}

function CourseDetail({ course }: { course: CourseView }) {
  const location = useLocation();
  const navigate = useNavigate();
  const [flash] = useState<string | null>(() => (location.state as { flash?: string } | null)?.flash ?? null);
  useEffect(() => {
    // The message is shown once: a reload or a later visit does not repeat it.
    if (flash) navigate(location.pathname + location.search + location.hash, { replace: true, state: null });
  }, [flash]); // eslint-disable-line react-hooks/exhaustive-deps

  const zone = viewerTimeZone();
  const upcoming = course.sessions.filter((s) => s.status !== 'completed' && s.status !== 'cancelled');
  const past = course.sessions.filter((s) => s.status === 'completed' || s.status === 'cancelled');
  const next = upcoming[0];
  const myReview = course.reviews.find((r) => r.mine);
  const policy = refundPolicy(course.refundPolicy);
  const ages = courseAgesText(course.minAge, course.maxAge);
  const where = course.format === 'online' ? 'Online' : ['In person', course.city].filter(Boolean).join(' · ');

  return (
    <div>
      {flash && (
        <div className="mb-4">
          <Alert tone="success">{flash}</Alert>
        </div>
      )}
      {course.isOwner && (
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-brand-100 bg-brand-50 p-4">
          <p className="text-sm text-brand-800">
            <span className="font-semibold">You teach this course.</span>{' '}
            {course.status === 'draft'
              ? 'It is a draft: only you can see this page.'
              : course.status === 'archived'
                ? 'It is archived: it no longer appears in search.'
                : 'This is how learners see it.'}
          </p>
          <div className="flex flex-wrap gap-2">
            <ButtonLink to={paths.editCourse(course.id)} variant="secondary" className="py-2">
              <Pencil className="h-4 w-4" aria-hidden="true" /> Edit course
            </ButtonLink>
            <ButtonLink to={paths.courseRoster(course.id)} variant="secondary" className="py-2">
              <ClipboardList className="h-4 w-4" aria-hidden="true" /> Roster
            </ButtonLink>
          </div>
        </div>
      )}

      <div className="grid gap-8 lg:grid-cols-[1fr_20rem]">
        <div className="min-w-0 space-y-10">
          {/* The cover keeps its 16:9 shape (an uploaded cover is stored at 1200x675). */}
          <CourseCover
            src={course.coverImage}
            seed={course.id}
            title={course.title}
            category={course.category}
            className="aspect-[16/9] w-full rounded-2xl"
          />
          <header>
            <ul className="flex flex-wrap gap-1.5" aria-label="About this course">
              <li>
                <Badge tone="brand">{categoryLabel(course.category)}</Badge>
              </li>
              <li>
                <Badge>{levelLabel(course.level)}</Badge>
              </li>
              <li>
                <Badge>
                  {course.format === 'online' ? (
                    <Monitor className="h-3 w-3" aria-hidden="true" />
                  ) : (
                    <MapPin className="h-3 w-3" aria-hidden="true" />
                  )}
                  {where}
                </Badge>
              </li>
              <li>
                <Badge>
                  <Globe2 className="h-3 w-3" aria-hidden="true" />
                  {course.language}
                </Badge>
              </li>
              {ages && (
                <li>
                  <Badge>
                    <PersonStanding className="h-3 w-3" aria-hidden="true" />
                    {ages}
                  </Badge>
                </li>
              )}
              {course.audience && (
                <li>
                  <Badge>
                    <Users className="h-3 w-3" aria-hidden="true" />
                    {course.audience}
                  </Badge>
                </li>
              )}
              {course.status !== 'published' && (
                <li>
                  <Badge tone="amber">{course.status === 'draft' ? 'Draft' : 'Archived'}</Badge>
                </li>
              )}
            </ul>
            <h1 className="mt-3 break-words text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{course.title}</h1>
            <p className="mt-2 break-words text-lg text-slate-700">{course.summary}</p>
            <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-700">
              <a href="#reviews" className="hover:underline">
                <Stars value={course.ratingAvg} count={course.ratingCount} />
              </a>
              <span>
                by{' '}
                <Link to={paths.educator(course.educator.userId)} className="font-semibold text-brand-700 hover:underline">
                  {course.educator.name}
                </Link>
              </span>
            </div>
            {/* Small screens: the price and the way to the sessions, right under the title. */}
            <div className="mt-5 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm lg:hidden">
              <div className="flex flex-wrap items-center justify-between gap-3">
                <p className="text-2xl font-bold text-slate-900">{formatPrice(course.priceCents, course.currency)}</p>
                {!course.isOwner && upcoming.length > 0 && (
                  <a href="#sessions" className={buttonClass('primary', 'py-2')}>
                    {upcoming.some((s) => s.myEnrolment) ? 'Your sessions' : 'Choose a session'}
                  </a>
                )}
              </div>
              <div className="mt-1">
                <PaymentOptions course={course} />
              </div>
            </div>
          </header>

          <Section id="sessions" title="Sessions">
            {upcoming.length === 0 ? (
              <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">
                No upcoming session yet.{' '}
                {course.isOwner ? (
                  <Link to={paths.newSession(course.id)} className="font-semibold text-brand-700 hover:underline">
                    Add a session
                  </Link>
                ) : (
                  'Check back soon.'
                )}
              </div>
            ) : (
              <>
                <p className="mb-3 text-sm text-slate-600">
                  Times are shown in your time zone, <span className="font-medium text-slate-800">{zone}</span>.
                </p>
                <div className="space-y-4">
                  {upcoming.map((s) => (
                    <SessionCard
                      key={s.id}
                      courseId={course.id}
                      session={s}
                      isOwner={course.isOwner}
                      viewerZone={zone}
                      paid={course.priceCents > 0}
                    />
                  ))}
                </div>
              </>
            )}
            {past.length > 0 && (
              <details className="mt-4">
                <summary className="cursor-pointer text-sm font-semibold text-slate-700 hover:underline">
                  Past and cancelled sessions ({past.length})
                </summary>
                <div className="mt-3 space-y-4">
                  {past.map((s) => (
                    <SessionCard
                      key={s.id}
                      courseId={course.id}
                      session={s}
                      isOwner={course.isOwner}
                      viewerZone={zone}
                      paid={course.priceCents > 0}
                    />
                  ))}
                </div>
              </details>
            )}
          </Section>

          <Section id="about" title="About this course">
            <Description source={course.description} />
            <dl className="mt-6 grid gap-4 rounded-2xl border border-slate-200 bg-white p-5 text-sm sm:grid-cols-2">
              <div>
                <dt className="font-medium text-slate-900">Level</dt>
                <dd className="text-slate-700">{levelLabel(course.level)}</dd>
              </div>
              <div>
                <dt className="font-medium text-slate-900">Language</dt>
                <dd className="text-slate-700">{course.language}</dd>
              </div>
              <div>
                <dt className="font-medium text-slate-900">Who it's for</dt>
                <dd className="text-slate-700">{[ages, course.audience].filter(Boolean).join(' · ') || 'Everyone'}</dd>
              </div>
              <div>
                <dt className="font-medium text-slate-900">Where</dt>
                <dd className="break-words text-slate-700">
                  {course.format === 'online'
                    ? 'Online: the meeting link is shared with enrolled learners'
                    : [course.address, course.city].filter(Boolean).join(', ')}
                </dd>
              </div>
            </dl>
          </Section>

          <Section id="educator" title="Your educator">
            <Card>
              <EducatorCard educator={course.educator} />
            </Card>
          </Section>

          <Section
            id="reviews"
            title="Reviews"
            action={
              course.canReview && (
                <ButtonLink to={paths.reviewCourse(course.id)} variant="secondary" className="py-2">
                  <Star className="h-4 w-4" aria-hidden="true" /> {myReview ? 'Edit your review' : 'Write a review'}
                </ButtonLink>
              )
            }
          >
            <Card>
              <RatingSummary avg={course.ratingAvg} count={course.ratingCount} reviews={course.reviews} />
              {course.reviews.length > 0 ? (
                <div className="mt-4 border-t border-slate-100">
                  <ReviewList reviews={course.reviews} />
                </div>
              ) : (
                <p className="mt-4 text-sm text-slate-600">
                  {course.canReview ? 'Be the first to share how it went.' : 'Learners who take this course can review it here.'}
                </p>
              )}
              {!course.canReview && course.reviewOpensAt && (
                <p className="mt-4 text-sm text-slate-700">
                  You can review this course after your first class: from {formatDateTime(course.reviewOpensAt)}.
                </p>
              )}
            </Card>
          </Section>

          <Section id="refunds" title="Refund policy">
            <p className="flex gap-2 text-sm text-slate-700">
              <ShieldCheck className="h-5 w-5 shrink-0 text-emerald-700" aria-hidden="true" />
              <span>
                <span className="font-semibold text-slate-900">{policy.label}.</span> {policy.text}
              </span>
            </p>
          </Section>
        </div>

        <aside aria-label="Price and enrolment" className="hidden lg:block">
          <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm lg:sticky lg:top-24">
            <p className="text-3xl font-bold text-slate-900">{formatPrice(course.priceCents, course.currency)}</p>
            <div className="mt-2">
              <PaymentOptions course={course} />
            </div>
            {next ? (
              <p className="mt-4 flex items-start gap-2 text-sm text-slate-700">
                <CalendarDays className="mt-0.5 h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
                <span>
                  Next session {formatDateRange(next.startsOn, next.endsOn)} (starts {startsIn(next.startsOn)})
                  {next.seatsLeft > 0 ? `, ${next.seatsLeft} seats left` : ', full: waitlist open'}
                </span>
              </p>
            ) : (
              <p className="mt-4 text-sm text-slate-600">No upcoming session yet.</p>
            )}
            {course.isOwner ? (
              <div className="mt-4 grid gap-2">
                <ButtonLink to={paths.editCourse(course.id)}>Edit course</ButtonLink>
                <ButtonLink to={paths.courseRoster(course.id)} variant="secondary">
                  Roster
                </ButtonLink>
              </div>
            ) : upcoming.length > 0 ? (
              <a href="#sessions" className={buttonClass('primary', 'mt-4 w-full')}>
                {upcoming.some((s) => s.myEnrolment) ? 'Your sessions' : 'Choose a session'}
              </a>
            ) : null}
            <p className="mt-4 border-t border-slate-100 pt-3 text-xs text-slate-600">
              <span className="font-semibold text-slate-700">{policy.label} refunds:</span> {policy.text}
            </p>
          </div>
        </aside>
      </div>
    </div>
  );
}

export default function CoursePage() {
  const { id } = useParams();
  return (
    <CourseGate id={id} loading={<CourseSkeleton />}>
      {(course) => <CourseDetail course={course} />}
    </CourseGate>
  );
}
