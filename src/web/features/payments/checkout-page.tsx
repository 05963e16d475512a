import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { CalendarDays, CreditCard, ShieldCheck, Users } from 'lucide-react';
import type { CheckoutResult, CheckoutSummary } from '@shared/payments-schemas';
import { installmentSchedule, installmentTerms } from '@shared/payments';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { Button, ButtonLink } from '@web/components/ui/button';
import { PageHeader } from '@web/components/ui/card';
import { PageLoading, Spinner } from '@web/components/ui/spinner';
import NotFoundPage from '@web/components/not-found-page';
import { CourseCover } from '@web/components/ui/cover';
import { formatDateRange, formatHeldUntil, plural, refundPolicy, viewerTimeZone, money } from '@web/lib/format';
import { checkoutSummaryQuery, paymentsConfigQuery, startCourseCheckout, type PaymentsConfig } from './api/checkout';
import { CardForm } from './components/card-form';
import { PromoCodeField } from './components/promo-code-field';
import type { PromoQuote } from '@shared/promo-codes';
import { formatDeduction } from '@shared/money';
import { isUuid } from '@web/lib/ids';
import { paths } from '@web/lib/paths';

type Plan = 'full' | 'installments';

/**
 * The plan's terms, said once on the page, beside the card form: "3 monthly payments of
 * $40.00, last on Fri 22 Jan 2027" (the summary and the choice say only today's amount and the total).
 */
function installmentWords(summary: CheckoutSummary): string {
  return installmentTerms(summary.priceCents, summary.installments!, summary.currency, summary.lastInstallmentOn);
}

/** The first payment (today's) of the plan offered. */
const firstInstallment = (summary: CheckoutSummary) => installmentSchedule(summary.priceCents, summary.installments!)[0];

function firstClass(iso: string) {
  const zone = viewerTimeZone();
  return `${new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }).format(new Date(iso))} (${zone})`;
}

/** Course, session, refund policy and what is paid: the order as the server prices it. */
function OrderSummary({
  summary,
  plan,
  promo,
  unitCents,
}: {
  summary: CheckoutSummary;
  plan: Plan;
  promo: PromoQuote | null;
  /** The course's price for one learner. */
  unitCents: number;
}) {
  const { course, session, currency } = summary;
  const learners = summary.learners;
  const several = !!learners && learners.length > 1;
  const policy = refundPolicy(course.refundPolicy);
  const inInstallments = plan === 'installments' && summary.installments && summary.installmentCents;
  return (
    <section aria-labelledby="order-heading" className="rounded-2xl border border-slate-200 bg-white shadow-sm">
      <h2 id="order-heading" className="sr-only">
        Order summary
      </h2>
      <div className="flex gap-4 border-b border-slate-100 p-5">
        <CourseCover
          src={course.coverUrl}
          seed={course.id}
          title={course.title}
          category={course.category}
          className="aspect-[16/9] w-28 shrink-0 self-start rounded-lg"
        />
        <div className="min-w-0">
          <p className="break-words font-semibold text-slate-900">
            <Link to={paths.course(course.id)} className="hover:text-brand-700 hover:underline">
              {course.title}
            </Link>
          </p>
          <p className="text-sm text-slate-600">by {course.educatorName}</p>
        </div>
      </div>
      <dl className="space-y-3 p-5 text-sm">
        <div className="flex gap-3">
          <dt className="shrink-0">
            <CalendarDays className="mt-0.5 h-4 w-4 text-slate-500" aria-hidden="true" />
            <span className="sr-only">Session</span>
          </dt>
          <dd>
            <span className="block font-medium text-slate-900">{formatDateRange(session.startsOn, session.endsOn)}</span>
            {session.firstClassAt && <span className="block text-slate-600">First class {firstClass(session.firstClassAt)}</span>}
          </dd>
        </div>
        <div className="flex gap-3">
          <dt className="shrink-0">
            <Users className="mt-0.5 h-4 w-4 text-slate-500" aria-hidden="true" />
            <span className="sr-only">Seats</span>
          </dt>
          <dd className={session.seatsLeft <= 2 ? 'font-medium text-amber-800' : 'text-slate-700'}>
            {session.seatsLeft > 0 ? `${plural(session.seatsLeft, 'seat')} left` : 'No seats left'}
          </dd>
        </div>
        <div className="flex gap-3">
          <dt className="shrink-0">
            <ShieldCheck className="mt-0.5 h-4 w-4 text-slate-500" aria-hidden="true" />
            <span className="sr-only">Refund policy</span>
          </dt>
          <dd>
            <span className="block font-medium text-slate-900">{policy.label} refund policy</span>
            <span className="block text-slate-600">{policy.text}</span>
          </dd>
        </div>
      </dl>
      {learners && (
        <dl className="space-y-1 border-t border-slate-100 px-5 py-3 text-sm" data-testid="learner-lines">
          <div className="flex justify-between gap-2">
            <dt className="text-slate-600">For</dt>
            <dd className="text-right font-medium text-slate-900">{learners.map((l) => l.name).join(', ')}</dd>
          </div>
          {several && (
            <div className="flex justify-between gap-2">
              <dt className="text-slate-600">
                {money(unitCents, currency)} × {plural(learners.length, 'learner')}
              </dt>
              <dd className="font-medium text-slate-900">{money(unitCents * learners.length, currency)}</dd>
            </div>
          )}
        </dl>
      )}
      {promo && (
        <dl className="space-y-1 border-t border-slate-100 px-5 py-3 text-sm" data-testid="promo-lines">
          {/* Several learners: the price for all is the line above. */}
          {!several && (
            <div className="flex justify-between gap-2">
              <dt className="text-slate-600">Price</dt>
              <dd className="text-slate-600 line-through">{money(promo.listPriceCents, currency)}</dd>
            </div>
          )}
          <div className="flex justify-between gap-2">
            <dt className="font-medium text-emerald-800">
              Code {promo.code} ({promo.label})
            </dt>
            <dd className="font-medium text-emerald-800">{formatDeduction(promo.discountCents, currency)}</dd>
          </div>
        </dl>
      )}
      <dl className="flex flex-wrap items-end justify-between gap-2 rounded-b-2xl border-t border-slate-100 bg-slate-50 p-5">
        <dt className="text-sm font-medium text-slate-700">{inInstallments ? 'You pay' : 'Total'}</dt>
        <dd className="text-right">
          {inInstallments ? (
            <>
              <span className="block text-xl font-bold text-slate-900">{money(firstInstallment(summary), currency)} today</span>
              <span className="block text-sm text-slate-600">
                {money(summary.priceCents, currency)} in total, over {summary.installments} months
              </span>
            </>
          ) : (
            <span className="block text-xl font-bold text-slate-900">{money(summary.priceCents, currency)}</span>
          )}
        </dd>
      </dl>
    </section>
  );
}

