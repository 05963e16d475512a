import { useEffect, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, Clock, CreditCard } from 'lucide-react';
import type { VerifySessionResult } from '@shared/payments-schemas';
import { ApiError } from '@web/lib/api';
import { ButtonLink } from '@web/components/ui/button';
import { queryKeys } from '@web/lib/query-keys';
import { verifyCheckout } from '../api/checkout';
import { paths } from '@web/lib/paths';

export const POLL_MS = 1000;
export const POLL_LIMIT_MS = 30_000;

/** The purchase is settled one way or the other: nothing more to wait for. */
const settled = (r: VerifySessionResult | undefined) => !!r && (r.purchase.status !== 'open' || r.status === 'expired');

/**
 * Asks the server about a checkout every second until the purchase is settled
 * (verify-session fulfils it when the webhook has not yet), for at most 30 seconds.
 */
export function useVerifiedCheckout(checkoutId: string) {
  const queryClient = useQueryClient();
  const [startedAt] = useState(() => Date.now());
  const [elapsed, setElapsed] = useState(0);
  const query = useQuery({
    queryKey: queryKeys.checkoutVerification(checkoutId),
    queryFn: () => verifyCheckout(checkoutId),
    enabled: !!checkoutId,
    retry: false,
    refetchInterval: (q) => (settled(q.state.data) || q.state.error || Date.now() - startedAt > POLL_LIMIT_MS ? false : POLL_MS),
  });
  const done = settled(query.data);
  const timedOut = !done && elapsed >= POLL_LIMIT_MS;
  useEffect(() => {
    if (done || timedOut || query.error) return;
    const t = setInterval(() => setElapsed(Date.now() - startedAt), 250);
    return () => clearInterval(t);
  }, [done, timedOut, query.error, startedAt]);
  useEffect(() => {
    if (!done) return;
    // What the purchase changed: the learner's dashboard and course, the educator's plan.
    void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
    void queryClient.invalidateQueries({ queryKey: queryKeys.courses });
    void queryClient.invalidateQueries({ queryKey: queryKeys.paymentHistory });
    void queryClient.invalidateQueries({ queryKey: queryKeys.payouts });
  }, [done, queryClient]);
  return { result: query.data, done, timedOut, error: query.error, elapsed };
}

/** The big centred card of a confirmation page. */
export function ResultCard({
  icon,
  title,
  children,
  actions,
}: {
  icon: ReactNode;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-2xl rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm sm:p-8">
      {icon}
      <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
      {children && <div className="mx-auto mt-2 max-w-md text-slate-600">{children}</div>}
      {actions && <div className="mt-6 flex flex-wrap justify-center gap-3">{actions}</div>}
    </div>
  );
}

/** "Confirming your payment…" with how long we have waited, out of the 30 s we wait. */
export function Confirming({ elapsed }: { elapsed: number }) {
  const seconds = Math.min(POLL_LIMIT_MS, elapsed) / 1000;
  return (
    <ResultCard
      icon={<CreditCard className="mx-auto h-12 w-12 animate-pulse text-brand-700" aria-hidden="true" />}
      title="Confirming your payment…"
    >
      <p role="status">This usually takes a few seconds. Please keep this page open.</p>
      <progress
        className="mt-5 h-2 w-full overflow-hidden rounded-full accent-brand-700 [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-brand-600"
        max={POLL_LIMIT_MS / 1000}
        value={seconds}
        aria-label="Confirming your payment"
      />
    </ResultCard>
  );
}

export function StillProcessing({ actions }: { actions: ReactNode }) {
  return (
    <ResultCard
      icon={<Clock className="mx-auto h-12 w-12 text-amber-600" aria-hidden="true" />}
      title="Your payment is still being processed"
      actions={actions}
    >
      <p role="status">
        The payment provider has not confirmed it yet. You don't need to pay again: we will email you as soon as it is confirmed, and
        reloading this page checks again.
      </p>
    </ResultCard>
  );
}

export function VerifyError({ error }: { error: unknown }) {
  return (
    <ResultCard
      icon={<AlertTriangle className="mx-auto h-12 w-12 text-red-600" aria-hidden="true" />}
      title="We could not check this payment"
      actions={
        <ButtonLink to={paths.dashboard} variant="secondary">
          Go to your dashboard
        </ButtonLink>
      }
    >
      <p role="alert">{error instanceof ApiError ? error.message : 'Please reload the page to try again.'}</p>
    </ResultCard>
  );
}
