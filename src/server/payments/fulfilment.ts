import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { formatPrice } from '../../shared/courses.js';
import { planById, platformFee } from '../../shared/payments.js';
import { enrolLearner, lockSession, notifyPromotions, releaseEnrolment } from '../courses/enrolment-service.js';
import { user } from '../db/schema/accounts.js';
import { course, enrolment } from '../db/schema/courses.js';
import { payment, payoutAccount, purchase } from '../db/schema/payments.js';
import { PG, pgCode } from '../db/errors.js';
import type { Tx } from '../db/transaction.js';
import {
  enrolledReceiptEmail, installmentFailedEmail, installmentReceiptEmail, planActiveEmail, seatGoneRefundEmail, seatReleasedEmail,
} from '../email/templates.js';
import type { EmailMessage } from '../email/mailer.js';
import { AppError } from '../http/errors.js';
import { addMonths, idOf } from './common.js';
import { cancelSubscription, executeRefundPlan, fullRefundPlan } from './drop-refunds.js';

type Purchase = typeof purchase.$inferSelect;

/** What the provider says about one paid invoice (or the one payment of a checkout). */
interface PaidFacts {
  chargeId: string | null;
  paymentIntentId: string | null;
  invoiceId: string | null;
  amountCents: number;
  currency: string;
  feeCents: number | null;
  receiptUrl: string | null;
  paidAt: Date;
}

/** The charge of a payment intent (its latest charge), read separately (no `expand`). */
async function chargeFacts(stripe: Stripe, paymentIntentId: string | null) {
  if (!paymentIntentId) return { charge: null as Stripe.Charge | null, pi: null as Stripe.PaymentIntent | null };
  const pi = await stripe.paymentIntents.retrieve(paymentIntentId);
  const chargeId = idOf(pi.latest_charge);
  const charge = chargeId ? await stripe.charges.retrieve(chargeId) : null;
  return { charge, pi };
}

/** A paid invoice: its payment intent (invoice payments), charge and receipt. */
export async function invoiceFacts(stripe: Stripe, invoice: Stripe.Invoice): Promise<PaidFacts> {
  let paymentIntentId: string | null = null;
  let charge: Stripe.Charge | null = null;
  try {
    const payments = await stripe.invoicePayments.list({ invoice: invoice.id!, limit: 10 });
    const paid = payments.data.find((p) => p.status === 'paid') ?? payments.data[0];
    paymentIntentId = idOf(paid?.payment?.payment_intent ?? null);
    const directCharge = idOf(paid?.payment?.charge ?? null);
    if (paymentIntentId) charge = (await chargeFacts(stripe, paymentIntentId)).charge;
    else if (directCharge) charge = await stripe.charges.retrieve(directCharge);
  } catch {
    // Older shapes: the invoice names its charge / payment intent itself.
    const legacy = invoice as unknown as { charge?: string | { id: string } | null; payment_intent?: string | { id: string } | null };
    paymentIntentId = idOf(legacy.payment_intent ?? null);
    const chargeId = idOf(legacy.charge ?? null);
    if (chargeId) charge = await stripe.charges.retrieve(chargeId).catch(() => null);
    else if (paymentIntentId) charge = (await chargeFacts(stripe, paymentIntentId).catch(() => ({ charge: null }))).charge;
  }
  const paidAtSec = invoice.status_transitions?.paid_at ?? charge?.created ?? Math.floor(Date.now() / 1000);
  return {
    chargeId: charge?.id ?? null,
    paymentIntentId: paymentIntentId ?? idOf(charge?.payment_intent ?? null),
    invoiceId: invoice.id ?? null,
    amountCents: invoice.amount_paid,
    currency: invoice.currency,
    feeCents: null,
    receiptUrl: charge?.receipt_url ?? invoice.hosted_invoice_url ?? null,
    paidAt: new Date(paidAtSec * 1000),
  };
}

