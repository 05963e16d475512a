import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { BarChart3, Plus, Receipt, Sparkles, Tag, Wallet } from 'lucide-react';
import { PLANS } from '@shared/payments';
import type { EducatorPayouts } from '@shared/payments-schemas';
import { ButtonLink } from '@web/components/ui/button';
import { PageHeader } from '@web/components/ui/card';
import { useViewer } from '@web/lib/viewer';
import { Badge } from '@web/components/ui/badge';
import { Skeleton } from '@web/components/ui/skeleton';
import { EducatorOnly } from '@web/components/educator-only';
import { payoutsQuery } from './api/payouts';
import { OnboardingButton, PayoutFlags, PayoutsDashboardButton, payoutsReady } from './components/payouts';
import { SalesChart } from './components/sales-chart';
import { deduction, formatDay, money, sequenceLabel } from '@web/lib/format';
import { Panel } from '@web/components/ui/panel';
import { paths } from '@web/lib/paths';
import { feeWords, usePricing } from '@web/lib/pricing';
import { LoadError } from '@web/components/ui/load-error';

const PRO = PLANS[0];

function PayoutPanel({ data }: { data: EducatorPayouts }) {
  const me = useViewer();
  const account = data.account;
  const ready = payoutsReady(account);
  return (
    <Panel
      id="payouts-heading"
      title="Payouts"
      action={ready ? <Badge tone="green">Active</Badge> : <Badge tone="amber">{account ? 'Action needed' : 'Not set up'}</Badge>}
    >
      {account ? (
        <PayoutFlags account={account} />
      ) : (
        <p className="text-sm text-slate-600">Set up payouts to sell paid courses. Free courses need none.</p>
      )}
      <div className="mt-4 flex flex-wrap gap-3">
        {account && account.detailsSubmitted && <PayoutsDashboardButton accountId={account.id} />}
        {!ready && <OnboardingButton me={me} accountId={account?.id} label={account ? 'Finish onboarding' : 'Set up payouts'} />}
      </div>
    </Panel>
  );
}

function PlanPanel({ data }: { data: EducatorPayouts }) {
  const pro = data.plan.id === PRO.id;
  const pricing = usePricing();
  // The plan's fee lines (one while every kind of sale costs the same); the payouts answer's fee until they load.
  const lines = pricing ? (pro ? pricing.pro.fees : pricing.standardFees) : [{ label: 'per sale', feePercent: data.plan.feePercent }];
  return (
    <Panel id="plan-heading" title="Your plan">
      <p className="flex items-center gap-2 text-sm">
        {pro && <Sparkles className="h-4 w-4 text-brand-700" aria-hidden="true" />}
        <span className="font-semibold text-slate-900">{pro ? PRO.name : 'Standard'}</span>
        <span className="text-slate-600">· platform fee {feeWords(lines, 'per sale')}</span>
      </p>
      {pro ? (
        lines.length === 1 && <p className="mt-2 text-sm text-slate-600">You keep {100 - data.plan.feePercent}% of every sale.</p>
      ) : (
        <p className="mt-2 text-sm text-slate-600">
          {pricing && (
            <>
              With {PRO.name} the fee drops to {feeWords(pricing.pro.fees)}.{' '}
            </>
          )}
          <Link to={paths.pricing} className="font-semibold text-brand-700 hover:underline">
            See {PRO.name}
          </Link>
        </p>
      )}
      <p className="mt-2 text-sm">
        <Link to={paths.educatorBenefits} className="font-semibold text-brand-700 hover:underline">
          How fees and payouts work
        </Link>
      </p>
    </Panel>
  );
}

/** One row of tiles per currency sold in: amounts in different currencies are never added. */
function Totals({ totals }: { totals: EducatorPayouts['totals'] }) {
  const rows = totals.length
    ? totals
    : [{ currency: 'usd', grossCents: 0, feeCents: 0, refundedCents: 0, feeRefundedCents: 0, netCents: 0, sales: 0 }];
  const several = rows.length > 1;
  return (
    <div className="space-y-3">
      {rows.map((t) => {
        const c = t.currency;
        const tiles: [string, string, string?][] = [
          ['Gross sales', money(t.grossCents, c), `${t.sales} ${t.sales === 1 ? 'payment' : 'payments'}`],
          [
            'Platform fee',
            deduction(t.feeCents - t.feeRefundedCents, c),
            t.feeRefundedCents > 0 ? `${money(t.feeRefundedCents, c)} given back with refunds` : undefined,
          ],
          ['Refunds', deduction(t.refundedCents, c)],
          ['Net', money(t.netCents, c), 'yours, paid out by Stripe'],
        ];
        return (
          <section key={c} aria-label={several ? `Sales totals in ${c.toUpperCase()}` : 'Sales totals'}>
            {several && <h2 className="mb-2 text-sm font-semibold text-slate-700">In {c.toUpperCase()}</h2>}
            <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
              {tiles.map(([label, value, note], i) => (
                <div
                  key={label}
                  className={`rounded-2xl border p-4 shadow-sm ${i === 3 ? 'border-brand-100 bg-brand-50' : 'border-slate-200 bg-white'}`}
                >
                  <dt className="text-sm text-slate-600">{label}</dt>
                  <dd className="mt-1 text-xl font-bold tabular-nums text-slate-900 sm:text-2xl">{value}</dd>
                  {note && <dd className="text-xs text-slate-600">{note}</dd>}
                </div>
              ))}
            </dl>
          </section>
        );
      })}
    </div>
  );
}

