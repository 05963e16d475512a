import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { formatPrice } from '../../shared/courses.js';
import { planById } from '../../shared/payments.js';
import type { AppServices } from '../app-services.js';
import { announceWaitlistPromoted } from '../courses/events.js';
import { setFeatured } from '../courses/featured.js';
import { lockCourseSession, releaseEnrolmentById, setInstallmentStanding } from '../courses/seats.js';
import { payment, payoutAccount, purchase } from '../db/schema/payments.js';
import { invoiceFacts } from './provider-facts.js';
import { idOf } from './provider-calls.js';
import { lockPurchase, purchaseFor, recordPayment } from './purchases.js';
import { enrolmentsOfPurchase } from './family-seats.js';
import { learnerAndCourse } from './receipts.js';

/**
 * Installment plans (and platform plans) after the checkout: each paid invoice, a failed
 * one, the subscription's end. Every handler re-reads the provider's object.
 */

/** The subscription an invoice belongs to and the metadata it carries. */
function invoiceSubscription(invoice: Stripe.Invoice): { subscriptionId: string | null; purchaseId: string | null } {
  const details = invoice.parent?.subscription_details ?? null;
  const legacy = invoice as unknown as { subscription?: string | { id: string } | null };
  return {
    subscriptionId: idOf(details?.subscription ?? legacy.subscription ?? null),
    purchaseId: details?.metadata?.purchase_id ?? invoice.metadata?.purchase_id ?? null,
  };
}

/** invoice.paid: one payment row per invoice (k of N); a past-due enrolment is active again. */
export async function handleInvoicePaid(app: AppServices, invoiceId: string) {
  const stripe = app.stripe();
  const db = app.database.db;
  const invoice = await stripe.invoices.retrieve(invoiceId);
  if (invoice.status !== 'paid' || invoice.amount_paid <= 0) return;
  const ids = invoiceSubscription(invoice);
  let found = await purchaseFor(db, { subscriptionId: ids.subscriptionId, purchaseId: ids.purchaseId });
  if (!found && ids.subscriptionId) {
    const sub = await stripe.subscriptions.retrieve(ids.subscriptionId);
    found = await purchaseFor(db, { purchaseId: sub.metadata?.purchase_id });
  }
  if (!found) return;
  const facts = await invoiceFacts(stripe, invoice);
  const r = await db.transaction(async (tx) => {
    if (found.courseSessionId && found.kind !== 'plan') await lockCourseSession(tx, found.courseSessionId);
    const p = await lockPurchase(tx, found.id);
    if (!p.subscriptionId && ids.subscriptionId)
      await tx.update(purchase).set({ subscriptionId: ids.subscriptionId }).where(eq(purchase.id, p.id));
    const rec = await recordPayment(tx, p, facts);
    if (rec.inserted && p.status === 'past_due') {
      await tx.update(purchase).set({ status: 'fulfilled', updatedAt: new Date() }).where(eq(purchase.id, p.id));
      for (const id of await enrolmentsOfPurchase(tx, p)) await setInstallmentStanding(tx, id, 'active');
    }
    return { ...rec, purchase: p };
  });
  // The first installment's receipt is the "You're enrolled" of the fulfilment.
  if (r.inserted && r.sequence > 1 && r.purchase.status !== 'open') {
    const { u, c } = await learnerAndCourse(app, r.purchase);
    if (u) {
      const title = r.purchase.kind === 'plan' ? (planById(r.purchase.planId ?? '')?.name ?? 'Agora plan') : (c?.title ?? 'your course');
      await app.paymentEvents.announceCommitted(app.database.db, 'payment.received', {
        purchaseId: r.purchase.id,
        userId: r.purchase.userId,
        kind: 'installment',
        courseId: c?.id ?? null,
        title,
        amount: formatPrice(facts.amountCents, facts.currency),
        detail: '',
        receiptUrl: facts.receiptUrl,
        sequence: r.sequence,
        installments: r.purchase.installments,
      });
    }
  }
}

/** invoice.payment_failed: the enrolment is past due (keeps its seat for now); the learner is told. */
export async function handleInvoiceFailed(app: AppServices, invoiceId: string) {
  const stripe = app.stripe();
  const db = app.database.db;
  const invoice = await stripe.invoices.retrieve(invoiceId);
  if (invoice.status === 'paid') return;
  const ids = invoiceSubscription(invoice);
  const found = await purchaseFor(db, { subscriptionId: ids.subscriptionId, purchaseId: ids.purchaseId });
  if (!found || found.status === 'open' || found.status === 'expired') return; // a declined checkout: the form says so
  const changed = await db.transaction(async (tx) => {
    if (found.courseSessionId && found.kind !== 'plan') await lockCourseSession(tx, found.courseSessionId);
    const p = await lockPurchase(tx, found.id);
    if (p.status !== 'fulfilled' && p.status !== 'past_due') return false;
    await tx.update(purchase).set({ status: 'past_due', updatedAt: new Date() }).where(eq(purchase.id, p.id));
    for (const id of await enrolmentsOfPurchase(tx, p)) await setInstallmentStanding(tx, id, 'past_due');
    return true;
  });
  if (!changed) return;
  const { u, c } = await learnerAndCourse(app, found);
  if (u) {
    const title = found.kind === 'plan' ? (planById(found.planId ?? '')?.name ?? 'Agora plan') : (c?.title ?? 'your course');
    await app.paymentEvents.announceCommitted(app.database.db, 'installment.failed', {
      purchaseId: found.id,
      userId: found.userId,
      courseId: c?.id ?? null,
      title,
      amount: formatPrice(invoice.amount_due, invoice.currency),
      released: false,
    });
  }
}