/** Records money received once (unique per charge / invoice); answers whether it was new and its sequence. */
async function recordPayment(tx: Tx, p: Purchase, facts: PaidFacts): Promise<{ inserted: boolean; sequence: number }> {
  const [{ n }] = await tx.select({ n: count() }).from(payment).where(eq(payment.purchaseId, p.id));
  const fee = facts.feeCents ?? (p.kind === 'plan' ? facts.amountCents : platformFee(facts.amountCents, p.feePercent));
  const rows = await tx.insert(payment).values({
    purchaseId: p.id, userId: p.userId, educatorId: p.educatorId,
    chargeId: facts.chargeId, paymentIntentId: facts.paymentIntentId, invoiceId: facts.invoiceId,
    sequence: n + 1, amountCents: facts.amountCents, feeCents: fee, currency: facts.currency,
    receiptUrl: facts.receiptUrl, paidAt: facts.paidAt,
  }).onConflictDoNothing().returning({ sequence: payment.sequence });
  return { inserted: rows.length > 0, sequence: rows[0]?.sequence ?? n };
}

async function purchaseFor(tx: Tx | FastifyInstance['database']['db'], ids: { purchaseId?: string | null; checkoutSessionId?: string | null; subscriptionId?: string | null }): Promise<Purchase | null> {
  if (ids.purchaseId && /^[0-9a-f-]{36}$/i.test(ids.purchaseId)) {
    const [p] = await tx.select().from(purchase).where(eq(purchase.id, ids.purchaseId)).limit(1);
    if (p) return p;
  }
  if (ids.checkoutSessionId) {
    const [p] = await tx.select().from(purchase).where(eq(purchase.checkoutSessionId, ids.checkoutSessionId)).limit(1);
    if (p) return p;
  }
  if (ids.subscriptionId) {
    const [p] = await tx.select().from(purchase).where(eq(purchase.subscriptionId, ids.subscriptionId)).limit(1);
    if (p) return p;
  }
  return null;
}

async function lockPurchase(tx: Tx, id: string): Promise<Purchase> {
  const [p] = await tx.select().from(purchase).where(eq(purchase.id, id)).for('update');
  return p;
}