function SalesTable({ sales }: { sales: EducatorPayouts['sales'] }) {
  if (!sales.length) {
    return (
      <div className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
        <Receipt className="mx-auto mb-2 h-6 w-6 text-slate-400" aria-hidden="true" />
        No sales yet. When a learner pays for one of your courses, it shows up here.
      </div>
    );
  }
  return (
    <>
      <div className="hidden overflow-x-auto sm:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Your sales, newest first</caption>
          <thead>
            <tr className="border-b border-slate-200 text-slate-600">
              <th scope="col" className="py-2 pr-3 font-medium">
                Date
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                Course
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                Learner
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                Amount
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                Fee
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                Net
              </th>
              <th scope="col" className="py-2 font-medium">
                Payment
              </th>
            </tr>
          </thead>
          <tbody>
            {sales.map((s) => (
              <tr key={s.id} className="border-b border-slate-100 align-top last:border-0">
                <td className="whitespace-nowrap py-2.5 pr-3 text-slate-700">{formatDay(s.paidAt)}</td>
                <td className="py-2.5 pr-3 font-medium text-slate-900">
                  {s.courseId ? (
                    <Link to={paths.course(s.courseId)} className="break-words hover:text-brand-700 hover:underline">
                      {s.courseTitle}
                    </Link>
                  ) : (
                    s.courseTitle
                  )}
                </td>
                <td className="py-2.5 pr-3 text-slate-700">{s.learnerName}</td>
                <td className="whitespace-nowrap py-2.5 pr-3 text-right tabular-nums">{money(s.amountCents, s.currency)}</td>
                <td className="whitespace-nowrap py-2.5 pr-3 text-right tabular-nums text-slate-600">
                  {deduction(s.feeCents - s.feeRefundedCents, s.currency)}
                </td>
                <td className="whitespace-nowrap py-2.5 pr-3 text-right font-semibold tabular-nums text-slate-900">
                  {money(s.netCents, s.currency)}
                  {s.refundedCents > 0 && (
                    <span className="block text-xs font-normal text-amber-800">{money(s.refundedCents, s.currency)} refunded</span>
                  )}
                </td>
                <td className="whitespace-nowrap py-2.5 text-slate-600">{sequenceLabel(s.sequence, s.installments) ?? 'One payment'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="space-y-3 sm:hidden" aria-label="Your sales">
        {sales.map((s) => (
          <li key={s.id} className="rounded-xl border border-slate-100 bg-slate-50 p-3 text-sm">
            <div className="flex justify-between gap-3">
              <p className="min-w-0 break-words font-semibold text-slate-900">{s.courseTitle}</p>
              <p className="shrink-0 font-semibold tabular-nums text-slate-900">{money(s.netCents, s.currency)}</p>
            </div>
            <p className="text-slate-600">
              {s.learnerName} · {formatDay(s.paidAt)}
            </p>
            <p className="text-xs text-slate-600">
              {money(s.amountCents, s.currency)}, fee {deduction(s.feeCents - s.feeRefundedCents, s.currency)}
              {s.refundedCents > 0 && `, refunded ${deduction(s.refundedCents, s.currency)}`}
              {s.installments ? ` · ${sequenceLabel(s.sequence, s.installments)}` : ''}
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}

function Loading() {
  return (
    <div className="space-y-6" aria-busy="true">
      <p role="status" className="sr-only">
        Loading your sales…
      </p>
      <div className="grid gap-6 lg:grid-cols-2">
        <Skeleton className="h-40" />
        <Skeleton className="h-40" />
      </div>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-24" />
        ))}
      </div>
      <Skeleton className="h-48" />
    </div>
  );
}

function EducatorDashboard() {
  const me = useViewer();
  const { data, error, refetch, isFetching } = useQuery(payoutsQuery());
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Educator dashboard"
        subtitle="Your sales, fees and payouts."
        actions={
          <div className="flex flex-wrap gap-2">
            <ButtonLink to={paths.educatorAnalytics(me.id)} variant="secondary">
              <BarChart3 className="h-4 w-4" aria-hidden="true" /> Analytics
            </ButtonLink>
            <ButtonLink to={paths.educatorPromoCodes} variant="secondary">
              <Tag className="h-4 w-4" aria-hidden="true" /> Promo codes
            </ButtonLink>
            <ButtonLink to={paths.newCourse}>
              <Plus className="h-4 w-4" aria-hidden="true" /> Create a course
            </ButtonLink>
          </div>
        }
      />
      {error && !data ? (
        <LoadError title="Your sales could not be loaded" error={error} onRetry={() => void refetch()} retrying={isFetching} />
      ) : !data ? (
        <Loading />
      ) : (
        <div className="space-y-6">
          <div className="grid gap-6 lg:grid-cols-2">
            <PayoutPanel data={data} />
            <PlanPanel data={data} />
          </div>
          <Totals totals={data.totals} />
          {(data.totals.length ? data.totals.map((t) => t.currency) : ['usd']).map((c) => (
            <section
              key={c}
              aria-label={data.totals.length > 1 ? `Net sales per day in ${c.toUpperCase()}` : 'Net sales per day'}
              className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
            >
              <SalesChart daily={data.daily.filter((d) => d.currency === c)} currency={c} />
            </section>
          ))}
          <Panel
            id="sales-heading"
            title="Sales"
            action={
              <span className="flex items-center gap-1 text-sm text-slate-600">
                <Wallet className="h-4 w-4" aria-hidden="true" /> {data.sales.length} shown
              </span>
            }
          >
            <SalesTable sales={data.sales} />
          </Panel>
        </div>
      )}
    </div>
  );
}

/** /educator/dashboard — payout status, plan, totals, net sales per day and every sale. */
export default function EducatorDashboardPage() {
  return (
    <EducatorOnly>
      <EducatorDashboard />
    </EducatorOnly>
  );
}
