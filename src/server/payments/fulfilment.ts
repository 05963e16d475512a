import { and, eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { AppServices } from '../app-services.js';
import { setFeatured } from '../courses/featured.js';
import { enrolLearner, lockCourseSession, seatLearners } from '../courses/seats.js';
import { PG, pgCode } from '../db/errors.js';
import { payoutAccount, purchase } from '../db/schema/payments.js';
import { AppError } from '../http/errors.js';
import { addMonths } from './installments.js';
import { seatsOf, settleSeats } from './family-seats.js';
import { chargeFacts, invoiceFacts, type PaidFacts } from './provider-facts.js';
import { idOf } from './provider-calls.js';
import { cancelSubscription, executeRefundPlan } from './provider-refunds.js';
import { lockPurchase, purchaseFor, recordPayment, type Purchase } from './purchases.js';
import { confirmUse, releaseUse } from './promo-codes.js';
import { sendFulfilmentEmail } from './receipts.js';
import { fullRefundPlan } from './refund-plans.js';

export interface FulfilOutcome {
  checkout: Stripe.Checkout.Session;
  purchaseId: string | null;
  /** This call gave the seat / plan (or refunded): false when someone else already had. */
  changed: boolean;
}

/**
 * The one fulfilment, from the webhook (checkout.session.completed) or verify-session,
 * whichever comes first. Re-reads the checkout session from the provider; when it is
 * complete and paid, locks our purchase and, if still open, gives the seat
 * (enrolLearner seatOnly) or the plan, recording the payment. If the seat is gone (or
 * the learner is meanwhile enrolled), the purchase is refunded in full, an installment
 * subscription cancelled and the learner told. Safe to run any number of times.
 */
export async function fulfilCheckout(app: AppServices, checkoutId: string): Promise<FulfilOutcome> {
  const stripe = app.stripe();
  const db = app.database.db;
  const cs = await stripe.checkout.sessions.retrieve(checkoutId);
  const found = await purchaseFor(db, { purchaseId: cs.metadata?.purchase_id, checkoutSessionId: cs.id });
  if (!found) return { checkout: cs, purchaseId: null, changed: false };

  if (cs.status === 'expired') {
    await db.transaction(async (tx) => {
      await tx
        .update(purchase)
        .set({ status: 'expired', updatedAt: new Date() })
        .where(and(eq(purchase.id, found.id), eq(purchase.status, 'open')));
      // Never paid: a promo code's use held for it goes back (once: only a reserved use).
      if (found.promoCodeId) await releaseUse(tx, found.id);
    });
    return { checkout: cs, purchaseId: found.id, changed: false };
  }
  const paid = cs.status === 'complete' && (cs.payment_status === 'paid' || cs.payment_status === 'no_payment_required');
  if (!paid) return { checkout: cs, purchaseId: found.id, changed: false };

  // Provider facts first (no locks held while calling out).
  const subscriptionId = idOf(cs.subscription);
  const paymentIntentId = idOf(cs.payment_intent);
  let sub: Stripe.Subscription | null = null;
  let facts: PaidFacts | null = null;
  if (subscriptionId) {
    sub = await stripe.subscriptions.retrieve(subscriptionId);
    const invoiceId = idOf(sub.latest_invoice);
    if (invoiceId) {
      const invoice = await stripe.invoices.retrieve(invoiceId);
      if (invoice.status === 'paid') facts = await invoiceFacts(stripe, invoice);
    }
  } else if (paymentIntentId) {
    const { charge, pi } = await chargeFacts(stripe, paymentIntentId);
    facts = {
      chargeId: charge?.id ?? null,
      paymentIntentId,
      invoiceId: null,
      amountCents: charge?.amount ?? pi?.amount ?? cs.amount_total ?? found.amountCents,
      currency: charge?.currency ?? cs.currency ?? found.currency,
      feeCents: pi?.application_fee_amount ?? null,
      receiptUrl: charge?.receipt_url ?? null,
      paidAt: new Date(((charge?.created ?? cs.created) || Date.now() / 1000) * 1000),
    };
  }

  type Result = { changed: boolean; enrolled: boolean; refused: string | null; promotedNone?: true; purchase: Purchase };
  const result = await db.transaction(async (tx): Promise<Result> => {
    // A course purchase takes the course session lock first (the order enrolLearner and drops use).
    if (found.courseSessionId && found.kind !== 'plan') await lockCourseSession(tx, found.courseSessionId);
    const p = await lockPurchase(tx, found.id);
    if (p.status !== 'open' && p.status !== 'expired') return { changed: false, enrolled: false, refused: null, purchase: p };
    const base = { checkoutSessionId: cs.id, paymentIntentId, subscriptionId, updatedAt: new Date() };
    if (facts) await recordPayment(tx, p, facts);

    if (p.kind === 'plan') {
      await tx
        .update(payoutAccount)
        .set({ plan: 'pro', planSubscriptionId: subscriptionId, updatedAt: new Date() })
        .where(eq(payoutAccount.userId, p.userId));
      // Educator Pro's placement: the educator's upcoming courses on /explore's "Featured" shelf.
      await setFeatured(tx, p.userId, true);
      const [done] = await tx
        .update(purchase)
        .set({ ...base, status: 'fulfilled', fulfilledAt: new Date() })
        .where(eq(purchase.id, p.id))
        .returning();
      return { changed: true, enrolled: false, refused: null, purchase: done };
    }

    let refused: string | null = null;
    let enrolmentId: string | null = null;
    // A family purchase (ADR 0074): a seat for each of its learners, all or none.
    const seats = await seatsOf(tx, p.id);
    let seated: string[] | null = null;
    try {
      // A savepoint: a refused seat rolls back only the attempt, not the payment record.
      if (seats.length) {
        seated = await tx.transaction((sp) =>
          seatLearners(sp, { sessionId: p.courseSessionId!, accountId: p.userId, learnerProfileIds: seats.map((x) => x.learnerProfileId) }),
        );
      } else {
        const e = await tx.transaction((sp) => enrolLearner(sp, { sessionId: p.courseSessionId!, learnerId: p.userId, seatOnly: true }));
        enrolmentId = e.id;
      }
    } catch (err) {
      if (err instanceof AppError) refused = err.message;
      else if (pgCode(err) === PG.uniqueViolation)
        refused = seats.length > 1 ? 'One of these learners is already in this session' : 'You are already enrolled in this session';
      else throw err;
    }
    if (seats.length) await settleSeats(tx, p.id, refused ? null : seated);
    if (refused) {
      // Everything paid goes back: so does the code's use.
      if (p.promoCodeId) await releaseUse(tx, p.id);
      const [done] = await tx
        .update(purchase)
        .set({ ...base, status: 'refunded', failureReason: refused })
        .where(eq(purchase.id, p.id))
        .returning();
      return { changed: true, enrolled: false, refused, purchase: done };
    }
    // The code's use is confirmed; one payment's discount as the provider computed it.
    if (p.promoCodeId) await confirmUse(tx, p.id, p.kind === 'course_payment' ? (cs.total_details?.amount_discount ?? null) : null);
    const [done] = await tx
      .update(purchase)
      .set({ ...base, status: 'fulfilled', enrolmentId, fulfilledAt: new Date() })
      .where(eq(purchase.id, p.id))
      .returning();
    return { changed: true, enrolled: true, refused: null, purchase: done };
  });

  const p = result.purchase;
  // A refused seat: everything paid goes back (also on a later run if a refund failed then).
  if (p.status === 'refunded' && p.kind !== 'plan') {
    const plan = await db.transaction((tx) => fullRefundPlan(tx, p.id, 'seat_unavailable'));
    if (plan && (plan.items.length || (result.changed && plan.subscriptionId))) {
      await executeRefundPlan(app, { ...plan, subscriptionId: p.subscriptionId }, { throwOnFailure: true });
    } else if (p.subscriptionId && result.changed) {
      await cancelSubscription(stripe, p.subscriptionId, p.id);
    }
  }
  // Installments end by themselves after the N-th paid invoice.
  if (
    sub &&
    p.kind === 'course_installments' &&
    (p.status === 'fulfilled' || p.status === 'past_due') &&
    !sub.cancel_at &&
    p.installments
  ) {
    const start = new Date((sub.start_date ?? sub.created) * 1000);
    const cancelAt = Math.floor(addMonths(start, p.installments).getTime() / 1000);
    await stripe.subscriptions.update(sub.id, { cancel_at: cancelAt }, { idempotencyKey: `cancel-at-${p.id}` });
  }
  if (result.changed)
    await sendFulfilmentEmail(app, p, facts, result.refused).catch((err) =>
      app.log.error({ err }, 'payments: could not send the fulfilment email'),
    );
  return { checkout: cs, purchaseId: p.id, changed: result.changed };
}