export interface FulfilOutcome {
  session: Stripe.Checkout.Session;
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
export async function fulfilCheckout(app: FastifyInstance, checkoutSessionId: string): Promise<FulfilOutcome> {
  const stripe = app.stripe();
  const db = app.database.db;
  const cs = await stripe.checkout.sessions.retrieve(checkoutSessionId);
  const found = await purchaseFor(db, { purchaseId: cs.metadata?.purchase_id, checkoutSessionId: cs.id });
  if (!found) return { session: cs, purchaseId: null, changed: false };

  if (cs.status === 'expired') {
    await db.update(purchase).set({ status: 'expired', updatedAt: new Date() }).where(and(eq(purchase.id, found.id), eq(purchase.status, 'open')));
    return { session: cs, purchaseId: found.id, changed: false };
  }
  const paid = cs.status === 'complete' && (cs.payment_status === 'paid' || cs.payment_status === 'no_payment_required');
  if (!paid) return { session: cs, purchaseId: found.id, changed: false };

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
      chargeId: charge?.id ?? null, paymentIntentId, invoiceId: null,
      amountCents: charge?.amount ?? pi?.amount ?? cs.amount_total ?? found.amountCents,
      currency: charge?.currency ?? cs.currency ?? found.currency,
      feeCents: pi?.application_fee_amount ?? null,
      receiptUrl: charge?.receipt_url ?? null,
      paidAt: new Date(((charge?.created ?? cs.created) || Date.now() / 1000) * 1000),
    };
  }

  type Result = { changed: boolean; enrolled: boolean; refused: string | null; promotedNone?: true; purchase: Purchase };
  const result = await db.transaction(async (tx): Promise<Result> => {
    // A course purchase takes the session lock first (the order enrolLearner and drops use).
    if (found.sessionId && found.kind !== 'plan') await lockSession(tx, found.sessionId);
    const p = await lockPurchase(tx, found.id);
    if (p.status !== 'open' && p.status !== 'expired') return { changed: false, enrolled: false, refused: null, purchase: p };
    const base = { checkoutSessionId: cs.id, paymentIntentId, subscriptionId, updatedAt: new Date() };
    if (facts) await recordPayment(tx, p, facts);

    if (p.kind === 'plan') {
      await tx.update(payoutAccount).set({ plan: 'pro', planSubscriptionId: subscriptionId, updatedAt: new Date() }).where(eq(payoutAccount.userId, p.userId));
      const [done] = await tx.update(purchase).set({ ...base, status: 'fulfilled', fulfilledAt: new Date() }).where(eq(purchase.id, p.id)).returning();
      return { changed: true, enrolled: false, refused: null, purchase: done };
    }

    let refused: string | null = null;
    let enrolmentId: string | null = null;
    try {
      // A savepoint: a refused seat rolls back only the attempt, not the payment record.
      const e = await tx.transaction((sp) => enrolLearner(sp, { sessionId: p.sessionId!, learnerId: p.userId, seatOnly: true }));
      enrolmentId = e.id;
    } catch (err) {
      if (err instanceof AppError) refused = err.message;
      else if (pgCode(err) === PG.uniqueViolation) refused = 'You are already enrolled in this session';
      else throw err;
    }
    if (refused) {
      const [done] = await tx.update(purchase).set({ ...base, status: 'refunded', failureReason: refused }).where(eq(purchase.id, p.id)).returning();
      return { changed: true, enrolled: false, refused, purchase: done };
    }
    const [done] = await tx.update(purchase).set({ ...base, status: 'fulfilled', enrolmentId, fulfilledAt: new Date() }).where(eq(purchase.id, p.id)).returning();
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
  if (sub && p.kind === 'course_installments' && (p.status === 'fulfilled' || p.status === 'past_due') && !sub.cancel_at && p.installments) {
    const start = new Date((sub.start_date ?? sub.created) * 1000);
    const cancelAt = Math.floor(addMonths(start, p.installments).getTime() / 1000);
    await stripe.subscriptions.update(sub.id, { cancel_at: cancelAt }, { idempotencyKey: `cancel-at-${p.id}` });
  }
  if (result.changed) await sendFulfilmentEmail(app, p, facts, result.refused).catch((err) => app.log.error({ err }, 'payments: could not send the fulfilment email'));
  return { session: cs, purchaseId: p.id, changed: result.changed };
}

async function learnerAndCourse(app: FastifyInstance, p: Purchase) {
  const db = app.database.db;
  const [u] = await db.select({ email: user.email, firstName: user.firstName }).from(user).where(eq(user.id, p.userId)).limit(1);
  const [c] = p.courseId ? await db.select({ id: course.id, title: course.title }).from(course).where(eq(course.id, p.courseId)).limit(1) : [];
  return { u, c };
}

async function send(app: FastifyInstance, message: EmailMessage) {
  try {
    await app.mailer.send(message);
  } catch (err) {
    app.log.error({ err, to: message.to }, 'payments: could not send an email');
  }
}

async function sendFulfilmentEmail(app: FastifyInstance, p: Purchase, facts: PaidFacts | null, refused: string | null) {
  const { u, c } = await learnerAndCourse(app, p);
  if (!u) return;
  const base = app.config.publicUrl;
  if (p.kind === 'plan') {
    const plan = planById(p.planId ?? '');
    if (plan) await send(app, planActiveEmail(u.email, u.firstName, { planName: plan.name, feePercent: plan.feePercent, url: `${base}/educator/dashboard` }));
    return;
  }
  const title = c?.title ?? 'your course';
  const courseUrl = c ? `${base}/course/${c.id}` : `${base}/explore`;
  if (refused) {
    const paidCents = facts?.amountCents ?? (p.installmentCents ?? p.amountCents);
    await send(app, seatGoneRefundEmail(u.email, u.firstName, { courseTitle: title, amount: formatPrice(paidCents, p.currency), reason: refused, courseUrl }));
    return;
  }
  const amount = formatPrice(facts?.amountCents ?? (p.installmentCents ?? p.amountCents), p.currency);
  const detail = p.installments ? `installment 1 of ${p.installments}; the next ones are taken monthly` : '';
  await send(app, enrolledReceiptEmail(u.email, u.firstName, { courseTitle: title, amount, detail, receiptUrl: facts?.receiptUrl ?? null, courseUrl }));
}

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
export async function handleInvoicePaid(app: FastifyInstance, invoiceId: string) {
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
    if (found.sessionId && found.kind !== 'plan') await lockSession(tx, found.sessionId);
    const p = await lockPurchase(tx, found.id);
    if (!p.subscriptionId && ids.subscriptionId) await tx.update(purchase).set({ subscriptionId: ids.subscriptionId }).where(eq(purchase.id, p.id));
    const rec = await recordPayment(tx, p, facts);
    if (rec.inserted && p.status === 'past_due') {
      await tx.update(purchase).set({ status: 'fulfilled', updatedAt: new Date() }).where(eq(purchase.id, p.id));
      if (p.enrolmentId) await tx.update(enrolment).set({ status: 'active', updatedAt: new Date() }).where(and(eq(enrolment.id, p.enrolmentId), eq(enrolment.status, 'past_due')));
    }
    return { ...rec, purchase: p };
  });
  // The first installment's receipt is the "You're enrolled" email of the fulfilment.
  if (r.inserted && r.sequence > 1 && r.purchase.status !== 'open') {
    const { u, c } = await learnerAndCourse(app, r.purchase);
    if (u) {
      const title = r.purchase.kind === 'plan' ? (planById(r.purchase.planId ?? '')?.name ?? 'Agora plan') : (c?.title ?? 'your course');
      await send(app, installmentReceiptEmail(u.email, u.firstName, {
        title, amount: formatPrice(facts.amountCents, facts.currency), sequence: r.sequence,
        installments: r.purchase.installments, receiptUrl: facts.receiptUrl, url: `${app.config.publicUrl}/user/settings`,
      }));
    }
  }
}

