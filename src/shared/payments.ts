/**
 * Payments: constants and arithmetic shared by server and client (no zod here; the request
 * and response schemas are in payments-schemas.ts). Amounts are integers in the smallest
 * currency unit (cents).
 */
import { formatMoney } from './money.js';

/** Spec section 8, kept to the letter. */
export const PAYMENT_MESSAGES = {
  checkoutError: 'Checkout session error',
  accountError: 'Error Getting Account',
  customerError: 'Error creating stripe customer',
  sessionMissing: 'Could not get session',
} as const;

/**
 * Platform plans sold on /pricing (bought with create-embedded-checkout-session). What a
 * plan offers besides its fee is `perks`; the fee line, which compares with the standard fee
 * (the server's PLATFORM_FEE_PERCENT), is written by the server in GET /api/pricing.
 */
export const PLANS = [
  {
    id: 'educator-pro',
    name: 'Educator Pro',
    priceCents: 2900,
    currency: 'usd',
    interval: 'month' as const,
    feePercent: 5,
    /** Featured placement: the "Featured" shelf of /explore (decision 0037). */
    perks: ['Featured placement on /explore', 'Priority support'],
  },
] as const;
export type PlanId = (typeof PLANS)[number]['id'];
export const PLAN_IDS = PLANS.map((p) => p.id) as [PlanId, ...PlanId[]];
export const planById = (id: string) => PLANS.find((p) => p.id === id) ?? null;

/** Stripe test cards the sandbox understands (the same numbers work on real Stripe test mode). */
export const TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

/**
 * The N monthly payments of a price (decision 0017): they add up to the price exactly. Each
 * is the price divided by N rounded down to the cent, and the first payment (the one made at
 * checkout) carries the cents the division leaves: $100.00 in 3 is $33.34, $33.33, $33.33.
 * The one schedule behind the checkout's provider call, its summary, the card form's words,
 * the settings' next payment and what is left to pay.
 */
export function installmentSchedule(totalCents: number, installments: number): number[] {
  if (!Number.isInteger(totalCents) || totalCents < 0) throw new RangeError(`Not an amount in cents: ${totalCents}`);
  if (!Number.isInteger(installments) || installments < 1) throw new RangeError(`Not a number of installments: ${installments}`);
  const each = Math.floor(totalCents / installments);
  const first = totalCents - each * (installments - 1);
  return Array.from({ length: installments }, (_, i) => (i === 0 ? first : each));
}

/** The monthly amount after the first payment (what the provider's recurring price charges). */
export const laterInstallmentCents = (totalCents: number, installments: number) => Math.floor(totalCents / installments);

/** The amount of the k-th payment (1-based) of a schedule. */
export const installmentCentsAt = (totalCents: number, installments: number, k: number) =>
  installmentSchedule(totalCents, installments)[k - 1] ?? 0;

const termsDay = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });

/**
 * The one sentence of an installment plan, said once on the checkout page beside the card
 * form: "3 monthly payments of $40.00, last on Fri 22 Jan 2027" when the payments are equal;
 * "3 monthly payments: $33.34 first, then $33.33 a month, last on ..." when the first carries
 * the cents left over (also on the course page and the course form, without the date).
 */
export function installmentTerms(totalCents: number, installments: number, currency: string, lastOn?: string | null): string {
  const [first, later] = installmentSchedule(totalCents, installments);
  const last = lastOn ? `, last on ${termsDay.format(new Date(`${lastOn.slice(0, 10)}T00:00:00Z`))}` : '';
  return first === later
    ? `${installments} monthly payments of ${formatMoney(later, currency)}${last}`
    : `${installments} monthly payments: ${formatMoney(first, currency)} first, then ${formatMoney(later, currency)} a month${last}`;
}

/**
 * The smallest monthly installment (decision 0017): 20.00 in the course's currency (USD,
 * EUR and GBP are close enough for a floor, and one round number is easy to say).
 */
export const MIN_INSTALLMENT_CENTS = 2000;
export const MAX_INSTALLMENTS = 24;

/** The most installments a price allows (each at least MIN_INSTALLMENT_CENTS), 0 or 1 = none. */
export function maxInstallmentsFor(priceCents: number): number {
  return Math.min(MAX_INSTALLMENTS, Math.floor(priceCents / MIN_INSTALLMENT_CENTS));
}

/** A UTC calendar date plus n months (the day clamped to the month's last day): YYYY-MM-DD. */
export function addMonths(isoDate: string, n: number): string {
  const [y, m, d] = isoDate.slice(0, 10).split('-').map(Number);
  const first = new Date(Date.UTC(y, m - 1 + n, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

/** The dates of N monthly payments starting on `firstOn` (YYYY-MM-DD). */
export function installmentDates(firstOn: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => addMonths(firstOn, i));
}

/**
 * The installments a checkout offers: the course's number, limited so that each payment is
 * at least the minimum and the last one falls on or before the session's last day
 * (payments on `today`, then monthly). Null when fewer than 2 remain: one payment only.
 */
export function installmentsOffered(
  course: { priceCents: number; installments: number | null },
  sessionEndsOn: string,
  today: string,
): number | null {
  if (!course.installments) return null;
  let n = Math.min(course.installments, maxInstallmentsFor(course.priceCents));
  while (n >= 2 && addMonths(today, n - 1) > sessionEndsOn) n--;
  return n >= 2 ? n : null;
}

/** The platform's fee on an amount, rounded to the nearest cent. */
export function platformFee(amountCents: number, feePercent: number): number {
  return Math.round((amountCents * feePercent) / 100);
}

export type PurchaseKind = 'course_payment' | 'course_installments' | 'plan';
export type PurchaseStatus = 'open' | 'fulfilled' | 'past_due' | 'completed' | 'refunded' | 'cancelled' | 'expired';
