import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DoorOpen } from 'lucide-react';
import { formatPrice } from '@shared/courses';
import { type CourseView, type DropRefund } from '@shared/courses-schemas';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { Button, ButtonLink } from '@web/components/ui/button';
import { PageLoading } from '@web/components/ui/spinner';
import NotFoundPage from '@web/components/not-found-page';
import { drop } from './api/course-sessions';
import { CourseGate } from './components/course-gate';
import { refundPolicy } from '@web/lib/format';
import { SessionSummary } from './components/session-summary';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';

type Session = CourseView['sessions'][number];

/** What a paid drop gave back: the amount (or none, per the refund policy) and the server's words. */
function RefundOutcome({ refund, message }: { refund: DropRefund; message: string }) {
  const amount = formatPrice(refund.amountCents, refund.currency);
  const label =
    refund.amountCents === 0 ? 'No refund' : refund.pending ? 'Refund on its way' : refund.full ? 'Refunded in full' : 'Refunded';
  return (
    <div className="mx-auto mt-4 max-w-md rounded-xl border border-slate-200 bg-slate-50 p-4 text-left">
      <dl className="flex items-baseline justify-between gap-3">
        <dt className="text-sm font-medium text-slate-700">{label}</dt>
        <dd className="text-xl font-bold tabular-nums text-slate-900">{refund.amountCents === 0 ? '—' : amount}</dd>
      </dl>
      <p className="mt-1 text-sm text-slate-600">{message.replace(/^You have left this session\.\s*/, '')}</p>
      {refund.amountCents > 0 && (
        <p className="mt-1 text-xs text-slate-600">Refunds reach your card in 5–10 days; your payments are listed in Settings.</p>
      )}
    </div>
  );
}

function Drop({ course, session }: { course: CourseView; session: Session }) {
  const queryClient = useQueryClient();
  const [done, setDone] = useState<{ message: string; refund: DropRefund | null } | null>(null);
  const mutation = useMutation({
    mutationFn: () => drop(course.id, session.id),
    onSuccess: async (r) => {
      setDone({ message: r.message, refund: r.refund ?? null });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.course(course.id) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.dashboard }),
        queryClient.invalidateQueries({ queryKey: queryKeys.courseLists }),
      ]);
    },
  });

  if (done) {
    return (
      <div className="mx-auto max-w-2xl rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm" role="status">
        <DoorOpen className="mx-auto h-12 w-12 text-brand-700" aria-hidden="true" />
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">
          {done.refund ? 'You have left this session' : done.message}
        </h1>
        {done.refund ? (
          <RefundOutcome refund={done.refund} message={done.message} />
        ) : (
          <p className="mx-auto mt-2 max-w-md text-slate-600">Your place is freed. You can enrol again while seats are left.</p>
        )}
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <ButtonLink to={paths.course(course.id)}>Back to the course</ButtonLink>
          <ButtonLink to={paths.dashboard} variant="secondary">
            Go to your dashboard
          </ButtonLink>
          <ButtonLink to={paths.courseSearch()} variant="secondary">
            Find another course
          </ButtonLink>
        </div>
      </div>
    );
  }

  const mine = session.myEnrolment;
  const waitlisted = mine?.status === 'waitlisted';
  const policy = refundPolicy(course.refundPolicy);
  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
        {waitlisted ? 'Leave the waitlist?' : 'Drop this session?'}
      </h1>
      <p className="mt-1 text-slate-600">
        {waitlisted ? 'You will lose your place in the queue.' : 'Your seat goes to the next learner on the waitlist, if any.'}
      </p>
      <div className="mt-6 space-y-4">
        <SessionSummary course={course} session={session} visible={3} />
        {!mine ? (
          <Alert tone="info" title="You are not enrolled in this session">
            Nothing to drop.{' '}
            <Link to={paths.course(course.id)} className="font-semibold underline">
              See the course's sessions
            </Link>
          </Alert>
        ) : mine.status === 'completed' ? (
          <Alert tone="info" title="This session is already completed">
            A completed session cannot be dropped.
          </Alert>
        ) : (
          course.priceCents > 0 &&
          !waitlisted && (
            <p className="text-sm text-slate-600">
              {policy.label} refunds: {policy.text}
            </p>
          )
        )}
        {mutation.error && (
          <Alert tone="error" title="You could not drop this session">
            {mutation.error instanceof ApiError ? mutation.error.message : 'Please try again.'}
          </Alert>
        )}
        <div className="flex flex-wrap justify-end gap-3">
          <ButtonLink to={paths.course(course.id)} variant="secondary">
            {mine && mine.status !== 'completed' ? 'Keep my place' : 'Back to the course'}
          </ButtonLink>
          {mine && mine.status !== 'completed' && (
            <Button variant="danger" onClick={() => mutation.mutate()} loading={mutation.isPending}>
              {waitlisted ? 'Leave the waitlist' : 'Drop this session'}
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}

export default function DropPage() {
  const { courseID, sessionID } = useParams();
  return (
    <CourseGate id={courseID} loading={<PageLoading label="Loading the session…" />}>
      {(course) => {
        const session = course.sessions.find((s) => s.id === sessionID);
        return session ? <Drop course={course} session={session} /> : <NotFoundPage />;
      }}
    </CourseGate>
  );
}