/** invoice.payment_failed: the enrolment is past due (keeps its seat for now); the learner is told. */
export async function handleInvoiceFailed(app: FastifyInstance, invoiceId: string) {
  const stripe = app.stripe();
  const db = app.database.db;
  const invoice = await stripe.invoices.retrieve(invoiceId);
  if (invoice.status === 'paid') return;
  const ids = invoiceSubscription(invoice);
  const found = await purchaseFor(db, { subscriptionId: ids.subscriptionId, purchaseId: ids.purchaseId });
  if (!found || found.status === 'open' || found.status === 'expired') return; // a declined checkout: the form says so
  const changed = await db.transaction(async (tx) => {
    if (found.sessionId && found.kind !== 'plan') await lockSession(tx, found.sessionId);
    const p = await lockPurchase(tx, found.id);
    if (p.status !== 'fulfilled' && p.status !== 'past_due') return false;
    await tx.update(purchase).set({ status: 'past_due', updatedAt: new Date() }).where(eq(purchase.id, p.id));
    if (p.enrolmentId) await tx.update(enrolment).set({ status: 'past_due', updatedAt: new Date() }).where(and(eq(enrolment.id, p.enrolmentId), eq(enrolment.status, 'active')));
    return true;
  });
  if (!changed) return;
  const { u, c } = await learnerAndCourse(app, found);
  if (u) {
    const title = found.kind === 'plan' ? (planById(found.planId ?? '')?.name ?? 'Agora plan') : (c?.title ?? 'your course');
    await send(app, installmentFailedEmail(u.email, u.firstName, { courseTitle: title, amount: formatPrice(invoice.amount_due, invoice.currency), url: `${app.config.publicUrl}/user/settings` }));
  }
}

/**
 * customer.subscription.deleted: a plan ends (fee back to standard); installments end
 * either complete (every installment paid: the learner stays enrolled) or not (the
 * provider gave up: the seat is released to the waitlist and the learner told).
 */
