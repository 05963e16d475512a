import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Check, Sparkles } from 'lucide-react';
import { PLANS } from '@shared/payments';
import { PRICING_REFUND_PROMISE } from '@shared/refund-terms';
import type { CheckoutResult } from '@shared/payments-schemas';
import { ApiError } from '@web/lib/api';
import { paths } from '@web/lib/paths';
import { Alert } from '@web/components/ui/alert';
import { Button, ButtonLink } from '@web/components/ui/button';
import { useMe } from '@web/lib/viewer';
import { usePricing } from '@web/lib/pricing';
import { Skeleton } from '@web/components/ui/skeleton';
import { paymentsConfigQuery, startPlanCheckout, type PaymentsConfig } from '@web/features/payments/api/checkout';
import { payoutsQuery } from '@web/features/educators/api/payouts';
import { CardForm } from '@web/features/payments/components/card-form';
import { money } from '@web/lib/format';

/** Name and price; every fee comes from GET /api/pricing (the server's configuration). */
const PRO = PLANS[0];

function Feature({ children }: { children: string }) {
  return (
    <li className="flex gap-2 text-sm text-slate-700">
      <Check className="mt-0.5 h-4 w-4 shrink-0 text-emerald-600" aria-hidden="true" />
      {children}
    </li>
  );
}

/** /pricing — learning is free; educators pay a fee per sale, lower with Educator Pro. */
export default function PricingPage() {
  const [params] = useSearchParams();
  const returned = params.get('session_id');
  // The card form may return here rather than to /pricing/complete: confirm it there.
  if (returned) return <Navigate to={paths.pricingComplete(returned)} replace />;
  return <Pricing />;
}

