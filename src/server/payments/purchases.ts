import { and, count, eq, inArray, isNotNull } from 'drizzle-orm';
import { platformFee } from '../../shared/payments.js';
import { payment, purchase } from '../db/schema/payments.js';
import type { Conn, Tx } from '../db/transaction.js';
import type { PaidFacts } from './provider-facts.js';

export type Purchase = typeof purchase.$inferSelect;

/** Records money received once (unique per charge / invoice); answers whether it was new and its sequence. */
export async function recordPayment(tx: Tx, p: Purchase, facts: PaidFacts): Promise<{ inserted: boolean; sequence: number }> {
  const [{ n }] = await tx.select({ n: count() }).from(payment).where(eq(payment.purchaseId, p.id));
  const fee = facts.feeCents ?? (p.kind === 'plan' ? facts.amountCents : platformFee(facts.amountCents, p.feePercent));
  const rows = await tx
    .insert(payment)
    .values({
      purchaseId: p.id,
      userId: p.userId,
      educatorId: p.educatorId,
      chargeId: facts.chargeId,
      paymentIntentId: facts.paymentIntentId,
      invoiceId: facts.invoiceId,
      sequence: n + 1,
      amountCents: facts.amountCents,
      feeCents: fee,
      currency: facts.currency,
      receiptUrl: facts.receiptUrl,
      paidAt: facts.paidAt,
    })
    .onConflictDoNothing()
    .returning({ sequence: payment.sequence });
  return { inserted: rows.length > 0, sequence: rows[0]?.sequence ?? n };
}

export async function purchaseFor(
  tx: Conn,
  ids: { purchaseId?: string | null; checkoutSessionId?: string | null; subscriptionId?: string | null },
): Promise<Purchase | null> {
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

export async function lockPurchase(tx: Tx, id: string): Promise<Purchase> {
  const [p] = await tx.select().from(purchase).where(eq(purchase.id, id)).for('update');
  return p;
}

/**
 * The user's running subscription, if any (an installment plan or a platform plan still
 * being paid): its kind. An account is not deleted while one runs (admin/account-deletion.ts).
 */
export async function runningSubscriptionOf(conn: Conn, userId: string): Promise<'course_installments' | 'plan' | null> {
  const [row] = await conn
    .select({ kind: purchase.kind })
    .from(purchase)
    .where(
      and(
        eq(purchase.userId, userId),
        inArray(purchase.kind, ['course_installments', 'plan']),
        inArray(purchase.status, ['fulfilled', 'past_due']),
        isNotNull(purchase.subscriptionId),
      ),
    )
    .limit(1);
  return row ? (row.kind as 'course_installments' | 'plan') : null;
}