export async function handleSubscriptionDeleted(app: FastifyInstance, subscriptionId: string, fallbackMetadata: Record<string, string> | null) {
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
    await db.update(payoutAccount).set({ plan: 'standard', planSubscriptionId: null, updatedAt: new Date() }).where(eq(payoutAccount.planSubscriptionId, subscriptionId));
    return;
  }
  if (found.kind === 'plan') {
    await db.transaction(async (tx) => {
      await tx.update(payoutAccount).set({ plan: 'standard', planSubscriptionId: null, updatedAt: new Date() })
        .where(and(eq(payoutAccount.userId, found.userId), sql`(${payoutAccount.planSubscriptionId} = ${subscriptionId} or ${payoutAccount.planSubscriptionId} is null)`));
      await tx.update(purchase).set({ status: 'cancelled', updatedAt: new Date() }).where(and(eq(purchase.id, found.id), inArray(purchase.status, ['fulfilled', 'past_due'])));
    });
    return;
  }
  const outcome = await db.transaction(async (tx) => {
    if (found.sessionId) await lockSession(tx, found.sessionId);
    const p = await lockPurchase(tx, found.id);
    if (p.status !== 'fulfilled' && p.status !== 'past_due') return null;
    const [{ n }] = await tx.select({ n: count() }).from(payment).where(and(eq(payment.purchaseId, p.id), sql`${payment.invoiceId} is not null`));
    if (p.installments && n >= p.installments) {
      await tx.update(purchase).set({ status: 'completed', updatedAt: new Date() }).where(eq(purchase.id, p.id));
      if (p.enrolmentId) await tx.update(enrolment).set({ status: 'active', updatedAt: new Date() }).where(and(eq(enrolment.id, p.enrolmentId), eq(enrolment.status, 'past_due')));
      return { released: false, promoted: [] as string[] };
    }
    let promoted: string[] = [];
    if (p.enrolmentId) {
      const [mine] = await tx.select().from(enrolment).where(eq(enrolment.id, p.enrolmentId)).for('update').limit(1);
      if (mine && mine.status !== 'dropped' && mine.status !== 'completed') promoted = await releaseEnrolment(tx, mine);
    }
    await tx.update(purchase).set({ status: 'cancelled', failureReason: 'The installments could not be collected', updatedAt: new Date() }).where(eq(purchase.id, p.id));
    return { released: true, promoted };
  });
  if (!outcome?.released) return;
  if (found.courseId) await notifyPromotions(db, app.mailer, app.config.publicUrl, outcome.promoted, found.courseId, app.log);
  const { u, c } = await learnerAndCourse(app, found);
  if (u && c) await send(app, seatReleasedEmail(u.email, u.firstName, { courseTitle: c.title, courseUrl: `${app.config.publicUrl}/course/${c.id}` }));
}

/** account.updated: the payout account as the provider has it now. */
export async function refreshPayoutAccount(app: FastifyInstance, accountId: string) {
  const acct = await app.stripe().accounts.retrieve(accountId);
  const due = [...new Set([...(acct.requirements?.currently_due ?? []), ...(acct.requirements?.past_due ?? [])])];
  const [row] = await app.database.db.update(payoutAccount).set({
    chargesEnabled: !!acct.charges_enabled, payoutsEnabled: !!acct.payouts_enabled, detailsSubmitted: !!acct.details_submitted,
    requirementsDue: due, updatedAt: new Date(),
  }).where(eq(payoutAccount.accountId, accountId)).returning();
  return row ?? null;
}

/** charge.refunded: our payment rows take the provider's refunded amount. */
export async function handleChargeRefunded(app: FastifyInstance, chargeId: string) {
  const charge = await app.stripe().charges.retrieve(chargeId);
  const pi = idOf(charge.payment_intent);
  await app.database.db.update(payment)
    .set({ refundedCents: sql`least(${payment.amountCents}, ${charge.amount_refunded})`, chargeId: sql`coalesce(${payment.chargeId}, ${charge.id})` })
    .where(pi ? sql`${payment.chargeId} = ${charge.id} or (${payment.chargeId} is null and ${payment.paymentIntentId} = ${pi})` : eq(payment.chargeId, charge.id));
}
