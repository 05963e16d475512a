import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DoorOpen } from 'lucide-react';
import { type CourseView, type DropRefund } from '@shared/courses-schemas';
import { REFUND_ARRIVAL } from '@shared/refund-terms';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { Button, ButtonLink } from '@web/components/ui/button';
import { PageLoading } from '@web/components/ui/spinner';
import NotFoundPage from '@web/components/not-found-page';
import { drop } from './api/course-sessions';
import { CourseGate } from './components/course-gate';
import { money, refundPolicy } from '@web/lib/format';
import { Skeleton } from '@web/components/ui/skeleton';
import { dropRefundQuery } from './api/drop-refund';
import { SessionSummary } from './components/session-summary';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';

type Session = CourseView['sessions'][number];

/** What a paid drop gave back: the amount (or none, per the refund policy) and the server's words. */
function RefundOutcome({ refund, message }: { refund: DropRefund; message: string }) {
  const amount = money(refund.amountCents, refund.currency);
  const label =
    refund.amountCents === 0 ? 'No refund' : refund.pending ? 'Refund on its way' : refund.full ? 'Refunded in full' : 'Refunded';
  return (
    <div className="mx-auto mt-4 max-w-md rounded-xl border border-slate-200 bg-slate-50 p-4 text-left">
      <dl className="flex items-baseline justify-between gap-3">
        <dt className="text-sm font-medium text-slate-700">{label}</dt>
        <dd className="text-xl font-bold tabular-nums text-slate-900">{refund.amountCents === 0 ? '—' : amount}</dd>
      </dl>
      <p className="mt-1 text-sm text-slate-600">{message.replace(/^You have left this session\.\s*/, '')}</p>
      {refund.amountCents > 0 && <p className="mt-1 text-xs text-slate-600">{REFUND_ARRIVAL} Your payments are listed in Settings.</p>}
    </div>
  );
}

/**
 * Before dropping: the amount that will be refunded, as the server computes it with the code
 * the drop runs, beside the course's refund policy.
 */
function RefundDue({
  course,
  session,
  policy,
  learner,
}: {
  course: CourseView;
  session: Session;
  policy: ReturnType<typeof refundPolicy>;
  learner: string | null;
}) {
  const { data, error } = useQuery(dropRefundQuery(course.id, session.id, learner));
  return (
    <section aria-labelledby="refund-due-heading" className="rounded-xl border border-slate-200 bg-slate-50 p-4">
      <h2 id="refund-due-heading" className="sr-only">
        Your refund
      </h2>
      {data ? (
        data.paid ? (
          <dl className="flex flex-wrap items-baseline justify-between gap-3">
            <dt className="text-sm font-medium text-slate-700">
              {data.amountCents === 0 ? 'No refund under the policy' : data.full ? 'You get back everything you paid' : 'You get back'}
            </dt>
            <dd className="text-xl font-bold tabular-nums text-slate-900" data-testid="refund-due">
              {money(data.amountCents, data.currency)}
            </dd>
          </dl>
        ) : (
          <p className="text-sm text-slate-700">Nothing was paid for this seat: nothing to refund.</p>
        )
      ) : error ? (
        <p className="text-sm text-slate-700">The refund amount could not be loaded; the policy below applies.</p>
      ) : (
        <Skeleton className="h-7" />
      )}
      {data?.paid && data.amountCents < data.paidCents && (
        <p className="mt-1 text-sm text-slate-600">
          Of {money(data.paidCents, data.currency)} paid{data.stopsInstallments ? ' so far' : ''}.
        </p>
      )}
      {data?.stopsInstallments && <p className="mt-1 text-sm text-slate-600">No further installments will be taken.</p>}
      <p className="mt-2 text-sm text-slate-600">
        {policy.label} refunds: {policy.text}
      </p>
    </section>
  );
}

function Drop({ course, session, learner }: { course: CourseView; session: Session; learner: string | null }) {
  const queryClient = useQueryClient();
  // `name` is kept with the outcome: once dropped, the seat is gone from the refreshed session.
  const [done, setDone] = useState<{ message: string; refund: DropRefund | null; name: string | null } | null>(null);
  // Family accounts (ADR 0074): one learner profile's seat (?learner=), or the holder's own.
  const seat = learner ? (session.learnerEnrolments ?? []).find((e) => e.learnerProfileId === learner) : null;
  const name = seat?.firstName ?? null;
  const mutation = useMutation({
    mutationFn: () => drop(course.id, session.id, learner),
    onSuccess: async (r) => {
      setDone({ message: r.message, refund: r.refund ?? null, name });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.course(course.id) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.dashboard }),
        queryClient.invalidateQueries({ queryKey: queryKeys.courseLists }),
        queryClient.invalidateQueries({ queryKey: queryKeys.myInstallments }),
        queryClient.invalidateQueries({ queryKey: queryKeys.paymentHistory }),
      ]);
    },
  });

  if (done) {
    return (
      <div className="mx-auto max-w-2xl rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm" role="status">
        <DoorOpen className="mx-auto h-12 w-12 text-brand-700" aria-hidden="true" />
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">
          {done.refund ? (done.name ? `${done.name} has left this session` : 'You have left this session') : done.message}
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

  const mine = learner ? seat : session.myEnrolment;
  const waitlisted = mine?.status === 'waitlisted';
  const policy = refundPolicy(course.refundPolicy);
  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
        {name
          ? waitlisted
            ? `Take ${name} off the waitlist?`
            : `Drop ${name} from this session?`
          : waitlisted
            ? 'Leave the waitlist?'
            : 'Drop this session?'}
      </h1>
      <p className="mt-1 text-slate-600">
        {waitlisted
          ? `${name ?? 'You'} will lose ${name ? 'their' : 'your'} place in the queue.`
          : `${name ? `${name}'s` : 'Your'} seat goes to the next learner on the waitlist, if any.${name ? ' Your other learners keep theirs.' : ''}`}
      </p>
      <div className="mt-6 space-y-4">
        <SessionSummary course={course} session={session} visible={3} />
        {!mine ? (
          <Alert tone="info" title={learner ? 'This learner is not enrolled in this session' : 'You are not enrolled in this session'}>
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
          course.priceCents > 0 && !waitlisted && <RefundDue course={course} session={session} policy={policy} learner={learner} />
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
              {name
                ? waitlisted
                  ? `Take ${name} off the waitlist`
                  : `Drop ${name}`
                : waitlisted
                  ? 'Leave the waitlist'
                  : 'Drop this session'}
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}

export default function DropPage() {
  const { courseID, sessionID } = useParams();
  const [search] = useSearchParams();
  const learner = search.get('learner');
  return (
    <CourseGate id={courseID} loading={<PageLoading label="Loading the session…" />}>
      {(course) => {
        const session = course.sessions.find((s) => s.id === sessionID);
        return session ? (
          <Drop course={course} session={session} learner={learner && learner !== 'me' ? learner : null} />
        ) : (
          <NotFoundPage />
        );
      }}
    </CourseGate>
  );
}
