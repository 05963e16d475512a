import type { ReactNode } from 'react';
import { Banknote, Percent, RotateCcw, Sparkles } from 'lucide-react';
import { REFUND_POLICIES } from '@shared/courses';
import { PLANS, platformFee } from '@shared/payments';
import { ButtonLink } from '@web/components/ui/button';
import { PageHeader } from '@web/components/ui/card';
import { money } from '@web/lib/format';
import { paths } from '@web/lib/paths';
import { usePricing } from '@web/lib/pricing';
import { Skeleton } from '@web/components/ui/skeleton';

/** Name and price; every fee comes from GET /api/pricing (the server's configuration). */
const PRO = PLANS[0];
const EXAMPLE = 10_000;

function Section({ id, icon, title, children }: { id: string; icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id={id} className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        {icon}
        {title}
      </h2>
      <div className="mt-3 space-y-3 text-sm leading-relaxed text-slate-700">{children}</div>
    </section>
  );
}

/** /educator/benefits — fees, payouts, refunds and Educator Pro, explained. */
export default function BenefitsPage() {
  const pricing = usePricing();
  // One row per fee line of each plan, as the server writes them (one while every kind of sale costs the same).
  const rows = pricing
    ? [
        ...pricing.standardFees.map((l) => ({ plan: 'Educator', line: l, many: pricing.standardFees.length > 1 })),
        ...pricing.pro.fees.map((l) => ({ plan: PRO.name, line: l, many: pricing.pro.fees.length > 1 })),
      ].map(({ plan, line, many }) => ({ plan: many ? `${plan}, ${line.label}` : plan, fee: line.feePercent }))
    : [];
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Teaching on Agora" subtitle="Fees, payouts and refunds: what happens to the money when a learner pays." />
      <div className="space-y-6">
        <Section id="fees" icon={<Percent className="h-5 w-5 text-brand-700" aria-hidden="true" />} title="Fees">
          <p>
            Publishing is free. When a learner pays for a seat, Agora keeps a platform fee and the rest is yours. Free courses cost nothing.
          </p>
          <div className="overflow-x-auto">
            {!pricing && <Skeleton className="h-24 w-full" />}
            <table className={pricing ? 'w-full text-left text-sm' : 'hidden'}>
              <caption className="sr-only">Platform fee on a {money(EXAMPLE, 'usd')} sale</caption>
              <thead>
                <tr className="border-b border-slate-200 text-slate-600">
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Plan
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Fee
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    On a {money(EXAMPLE, 'usd')} sale
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    You receive
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.plan} className="border-b border-slate-100 last:border-0">
                    <th scope="row" className="py-2 pr-4 font-medium text-slate-900">
                      {r.plan}
                    </th>
                    <td className="py-2 pr-4">{r.fee}%</td>
                    <td className="py-2 pr-4">{money(platformFee(EXAMPLE, r.fee), 'usd')}</td>
                    <td className="py-2 font-semibold text-slate-900">{money(EXAMPLE - platformFee(EXAMPLE, r.fee), 'usd')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p>With installments the fee is taken from each monthly payment, so you are paid month by month as the learner pays.</p>
        </Section>

        <Section id="payouts" icon={<Banknote className="h-5 w-5 text-brand-700" aria-hidden="true" />} title="How payouts work">
          <p>
            Payouts go through <strong>Stripe Connect Express</strong>. In onboarding you give Stripe your identity and bank details once;
            Agora never sees them. Every payment is a <strong>destination charge</strong>: the learner pays, the money goes straight to your
            Stripe account, and the platform fee is kept by Agora in the same step.
          </p>
          <p>
            Stripe pays your balance out to your bank on its regular schedule. Your payouts dashboard (from your educator dashboard) shows
            your balance, payouts and tax details.
          </p>
          <p>You can publish a paid course once your account can take charges; free courses need no payouts.</p>
        </Section>

        <Section id="refunds" icon={<RotateCcw className="h-5 w-5 text-brand-700" aria-hidden="true" />} title="Refunds">
          <p>
            Each course has one of three refund policies, which learners see before they pay. When a learner drops, their seat is freed for
            the waitlist and they get back:
          </p>
          <ul className="list-disc space-y-1 pl-5">
            {REFUND_POLICIES.map((r) => (
              <li key={r.id}>
                <strong>{r.label}</strong>: {r.text}
              </li>
            ))}
            <li>Dropping an installment plan also stops the future installments.</li>
          </ul>
          <p>
            A refund gives the platform fee back too. A full refund returns the whole fee: on a fully refunded {money(12000, 'usd')} sale
            you neither keep nor owe anything (your net is {money(0, 'usd')}
            {pricing && <>, not {money(-platformFee(12000, pricing.standardFeePercent), 'usd')}</>}). A partial refund returns the fee in
            proportion: refund half the price and half the fee comes back with it.
          </p>
          <p>
            Your dashboard shows every figure per currency (sales in USD, GBP and EUR are three totals, never one sum), net of fees and
            refunds, and agrees to the cent with Stripe.
          </p>
        </Section>

        <Section id="pro" icon={<Sparkles className="h-5 w-5 text-brand-700" aria-hidden="true" />} title={PRO.name}>
          {pricing ? (
            <>
              <p>
                For {money(PRO.priceCents, PRO.currency)} a {PRO.interval}, the platform fee
                {pricing.pro.fees.length > 1 && ' on a sale paid at once'} drops from {pricing.standardFeePercent}% to{' '}
                {pricing.pro.feePercent}%.
                {pricing.standardFeePercent > pricing.pro.feePercent && (
                  <>
                    {' '}
                    It pays for itself once you sell more than{' '}
                    {money(Math.ceil((PRO.priceCents * 100) / (pricing.standardFeePercent - pricing.pro.feePercent)), PRO.currency)} a
                    month.
                  </>
                )}
              </p>
              <ul className="list-disc space-y-1 pl-5">
                {pricing.pro.features.map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
            </>
          ) : (
            <Skeleton className="h-20 w-full" />
          )}
        </Section>

        <div className="flex flex-wrap gap-3">
          <ButtonLink to={paths.educatorOnboard}>Set up your educator account</ButtonLink>
          <ButtonLink to={paths.pricing} variant="secondary">
            See pricing and {PRO.name}
          </ButtonLink>
        </div>
      </div>
    </div>
  );
}