/**
 * customer.subscription.deleted: a plan ends (fee back to standard); installments end
 * either complete (every installment paid: the learner stays enrolled) or not (the
 * provider gave up: the seat is released to the waitlist and the learner told).
 */
export async function handleSubscriptionDeleted(app: AppServices, subscriptionId: string, fallbackMetadata: Record<string, string> | null) {
  const stripe = app.stripe();
  const db = app.database.db;
  let metadata = fallbackMetadata;
  try {
    metadata = (await stripe.subscriptions.retrieve(subscriptionId)).metadata ?? metadata;
  } catch {
    // A deleted subscription may no longer be readable: the event's copy is enough to find our purchase.
  }
  const found = await purchaseFor(db, { subscriptionId, purchaseId: metadata?.purchase_id });
  if (!found) {
    await db.transaction(async (tx) => {
      const ended = await tx
        .update(payoutAccount)
        .set({ plan: 'standard', planSubscriptionId: null, updatedAt: new Date() })
        .where(eq(payoutAccount.planSubscriptionId, subscriptionId))
        .returning({ userId: payoutAccount.userId });
      for (const { userId } of ended) await setFeatured(tx, userId, false);
    });
    return;
  }
  if (found.kind === 'plan') {
    await db.transaction(async (tx) => {
      const ended = await tx
        .update(payoutAccount)
        .set({ plan: 'standard', planSubscriptionId: null, updatedAt: new Date() })
        .where(
          and(
            eq(payoutAccount.userId, found.userId),
            sql`(${payoutAccount.planSubscriptionId} = ${subscriptionId} or ${payoutAccount.planSubscriptionId} is null)`,
          ),
        )
        .returning({ userId: payoutAccount.userId });
      // The plan's placement ends with it.
      for (const { userId } of ended) await setFeatured(tx, userId, false);
      await tx
        .update(purchase)
        .set({ status: 'cancelled', updatedAt: new Date() })
        .where(and(eq(purchase.id, found.id), inArray(purchase.status, ['fulfilled', 'past_due'])));
    });
    return;
  }
  const outcome = await db.transaction(async (tx) => {
    if (found.courseSessionId) await lockCourseSession(tx, found.courseSessionId);
    const p = await lockPurchase(tx, found.id);
    if (p.status !== 'fulfilled' && p.status !== 'past_due') return null;
    const [{ n }] = await tx
      .select({ n: count() })
      .from(payment)
      .where(and(eq(payment.purchaseId, p.id), sql`${payment.invoiceId} is not null`));
    if (p.installments && n >= p.installments) {
      await tx.update(purchase).set({ status: 'completed', updatedAt: new Date() }).where(eq(purchase.id, p.id));
      for (const id of await enrolmentsOfPurchase(tx, p)) await setInstallmentStanding(tx, id, 'active');
      return { released: false, promoted: [] as string[] };
    }
    const promoted: string[] = [];
    for (const id of await enrolmentsOfPurchase(tx, p)) promoted.push(...(await releaseEnrolmentById(tx, id)));
    await tx
      .update(purchase)
      .set({ status: 'cancelled', failureReason: 'The installments could not be collected', updatedAt: new Date() })
      .where(eq(purchase.id, p.id));
    return { released: true, promoted };
  });
  if (!outcome?.released) return;
  if (found.courseId && found.courseSessionId && outcome.promoted.length)
    await announceWaitlistPromoted(app, {
      courseId: found.courseId,
      courseSessionId: found.courseSessionId,
      enrolmentIds: outcome.promoted,
    });
  const { u, c } = await learnerAndCourse(app, found);
  if (u && c)
    await app.paymentEvents.announceCommitted(app.database.db, 'installment.failed', {
      purchaseId: found.id,
      userId: found.userId,
      courseId: c.id,
      title: c.title,
      amount: '',
      released: true,
    });
}

/** Months added in UTC (clamped to the last day of a shorter month). */
export function addMonths(date: Date, months: number): Date {
  const d = new Date(date.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}
