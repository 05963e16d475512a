import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { CircleSlash, Sparkles } from 'lucide-react';
import { PAYMENT_MESSAGES, planById } from '@shared/payments';
import { ApiError } from '@web/lib/api';
import { ButtonLink } from '@web/components/ui/button';
import { Confirming, ResultCard, StillProcessing, useVerifiedCheckout, VerifyError } from './components/confirmation';
import { money } from '@web/lib/format';
import { paths } from '@web/lib/paths';
import { pricingQuery } from '@web/lib/pricing';

/** /pricing/complete?session_id= — where the card form returns after buying a plan. */
export default function PricingCompletePage() {
  const [params] = useSearchParams();
  const checkoutId = params.get('session_id') ?? '';
  const { result, done, timedOut, error, elapsed } = useVerifiedCheckout(checkoutId);
  const pricing = useQuery(pricingQuery).data;
  if (!checkoutId) return <VerifyError error={new ApiError(400, PAYMENT_MESSAGES.sessionMissing, 'bad_request')} />;
  if (error) return <VerifyError error={error} />;
  if (timedOut)
    return (
      <StillProcessing
        actions={
          <ButtonLink to={paths.pricing} variant="secondary">
            Back to pricing
          </ButtonLink>
        }
      />
    );
  if (!done || !result) return <Confirming elapsed={elapsed} />;

  const plan = planById(result.plan?.id ?? '');
  const name = result.plan?.name ?? plan?.name ?? 'your plan';
  // The fees as the server charges them (decision 0037), not the shared constants.
  const fee = pricing?.plans.find((p) => p.id === plan?.id)?.feePercent;
  const ok = result.purchase.status === 'fulfilled' || result.purchase.status === 'completed' || result.purchase.status === 'past_due';
  if (!ok) {
    return (
      <ResultCard
        icon={<CircleSlash className="mx-auto h-12 w-12 text-slate-500" aria-hidden="true" />}
        title={`${name} was not activated`}
        actions={<ButtonLink to={paths.pricing}>Back to pricing</ButtonLink>}
      >
        <p role="status">
          {result.purchase.failureReason ??
            (result.purchase.status === 'refunded'
              ? 'Your payment was refunded.'
              : 'The payment was not completed, so nothing was charged.')}
        </p>
      </ResultCard>
    );
  }
  return (
    <ResultCard
      icon={<Sparkles className="mx-auto h-12 w-12 text-brand-700" aria-hidden="true" />}
      title={`You're on ${name}`}
      actions={
        <>
          <ButtonLink to={paths.educatorDashboard}>Go to your educator dashboard</ButtonLink>
          <ButtonLink to={paths.educatorBenefits} variant="secondary">
            How fees work
          </ButtonLink>
        </>
      }
    >
      <p role="status">
        {money(result.purchase.amountCents, result.purchase.currency)} paid.
        {pricing && fee !== undefined && (
          <>
            {' '}
            From now on the platform keeps {fee}% of each sale instead of {pricing.standard.feePercent}%.
          </>
        )}
      </p>
    </ResultCard>
  );
}