function Pricing() {
  const { data: me } = useMe();
  const navigate = useNavigate();
  const config = useQuery({ ...paymentsConfigQuery, enabled: !!me });
  const payouts = useQuery({ ...payoutsQuery(), enabled: !!me?.educator });
  const pricing = usePricing();
  const onPro = payouts.data?.plan.id === PRO.id;
  const [checkout, setCheckout] = useState<{ config: PaymentsConfig; result: CheckoutResult } | null>(null);
  const formRef = useRef<HTMLElement>(null);
  const buy = useMutation({
    mutationFn: async () => {
      const cfg = config.data ?? (await config.refetch()).data;
      if (!cfg?.customer) throw new ApiError(500, 'Your payment profile is not ready yet. Please try again in a moment.', 'no_customer');
      return { config: cfg, result: await startPlanCheckout({ customer: cfg.customer, product: PRO.id, price: PRO.priceCents }) };
    },
    onSuccess: setCheckout,
  });
  useEffect(() => {
    if (checkout) formRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [checkout]);

  const getPro = () => {
    if (!me) navigate(paths.login(paths.pricing));
    else buy.mutate();
  };

  return (
    <div className="mx-auto max-w-5xl px-4 py-14">
      <h1 className="text-4xl font-extrabold tracking-tight text-slate-900">Pricing</h1>
      <p className="mt-3 text-lg text-slate-700">Learning on Agora is free; educators pay a small fee only when they sell.</p>

      <div className="mt-10 grid gap-6 md:grid-cols-3">
        <section aria-labelledby="plan-learner" className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="plan-learner" className="text-lg font-semibold text-slate-900">
            Learner
          </h2>
          <p className="mt-2 text-3xl font-bold text-slate-900">Free</p>
          <p className="mt-2 text-sm text-slate-600">
            Join courses and clubs; pay only for the courses you take, at once or in installments.
          </p>
          <ul className="mt-4 flex-1 space-y-2">
            <Feature>Search every course and club</Feature>
            <Feature>Pay by card, or monthly where offered</Feature>
            <Feature>{PRICING_REFUND_PROMISE}</Feature>
          </ul>
          <ButtonLink to={me ? paths.courseSearch() : paths.signup} variant="secondary" className="mt-6">
            {me ? 'Find a course' : 'Sign up free'}
          </ButtonLink>
        </section>

        <section aria-labelledby="plan-educator" className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="plan-educator" className="text-lg font-semibold text-slate-900">
            Educator
          </h2>
          {pricing ? (
            pricing.standardFees.map((l) => (
              <p key={l.label} className="mt-2 text-3xl font-bold text-slate-900">
                {l.feePercent}% <span className="text-base font-medium text-slate-600">{l.label}</span>
              </p>
            ))
          ) : (
            <Skeleton className="mt-2 h-9 w-32" />
          )}
          <p className="mt-2 text-sm text-slate-600">Publish courses and get paid out to your bank automatically. No monthly cost.</p>
          <ul className="mt-4 flex-1 space-y-2">
            <Feature>Unlimited courses and sessions</Feature>
            <Feature>Payouts through Stripe Connect</Feature>
            <Feature>Roster, sales and payout dashboard</Feature>
          </ul>
          <ButtonLink to={me?.educator ? paths.educatorDashboard : paths.educatorOnboard} variant="secondary" className="mt-6">
            {me?.educator ? 'Your educator dashboard' : 'Start teaching'}
          </ButtonLink>
        </section>

        <section aria-labelledby="plan-pro" className="relative flex flex-col rounded-2xl border-2 border-brand-600 bg-white p-6 shadow-md">
          <span className="absolute -top-3 left-6 inline-flex items-center gap-1 rounded-full bg-brand-700 px-3 py-0.5 text-xs font-semibold text-white">
            <Sparkles className="h-3.5 w-3.5" aria-hidden="true" /> Lower fee
          </span>
          <h2 id="plan-pro" className="text-lg font-semibold text-slate-900">
            {PRO.name}
          </h2>
          <p className="mt-2 text-3xl font-bold text-brand-700">
            {money(PRO.priceCents, PRO.currency)} <span className="text-base font-medium text-slate-600">/ {PRO.interval}</span>
          </p>
          <p className="mt-2 text-sm text-slate-600">
            For educators who teach every week
            {pricing?.pro.fees.length === 1 && <>: keep {100 - pricing.pro.feePercent}% of every sale</>}.
          </p>
          <ul className="mt-4 flex-1 space-y-2">
            {pricing ? (
              pricing.pro.features.map((f) => <Feature key={f}>{f}</Feature>)
            ) : (
              <li>
                <Skeleton className="h-16 w-full" />
              </li>
            )}
          </ul>
          {onPro ? (
            <p className="mt-6 rounded-lg bg-emerald-50 px-4 py-2.5 text-center text-sm font-semibold text-emerald-800">
              You're on {PRO.name}
            </p>
          ) : (
            <Button onClick={getPro} loading={buy.isPending} disabled={!!checkout} className="mt-6">
              {buy.isPending ? 'Preparing the card form…' : `Get ${PRO.name}`}
            </Button>
          )}
        </section>
      </div>

      {buy.error && (
        <div className="mt-6">
          <Alert tone="error" title={`${PRO.name} could not be started`}>
            {buy.error instanceof ApiError ? buy.error.message : 'Please try again.'}
            {buy.error instanceof ApiError && buy.error.code === 'payouts_required' && (
              <>
                {' '}
                <Link to={paths.educatorOnboard} className="font-semibold underline">
                  Set up payouts
                </Link>
              </>
            )}
          </Alert>
        </div>
      )}

      {checkout && (
        <section
          ref={formRef}
          aria-labelledby="pay-pro"
          className="mx-auto mt-10 max-w-2xl scroll-mt-6 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
        >
          <h2 id="pay-pro" className="text-lg font-semibold text-slate-900">
            Pay for {PRO.name}
          </h2>
          <p className="mb-4 mt-1 text-sm text-slate-600">
            {money(PRO.priceCents, PRO.currency)} every {PRO.interval}.
            {pricing && (
              <> Your fee drops to {pricing.pro.fees.map((l) => `${l.feePercent}% ${l.label}`).join(', ')} from the moment it is paid.</>
            )}
          </p>
          <CardForm config={checkout.config} checkout={checkout.result} />
          <Button variant="ghost" className="mt-3 px-2" onClick={() => setCheckout(null)}>
            Not now
          </Button>
        </section>
      )}

      <p className="mt-10 text-sm text-slate-600">
        How fees, payouts and refunds work for educators:{' '}
        <Link to={paths.educatorBenefits} className="font-semibold text-brand-700 hover:underline">
          Teaching on Agora
        </Link>
        .
      </p>
    </div>
  );
}
