import { and, desc, eq, inArray } from 'drizzle-orm';
import type { PurchaseState } from '../../shared/admin-schemas.js';
import type { RosterPayment } from '../../shared/courses-schemas.js';
import { purchase, purchaseSeat, refundDue } from '../db/schema/payments.js';
import type { Tx } from '../db/transaction.js';
import { purchaseMoney, purchaseState } from './purchase-records.js';

/**
 * How each enrolment of a roster was paid (the roster's payment column and its CSV), from
 * the enrolment's latest course purchase: its state is purchaseState's (the one rule, which
 * the admin console shows too), said in the roster's words. No purchase: free.
 */
export async function rosterPayments(tx: Tx, enrolmentIds: string[], now = new Date()): Promise<Record<string, RosterPayment>> {
  if (enrolmentIds.length === 0) return {};
  const rows = await tx
    .select({
      enrolmentId: purchase.enrolmentId,
      status: purchase.status,
      kind: purchase.kind,
      installments: purchase.installments,
      failureReason: purchase.failureReason,
      createdAt: purchase.createdAt,
      ...purchaseMoney,
    })
    .from(purchase)
    .leftJoin(refundDue, eq(refundDue.purchaseId, purchase.id))
    .where(and(inArray(purchase.enrolmentId, enrolmentIds), inArray(purchase.kind, ['course_payment', 'course_installments'])))
    .orderBy(desc(purchase.createdAt));
  const out: Record<string, RosterPayment> = {};
  for (const r of rows) {
    if (!r.enrolmentId || out[r.enrolmentId]) continue; // the latest purchase of each enrolment
    const n = r.kind === 'course_installments' ? r.installments : null;
    out[r.enrolmentId] = inRosterWords(purchaseState(r, now), n, Number(r.paidCount));
  }
  // The seats of family purchases (ADR 0074): a seat still held is paid as its purchase is; the
  // refund of another learner dropped from the same purchase is not this learner's.
  const seats = await tx
    .select({
      enrolmentId: purchaseSeat.enrolmentId,
      status: purchase.status,
      kind: purchase.kind,
      installments: purchase.installments,
      failureReason: purchase.failureReason,
      createdAt: purchase.createdAt,
      paidCount: purchaseMoney.paidCount,
      paidCents: purchaseMoney.paidCents,
    })
    .from(purchaseSeat)
    .innerJoin(purchase, eq(purchase.id, purchaseSeat.purchaseId))
    .where(and(inArray(purchaseSeat.enrolmentId, enrolmentIds), eq(purchaseSeat.status, 'seated')));
  for (const r of seats) {
    if (!r.enrolmentId || out[r.enrolmentId]) continue;
    const n = r.kind === 'course_installments' ? r.installments : null;
    out[r.enrolmentId] = inRosterWords(purchaseState({ ...r, refundedCents: 0, refundPendingCents: 0 }, now), n, Number(r.paidCount));
  }
  return out;
}

/** A purchase's state as the roster says it: n installments of which k are paid (n null: one payment). */
function inRosterWords(state: PurchaseState, n: number | null, k: number): RosterPayment {
  const base = { paidInstallments: n ? k : null, installments: n };
  switch (state) {
    case 'refunded':
      return { ...base, status: 'refunded', label: 'Refunded' };
    case 'partially_refunded':
      return { ...base, status: 'refunded', label: 'Partly refunded' };
    case 'refund_pending':
      return { ...base, status: 'refunded', label: 'Refund pending' };
    case 'installment_failed':
      return { ...base, status: 'past_due', label: n ? `Past due (${k} of ${n} paid)` : 'Past due' };
    case 'installments':
      return { ...base, status: 'installments', label: `Installments ${k} of ${n}` };
    case 'failed':
      return { ...base, status: 'past_due', label: n ? `Stopped (${k} of ${n} paid)` : 'Payment failed' };
    case 'checkout_open':
    case 'checkout_abandoned':
    case 'checkout_expired':
      return { ...base, status: 'past_due', label: 'Not paid' };
    case 'paid':
      return { ...base, status: 'paid', label: 'Paid' };
  }
}
