import { and, desc, inArray, sql } from 'drizzle-orm';
import type { RosterPayment } from '../../shared/courses-schemas.js';
import { payment, purchase } from '../db/schema/payments.js';
import type { Tx } from '../db/transaction.js';

/**
 * How each enrolment of a roster was paid (the roster's payment column and its CSV),
 * from the enrolment's latest course purchase and its payments: refunded (any money given
 * back after the seat ended), past due, installments k of N, paid. No purchase: free.
 */
export async function rosterPayments(tx: Tx, enrolmentIds: string[]): Promise<Record<string, RosterPayment>> {
  if (enrolmentIds.length === 0) return {};
  const rows = await tx
    .select({
      enrolmentId: purchase.enrolmentId,
      status: purchase.status,
      kind: purchase.kind,
      installments: purchase.installments,
      paidCount: sql<number>`(select count(*)::int from ${payment} p2 where p2.purchase_id = purchase.id)`,
      paidCents: sql<number>`(select coalesce(sum(p2.amount_cents), 0)::int from ${payment} p2 where p2.purchase_id = purchase.id)`,
      refundedCents: sql<number>`(select coalesce(sum(p2.refunded_cents), 0)::int from ${payment} p2 where p2.purchase_id = purchase.id)`,
    })
    .from(purchase)
    .where(and(inArray(purchase.enrolmentId, enrolmentIds), inArray(purchase.kind, ['course_payment', 'course_installments'])))
    .orderBy(desc(purchase.createdAt));
  const out: Record<string, RosterPayment> = {};
  for (const r of rows) {
    if (!r.enrolmentId || out[r.enrolmentId]) continue; // the latest purchase of each enrolment
    out[r.enrolmentId] = describe(r);
  }
  return out;
}

function describe(r: {
  status: string;
  kind: string;
  installments: number | null;
  paidCount: number;
  paidCents: number;
  refundedCents: number;
}): RosterPayment {
  const n = r.kind === 'course_installments' ? r.installments : null;
  const k = Number(r.paidCount);
  const base = { paidInstallments: n ? k : null, installments: n };
  const refunded = Number(r.refundedCents);
  if (refunded > 0) return { ...base, status: 'refunded', label: refunded >= Number(r.paidCents) ? 'Refunded' : 'Partly refunded' };
  if (r.status === 'past_due') return { ...base, status: 'past_due', label: n ? `Past due (${k} of ${n} paid)` : 'Past due' };
  if (n && k < n && r.status !== 'completed') return { ...base, status: 'installments', label: `Installments ${k} of ${n}` };
  return { ...base, status: 'paid', label: 'Paid' };
}
