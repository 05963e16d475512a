import { and, asc, eq, inArray } from 'drizzle-orm';
import { courseBriefOf, firstClassOf } from '../courses/course-records.js';
import { payment, purchase } from '../db/schema/payments.js';
import type { Conn, Tx } from '../db/transaction.js';
import { refundShare, type RefundItem, type RefundPlan } from './refund-policy.js';
import { recordRefundDue } from './refund-due.js';

/**
 * Refunds are planned inside the transaction that changes our records (a drop, a seat
 * that was gone), and carried out at the provider after the commit (provider-refunds.ts).
 * A drop's or a cancelled course session's plan is also recorded in refund_due
 * (refund-due.ts), so one the provider failed is retried until done.
 */

/**
 * What dropping an enrolment gives back, per the course's refund policy: the purchase, the
 * share and the amount per payment. The one computation behind the drop page's figure
 * (GET .../drop-refund) and the drop itself, so the amount shown is the amount refunded.
 */
export async function dropRefundFor(conn: Conn, enrolmentId: string, opts: { now?: Date; lock?: boolean } = {}) {
  const q = conn
    .select()
    .from(purchase)
    .where(and(eq(purchase.enrolmentId, enrolmentId), inArray(purchase.status, ['fulfilled', 'past_due', 'completed'])))
    .limit(1)
    .$dynamic();
  const [p] = opts.lock ? await q.for('update') : await q;
  if (!p) return null;
  const c = await courseBriefOf(conn, p.courseId ?? '00000000-0000-0000-0000-000000000000');
  const firstClassAt = await firstClassOf(conn, p.courseSessionId);
  const share = firstClassAt ? refundShare(c?.refundPolicy ?? 'moderate', firstClassAt, opts.now ?? new Date()) : 1;
  const paid = await conn.select().from(payment).where(eq(payment.purchaseId, p.id)).orderBy(asc(payment.sequence));
  const paidCents = paid.reduce((n, row) => n + row.amountCents - row.refundedCents, 0);
  // The share of what was paid, rounded down once on the total (not per payment, which
  // could lose a cent per installment), then split over the payments in order.
  const amounts = splitRefund(
    paid.map((row) => row.amountCents - row.refundedCents),
    Math.floor(paidCents * share),
  );
  const items: RefundItem[] = paid
    .map((row, i) => ({
      paymentId: row.id,
      sequence: row.sequence,
      chargeId: row.chargeId,
      paymentIntentId: row.paymentIntentId,
      refundedCents: row.refundedCents,
      amountCents: amounts[i],
    }))
    .filter((i) => i.amountCents > 0);
  return { purchase: p, share, items, paidCents, totalCents: items.reduce((n, i) => n + i.amountCents, 0) };
}

/**
 * `total` cents split over payments of `left` refundable cents each, in proportion (rounded
 * down), the cents the rounding leaves given to the earliest payments that can take them:
 * the parts add up to `total` exactly (when it is at most the sum of `left`).
 */
export function splitRefund(left: number[], total: number): number[] {
  const sum = left.reduce((a, b) => a + b, 0);
  if (sum <= 0 || total <= 0) return left.map(() => 0);
  const parts = left.map((l) => Math.floor((l * Math.min(total, sum)) / sum));
  let rest = Math.min(total, sum) - parts.reduce((a, b) => a + b, 0);
  for (let i = 0; rest > 0 && i < parts.length; i++) {
    if (parts[i] < left[i]) {
      parts[i] += 1;
      rest -= 1;
    }
  }
  return parts;
}

/** The purchase behind an enrolment being dropped: ends it and plans its refund. */
export async function refundPlanForDrop(tx: Tx, enrolmentId: string, now = new Date()): Promise<RefundPlan | null> {
  const due = await dropRefundFor(tx, enrolmentId, { now, lock: true });
  if (!due) return null;
  const { purchase: p, share, items } = due;
  await tx.update(purchase).set({ status: 'cancelled', updatedAt: new Date() }).where(eq(purchase.id, p.id));
  const plan: RefundPlan = {
    purchaseId: p.id,
    learnerId: p.userId,
    courseId: p.courseId,
    subscriptionId: p.subscriptionId,
    currency: p.currency,
    share,
    totalCents: due.totalCents,
    items,
    reason: 'requested_by_customer',
  };
  // What is owed is durable from this commit on: retried until the provider has done it.
  await recordRefundDue(tx, plan);
  return plan;
}

/** A full refund of everything still unrefunded of a purchase (a seat that was gone, a cancelled session). */
export async function fullRefundPlan(tx: Tx, purchaseId: string, reason = 'requested_by_customer'): Promise<RefundPlan | null> {
  const [p] = await tx.select().from(purchase).where(eq(purchase.id, purchaseId)).limit(1);
  if (!p) return null;
  const paid = await tx.select().from(payment).where(eq(payment.purchaseId, p.id)).orderBy(asc(payment.sequence));
  const items = paid
    .map((row) => ({
      paymentId: row.id,
      sequence: row.sequence,
      chargeId: row.chargeId,
      paymentIntentId: row.paymentIntentId,
      refundedCents: row.refundedCents,
      amountCents: row.amountCents - row.refundedCents,
    }))
    .filter((i) => i.amountCents > 0);
  return {
    purchaseId: p.id,
    learnerId: p.userId,
    courseId: p.courseId,
    subscriptionId: p.subscriptionId,
    currency: p.currency,
    share: 1,
    totalCents: items.reduce((n, i) => n + i.amountCents, 0),
    items,
    reason,
  };
}