function PlanChoice({
  summary,
  plan,
  onPlan,
  disabled,
}: {
  summary: CheckoutSummary;
  plan: Plan;
  onPlan: (p: Plan) => void;
  disabled: boolean;
}) {
  const n = summary.installments!;
  const options: { id: Plan; title: string; text: string }[] = [
    { id: 'full', title: 'Pay in full', text: `${money(summary.priceCents, summary.currency)} today` },
    {
      id: 'installments',
      title: `${n} monthly installments`,
      text: `${money(firstInstallment(summary), summary.currency)} today, ${money(summary.priceCents, summary.currency)} in total`,
    },
  ];
  const id = useId();
  return (
    <fieldset disabled={disabled}>
      <legend className="text-sm font-semibold text-slate-900">How would you like to pay?</legend>
      <div className="mt-2 grid gap-2">
        {options.map((o) => (
          <label
            key={o.id}
            className={`flex cursor-pointer gap-3 rounded-xl border p-3 transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 ${plan === o.id ? 'border-brand-600 bg-brand-50' : 'border-slate-200 bg-white hover:border-slate-300'}`}
          >
            <input
              type="radio"
              name="plan"
              value={o.id}
              checked={plan === o.id}
              onChange={() => onPlan(o.id)}
              className="mt-1 h-4 w-4 accent-brand-700"
              aria-labelledby={`${id}-${o.id}-title`}
              aria-describedby={`${id}-${o.id}-text`}
            />
            <span>
              <span id={`${id}-${o.id}-title`} className="block text-sm font-semibold text-slate-900">
                {o.title}
              </span>
              <span id={`${id}-${o.id}-text`} className="block text-sm text-slate-600">
                {o.text}
              </span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * The payment side of the one checkout page: how to pay (once or in installments) and the
 * card form for that choice, opened at once. Each choice opens its checkout once (kept while
 * the page is open), so switching back and forth opens no new purchase.
 */
function PaymentFlow({
  summary,
  listPriceCents,
  promo,
  codeField,
  config,
  refetchSummary,
}: {
  /** The order as it is paid: with a code, its price and installments (see withCode). */
  summary: CheckoutSummary;
  /** The course's own price, which the checkout sends (the server checks it against ours). */
  listPriceCents: number;
  promo: PromoQuote | null;
  codeField: ReactNode;
  config: PaymentsConfig;
  refetchSummary: () => Promise<unknown>;
}) {
  const [plan, setPlan] = useState<Plan>('full');
  const [checkouts, setCheckouts] = useState<Partial<Record<Plan, CheckoutResult>>>({});
  const [priceChanged, setPriceChanged] = useState(false);
  const offersInstallments = !!summary.installments && !!summary.installmentCents;
  const chosen: Plan = offersInstallments ? plan : 'full';
  const start = useMutation({
    mutationFn: (how: Plan) =>
      startCourseCheckout({
        customer: summary.customer,
        course: summary.course.id,
        session: summary.session.id,
        price: listPriceCents,
        installments: how === 'installments' ? summary.installments! : undefined,
        code: promo?.code,
        ...(summary.learners ? { learnerIds: summary.learners.map((l) => l.id) } : {}),
      }),
    onMutate: () => setPriceChanged(false),
    onSuccess: (result, how) => setCheckouts((c) => ({ ...c, [how]: result })),
    onError: async (err) => {
      // The seat count or price may have moved since the page loaded: show the order as it is now.
      if (err instanceof ApiError && (err.status === 400 || err.status === 409)) {
        const before = listPriceCents;
        const fresh = (await refetchSummary()) as { data?: CheckoutSummary };
        if (fresh.data && fresh.data.priceCents !== before) setPriceChanged(true);
      }
    },
  });
  // A seat offered from the waitlist is counted as taken, but it is the viewer's to pay for.
  const held = summary.seatHeldUntil;
  const full = summary.session.seatsLeft <= 0 && !held;
  const checkout = checkouts[chosen];
  const { mutate, isPending, variables } = start;
  // The card form of the chosen way to pay opens with the page (and on a change of choice).
  // Once per choice (a ref, so a re-run of the effect, e.g. React's strict mode, opens no second purchase).
  const requested = useRef(new Set<Plan>());
  useEffect(() => {
    if (full || checkout || isPending || requested.current.has(chosen)) return;
    requested.current.add(chosen);
    mutate(chosen);
  }, [chosen, full, checkout, isPending, mutate]);
  const error = start.error;

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)] lg:items-start">
      <OrderSummary summary={summary} plan={chosen} promo={promo} unitCents={listPriceCents} />
      <section aria-labelledby="payment-heading" className="min-w-0 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        <h2 id="payment-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <CreditCard className="h-5 w-5 text-brand-700" aria-hidden="true" /> Payment
        </h2>
        <div className="mt-4 space-y-4">
          {priceChanged && (
            <Alert tone="info" title="The price of this course has changed">
              The summary now shows the current price. Check it, then try again.
            </Alert>
          )}
          {held && (
            <Alert tone="info" title={`This seat is held for you until ${formatHeldUntil(held)}`}>
              You were first on the waitlist. Pay by then to take it; after that it goes to the next learner waiting.
            </Alert>
          )}
          {full ? (
            <Alert tone="error" title="This session is full">
              Someone took the last seat.{' '}
              <Link to={paths.course(summary.course.id)} className="font-semibold underline">
                Choose another session or join the waitlist
              </Link>
              .
            </Alert>
          ) : (
            <>
              {codeField}
              {offersInstallments ? (
                <PlanChoice summary={summary} plan={plan} onPlan={setPlan} disabled={false} />
              ) : (
                <p className="text-sm text-slate-600">One payment of {money(summary.priceCents, summary.currency)}.</p>
              )}
              {chosen === 'installments' && (
                <p className="rounded-lg bg-brand-50 px-3 py-2 text-sm font-medium text-brand-800" data-testid="installment-terms">
                  {installmentWords(summary)}.
                </p>
              )}
              <p className="text-xs text-slate-600">By paying you agree to the course's refund policy, shown with your order.</p>
              {error && !checkout && variables === chosen ? (
                <Alert tone="error" title="The card form could not be opened">
                  {error instanceof ApiError ? error.message : 'Please try again.'}
                  {error instanceof ApiError && error.code === 'already_enrolled' && (
                    <>
                      {' '}
                      <Link to={paths.dashboard} className="font-semibold underline">
                        Go to your dashboard
                      </Link>
                    </>
                  )}
                  {error instanceof ApiError && ['session_full', 'offer_expired', 'on_waitlist'].includes(error.code ?? '') && (
                    <>
                      {' '}
                      <Link to={paths.course(summary.course.id)} className="font-semibold underline">
                        Choose another session or join the waitlist
                      </Link>
                    </>
                  )}
                  <span className="mt-2 block">
                    <Button variant="secondary" onClick={() => mutate(chosen)} loading={isPending}>
                      Try again
                    </Button>
                  </span>
                </Alert>
              ) : checkout ? (
                <CardForm key={checkout.sessionId} config={config} checkout={checkout} />
              ) : (
                <div className="flex justify-center py-10 text-brand-700">
                  <Spinner label="Preparing the secure card form…" />
                </div>
              )}
              <p className="text-sm">
                <Link to={paths.course(summary.course.id)} className="font-semibold text-brand-700 hover:underline">
                  Back to the course
                </Link>
              </p>
            </>
          )}
        </div>
      </section>
    </div>
  );
}

/** The order with a code: its price, and its installments (the discounted price divided, to the cent). */
function withCode(summary: CheckoutSummary, promo: PromoQuote | null): CheckoutSummary {
  // Several learners: what is paid is the total (the server's installments are already the total's).
  if (!promo) return { ...summary, priceCents: summary.totalCents };
  const n = promo.installments;
  return {
    ...summary,
    priceCents: promo.priceCents,
    installments: n,
    installmentAmounts: promo.installmentAmounts,
    installmentCents: n && promo.installmentAmounts ? promo.installmentAmounts[n - 1] : null,
    lastInstallmentOn: n === summary.installments ? summary.lastInstallmentOn : null,
  };
}

/**
 * The checkout with its promo code: the code field asks the server for the price with the
 * code (shown before paying, once and in installments); the card forms then open with it
 * (a new payment flow per code, so no form opened without the code is reused).
 */
function Checkout({
  summary,
  config,
  refetchSummary,
}: {
  summary: CheckoutSummary;
  config: PaymentsConfig;
  refetchSummary: () => Promise<unknown>;
}) {
  const [promo, setPromo] = useState<PromoQuote | null>(null);
  const field = (
    <PromoCodeField
      courseId={summary.course.id}
      sessionId={summary.session.id}
      seats={summary.learners?.length}
      applied={promo}
      onApplied={setPromo}
    />
  );
  return (
    <PaymentFlow
      key={promo?.code ?? ''}
      summary={withCode(summary, promo)}
      listPriceCents={summary.priceCents}
      promo={promo}
      codeField={field}
      config={config}
      refetchSummary={refetchSummary}
    />
  );
}

/**
 * /course/checkout?course=&session=[&learners=me,<profile id>,...] — one page: the order summary,
 * how to pay, and the card form. `learners` (from "Who is this for?", ADR 0074): a seat each.
 */
export default function CheckoutPage() {
  const [params] = useSearchParams();
  const courseId = params.get('course') ?? '';
  const sessionId = params.get('session') ?? '';
  const learners = params.get('learners') ?? '';
  const valid = isUuid(courseId) && isUuid(sessionId) && learners.split(',').every((l) => l === '' || l === 'me' || isUuid(l));
  const summary = useQuery({ ...checkoutSummaryQuery(courseId, sessionId, learners), enabled: valid });
  const config = useQuery({ ...paymentsConfigQuery, enabled: valid });

  if (!valid) return <NotFoundPage />;
  const failure = summary.error ?? config.error;
  if (failure && (!summary.data || !config.data)) {
    if (failure instanceof ApiError && failure.status === 404) return <NotFoundPage />;
    return (
      <div className="mx-auto max-w-xl space-y-4">
        <PageHeader title="Checkout" />
        <Alert tone="error" title="This checkout cannot be opened">
          {failure instanceof ApiError ? failure.message : 'Please try again.'}
        </Alert>
        <div className="flex flex-wrap gap-3">
          <ButtonLink to={paths.course(courseId)} variant="secondary">
            Back to the course
          </ButtonLink>
          <Button variant="secondary" onClick={() => void Promise.all([summary.refetch(), config.refetch()])}>
            Try again
          </Button>
        </div>
      </div>
    );
  }
  if (!summary.data || !config.data) return <PageLoading label="Loading your order…" />;
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title="Checkout"
        subtitle={
          <>
            {summary.data.learners && summary.data.learners.length > 1 ? 'Seats' : 'Your seat'} in{' '}
            <span className="font-medium text-slate-800">{summary.data.course.title}</span>
          </>
        }
      />
      <Checkout summary={summary.data} config={config.data} refetchSummary={summary.refetch} />
    </div>
  );
}
