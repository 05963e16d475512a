import { eq, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { AppServices } from '../app-services.js';
import { payment } from '../db/schema/payments.js';
import { describe, idOf, isMissing } from './provider-calls.js';
import { resizeSubscription } from './family-installments.js';
import type { RefundPlan } from './refund-policy.js';

/**
 * Refunds at the provider, each with an idempotency key (`refund-<purchase>-<n>`, n the
 * payment's sequence) so a retry never refunds twice; `charge.refunded` later confirms the
 * amounts from the provider.
 */

/**
 * Carries out a plan at the provider: cancels the installment subscription (no further
 * invoices), then refunds each payment. Answers what was refunded; a provider failure is
 * logged and reported (`failed`), never thrown: the drop itself is already committed.
 */
export async function executeRefundPlan(
  app: AppServices,
  plan: RefundPlan,
  opts: { throwOnFailure?: boolean; onStep?: (step: RefundStep) => Promise<void> } = {},
): Promise<{ refundedCents: number; failed: boolean; error?: string }> {
  const stripe = app.stripe();
  let failed = false;
  let error: string | undefined;
  let refundedCents = 0;
  if (plan.subscriptionId) {
    try {
      await cancelSubscription(stripe, plan.subscriptionId, plan.purchaseId);
      await opts.onStep?.({ kind: 'subscription' });
    } catch (err) {
      error ??= errorText(err);
      failed = true;
      app.log.error({ err: describe(err), purchase: plan.purchaseId }, 'payments: could not cancel the installment subscription');
      if (opts.throwOnFailure) throw err;
    }
  }
  if (plan.resizeSubscription) {
    try {
      await resizeSubscription(app, plan.purchaseId, plan.resizeSubscription);
      await opts.onStep?.({ kind: 'resize' });
    } catch (err) {
      error ??= errorText(err);
      failed = true;
      app.log.error({ err: describe(err), purchase: plan.purchaseId }, 'payments: could not lower the installment subscription');
      if (opts.throwOnFailure) throw err;
    }
  }
  for (const item of plan.items) {
    try {
      const refund = await stripe.refunds.create(
        {
          ...(item.paymentIntentId ? { payment_intent: item.paymentIntentId } : { charge: item.chargeId! }),
          amount: item.amountCents,
          reason: 'requested_by_customer',
          reverse_transfer: true,
          // The platform's fee comes back with the money: all of it on a full refund, in
          // proportion on a partial one (Stripe's rule for refund_application_fee).
          refund_application_fee: true,
          metadata: { purchase_id: plan.purchaseId, sequence: String(item.sequence), why: plan.reason },
        },
        { idempotencyKey: item.key ?? refundKey(plan.purchaseId, item.sequence) },
      );
      refundedCents += refund.amount;
      await app.database.db
        .update(payment)
        .set({
          refundedCents: sql`least(${payment.amountCents}, greatest(${payment.refundedCents}, ${item.refundedCents + refund.amount}))`,
        })
        .where(eq(payment.id, item.paymentId));
      // The fee given back is the provider's figure (read now; charge.refunded re-reads it too).
      const refundedCharge = idOf(refund.charge);
      if (refundedCharge) {
        await handleChargeRefunded(app, refundedCharge).catch((err: unknown) =>
          app.log.warn(
            { err: describe(err), purchase: plan.purchaseId },
            'payments: could not re-read a refunded charge (the webhook will)',
          ),
        );
      }
      await opts.onStep?.({
        kind: 'refund',
        sequence: item.sequence,
        key: item.key ?? refundKey(plan.purchaseId, item.sequence),
        refundId: refund.id,
        amountCents: refund.amount,
      });
    } catch (err) {
      failed = true;
      error ??= errorText(err);
      app.log.error({ err: describe(err), purchase: plan.purchaseId, sequence: item.sequence }, 'payments: refund failed');
      if (opts.throwOnFailure) throw err;
    }
  }
  return { refundedCents, failed, error };
}

/** The provider idempotency key of a payment's refund: the same on every attempt. */
export const refundKey = (purchaseId: string, sequence: number) => `refund-${purchaseId}-${sequence}`;

/** A step of a plan the provider has done (a retry skips it). */
export type RefundStep =
  { kind: 'subscription' } | { kind: 'resize' } | { kind: 'refund'; sequence: number; key: string; refundId: string; amountCents: number };

function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 500);
}

/** Cancels a subscription now; one already ended is fine. */
export async function cancelSubscription(stripe: Stripe, subscriptionId: string, purchaseId: string) {
  try {
    await stripe.subscriptions.cancel(subscriptionId, {}, { idempotencyKey: `cancel-${purchaseId}` });
  } catch (err) {
    if (isMissing(err)) return;
    const sub = await stripe.subscriptions.retrieve(subscriptionId).catch(() => null);
    if (sub && (sub.status === 'canceled' || sub.status === 'incomplete_expired')) return;
    throw err;
  }
}

/** charge.refunded: our payment rows take the provider's refunded amount and the fee it gave back. */
export async function handleChargeRefunded(app: AppServices, chargeId: string) {
  const charge = await app.stripe().charges.retrieve(chargeId);
  const pi = idOf(charge.payment_intent);
  const feeId = idOf(charge.application_fee);
  const feeRefunded = feeId ? (await app.stripe().applicationFees.retrieve(feeId)).amount_refunded : 0;
  await app.database.db
    .update(payment)
    .set({
      refundedCents: sql`least(${payment.amountCents}, ${charge.amount_refunded})`,
      feeRefundedCents: sql`least(${payment.feeCents}, ${feeRefunded})`,
      chargeId: sql`coalesce(${payment.chargeId}, ${charge.id})`,
    })
    .where(
      pi
        ? sql`${payment.chargeId} = ${charge.id} or (${payment.chargeId} is null and ${payment.paymentIntentId} = ${pi})`
        : eq(payment.chargeId, charge.id),
    );
}
