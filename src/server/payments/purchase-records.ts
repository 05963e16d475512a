import { desc, eq, sql } from 'drizzle-orm';
import { planById } from '../../shared/payments.js';
import type { PurchaseState } from '../../shared/admin-schemas.js';
import { payment, purchase, refundDue } from '../db/schema/payments.js';
import type { Conn } from '../db/transaction.js';

/**
 * How long a checkout stays payable: the provider's checkout sessions expire after 24 hours
 * (its default, which we do not change). An open purchase older than that was abandoned,
 * even if the provider's expiry event never reached us.
 */
export const CHECKOUT_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** One purchase of a user as the admin console shows it: what was agreed, paid, refunded, and its true state. */
export interface PurchaseRecord {
  id: string;
  kind: string;
  courseId: string | null;
  planName: string | null;
  amountCents: number;
  paidCents: number;
  refundedCents: number;
  refundPendingCents: number;
  currency: string;
  installments: number | null;
  installmentsPaid: number;
  state: PurchaseState;
  failureReason: string | null;
  createdAt: Date;
}

/** What a purchase's state is read from (purchaseState): its own columns and its money (purchaseMoney). */
export interface PurchaseFacts {
  status: string;
  kind: string;
  installments: number | null;
  paidCount: number;
  paidCents: number;
  refundedCents: number;
  refundPendingCents: number;
  failureReason: string | null;
  createdAt: Date;
}

/**
 * A purchase's state from what happened to its money, not from the purchase's own status
 * (which says "cancelled" for a dropped seat whose money went back): refunded in full or in
 * part, a refund still owed, an installment that failed, installments under way, paid; and
 * a checkout never paid: still open (within the provider's lifetime), abandoned, or expired.
 */
export function purchaseState(f: PurchaseFacts, now: Date): PurchaseState {
  const paid = Number(f.paidCents);
  const refunded = Number(f.refundedCents);
  if (Number(f.paidCount) === 0) {
    if (f.status === 'open') return now.getTime() - f.createdAt.getTime() < CHECKOUT_LIFETIME_MS ? 'checkout_open' : 'checkout_abandoned';
    if (f.status === 'expired') return 'checkout_expired';
    if (f.status === 'fulfilled' || f.status === 'completed') return 'paid'; // nothing to pay (a free checkout)
    return 'failed'; // ended without money taken: refused or never collected
  }
  if (refunded > 0) return refunded >= paid ? 'refunded' : 'partially_refunded';
  if (Number(f.refundPendingCents) > 0) return 'refund_pending';
  if (f.status === 'past_due') return 'installment_failed';
  if (f.status === 'cancelled' && f.failureReason) return 'failed';
  const n = f.kind === 'course_installments' ? f.installments : null;
  if (n && Number(f.paidCount) < n && f.status === 'fulfilled') return 'installments';
  return 'paid';
}

/**
 * A purchase's money, as columns of a select from `purchase` left-joined to `refund_due`
 * (the admin console's records and the roster's payment column read the same sums).
 */
export const purchaseMoney = {
  paidCount: sql<number>`(select count(*)::int from ${payment} p2 where p2.purchase_id = ${purchase.id})`,
  paidCents: sql<number>`(select coalesce(sum(p2.amount_cents), 0)::int from ${payment} p2 where p2.purchase_id = ${purchase.id})`,
  refundedCents: sql<number>`(select coalesce(sum(p2.refunded_cents), 0)::int from ${payment} p2 where p2.purchase_id = ${purchase.id})`,
  refundPendingCents: sql<number>`coalesce(${refundDue.amountCents}, 0)::int`,
};

/** A user's purchases, newest first, each with its payments summed and its true state (ADR 0035: payments own these tables). */
export async function purchaseRecordsOf(conn: Conn, userId: string, now = new Date(), limit = 100): Promise<PurchaseRecord[]> {
  const rows = await conn
    .select({
      id: purchase.id,
      kind: purchase.kind,
      courseId: purchase.courseId,
      planId: purchase.planId,
      amountCents: purchase.amountCents,
      currency: purchase.currency,
      installments: purchase.installments,
      status: purchase.status,
      failureReason: purchase.failureReason,
      createdAt: purchase.createdAt,
      ...purchaseMoney,
    })
    .from(purchase)
    .leftJoin(refundDue, eq(refundDue.purchaseId, purchase.id))
    .where(eq(purchase.userId, userId))
    .orderBy(desc(purchase.createdAt), purchase.id)
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    courseId: r.courseId,
    planName: r.kind === 'plan' ? (planById(r.planId ?? '')?.name ?? 'Agora plan') : null,
    amountCents: r.amountCents,
    paidCents: Number(r.paidCents),
    refundedCents: Number(r.refundedCents),
    refundPendingCents: Number(r.refundPendingCents),
    currency: r.currency,
    installments: r.kind === 'course_installments' ? r.installments : null,
    installmentsPaid: Number(r.paidCount),
    state: purchaseState(r, now),
    failureReason: r.failureReason,
    createdAt: r.createdAt,
  }));
}

/** Refunds owed that the provider has not made yet, newest first (the admin console's list). */
export async function refundsOwed(conn: Conn, limit = 100) {
  return conn
    .select({
      purchaseId: refundDue.purchaseId,
      userId: refundDue.userId,
      amountCents: refundDue.amountCents,
      currency: refundDue.currency,
      attempts: refundDue.attempts,
      lastError: refundDue.lastError,
    })
    .from(refundDue)
    .orderBy(desc(refundDue.createdAt))
    .limit(limit);
}
