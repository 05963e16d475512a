/**
 * Payments: constants and arithmetic shared by server and client (no zod here; the request
 * and response schemas are in payments-schemas.ts). Amounts are integers in the smallest
 * currency unit (cents).
 */

/** Spec section 8, kept to the letter. */
export const PAYMENT_MESSAGES = {
  checkoutError: 'Checkout session error',
  accountError: 'Error Getting Account',
  customerError: 'Error creating stripe customer',
  sessionMissing: 'Could not get session',
} as const;

/** Platform plans sold on /pricing (bought with create-embedded-checkout-session). */
export const PLANS = [
  {
    id: 'educator-pro',
    name: 'Educator Pro',
    priceCents: 2900,
    currency: 'usd',
    interval: 'month' as const,
    feePercent: 5,
    features: ['Platform fee of 5% instead of 10%', 'Featured placement on /explore', 'Priority support'],
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
 * The amount of each monthly installment: the total split in N, rounded up to the cent, so
 * the N payments never add up to less than the price (at most N-1 cents more).
 */
export function installmentAmount(totalCents: number, installments: number): number {
  return Math.ceil(totalCents / installments);
}

/** The platform's fee on an amount, rounded to the nearest cent. */
export function platformFee(amountCents: number, feePercent: number): number {
  return Math.round((amountCents * feePercent) / 100);
}

export type PurchaseKind = 'course_payment' | 'course_installments' | 'plan';
export type PurchaseStatus = 'open' | 'fulfilled' | 'past_due' | 'completed' | 'refunded' | 'cancelled' | 'expired';
