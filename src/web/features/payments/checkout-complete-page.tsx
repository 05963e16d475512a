import { useSearchParams } from 'react-router';
import { CalendarCheck2, CircleSlash, Undo2 } from 'lucide-react';
import { PAYMENT_MESSAGES, installmentSchedule } from '@shared/payments';
import type { VerifySessionResult } from '@shared/payments-schemas';
import { ApiError } from '@web/lib/api';
import { ButtonLink } from '@web/components/ui/button';
import { formatDateRange, money } from '@web/lib/format';
import { Confirming, ResultCard, StillProcessing, useVerifiedCheckout, VerifyError } from './components/confirmation';
import { REFUND_ARRIVAL } from '@shared/refund-terms';
import { paths } from '@web/lib/paths';

function paidLine(p: VerifySessionResult['purchase']) {
  if (p.installments) {
    const [first] = installmentSchedule(p.amountCents, p.installments);
    return `${money(first, p.currency)} paid today, the first of ${p.installments} monthly installments (total ${money(p.amountCents, p.currency)}).`;
  }
  return `${money(p.amountCents, p.currency)} paid.`;
}

function Outcome({ result }: { result: VerifySessionResult }) {
  const { purchase, course, session } = result;
  const courseLink = course && (
    <ButtonLink to={paths.course(course.id)} variant="secondary">
      Open the course
    </ButtonLink>
  );
  const what = course && (
    <p className="font-medium text-slate-800">
      {course.title}
      {session && <span className="block text-sm font-normal text-slate-600">{formatDateRange(session.startsOn, session.endsOn)}</span>}
    </p>
  );

  if (purchase.status === 'refunded') {
    return (
      <ResultCard
        icon={<Undo2 className="mx-auto h-12 w-12 text-amber-600" aria-hidden="true" />}
        title="Your payment was refunded"
        actions={
          <>
            {course && <ButtonLink to={paths.course(course.id)}>Choose another session</ButtonLink>}
            <ButtonLink to={paths.courseSearch()} variant="secondary">
              Find another course
            </ButtonLink>
          </>
        }
      >
        {what}
        <p role="alert" className="mt-3">
          {purchase.failureReason ?? 'The last seat was taken just before your payment was confirmed.'}
        </p>
        <p className="mt-2 text-sm">
          We refunded {money(purchase.amountCents, purchase.currency)} in full. {REFUND_ARRIVAL} You are not enrolled.
        </p>
      </ResultCard>
    );
  }
  if (purchase.status === 'cancelled' || purchase.status === 'expired' || result.status === 'expired') {
    return (
      <ResultCard
        icon={<CircleSlash className="mx-auto h-12 w-12 text-slate-500" aria-hidden="true" />}
        title="This payment was not completed"
        actions={
          <>
            {course && session && <ButtonLink to={paths.checkout(course.id, session.id)}>Try again</ButtonLink>}
            {courseLink}
          </>
        }
      >
        {what}
        <p role="status" className="mt-3">
          Nothing was charged and you are not enrolled.
        </p>
      </ResultCard>
    );
  }
  return (
    <ResultCard
      icon={<CalendarCheck2 className="mx-auto h-12 w-12 text-emerald-600" aria-hidden="true" />}
      title="You're enrolled"
      actions={
        <>
          <ButtonLink to={paths.dashboard}>Go to your dashboard</ButtonLink>
          {courseLink}
        </>
      }
    >
      {what}
      <p role="status" className="mt-3">
        {paidLine(purchase)} A receipt is on its way to your email, and your payments are listed in Settings.
      </p>
      {purchase.status === 'past_due' && (
        <p className="mt-2 text-sm font-medium text-amber-800">Your last installment is past due: update your card to keep your seat.</p>
      )}
    </ResultCard>
  );
}

/** /course/checkout/complete?session_id= — where the card form returns after paying. */
export default function CheckoutCompletePage() {
  const [params] = useSearchParams();
  const checkoutId = params.get('session_id') ?? '';
  const { result, done, timedOut, error, elapsed } = useVerifiedCheckout(checkoutId);
  if (!checkoutId) return <VerifyError error={new ApiError(400, PAYMENT_MESSAGES.sessionMissing, 'bad_request')} />;
  if (error) return <VerifyError error={error} />;
  if (done && result) return <Outcome result={result} />;
  if (timedOut)
    return (
      <StillProcessing
        actions={
          <>
            <ButtonLink to={paths.dashboard}>Go to your dashboard</ButtonLink>
            {result?.course && (
              <ButtonLink to={paths.course(result.course.id)} variant="secondary">
                Open the course
              </ButtonLink>
            )}
          </>
        }
      />
    );
  return <Confirming elapsed={elapsed} />;
}
