import { and, eq, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { purchase, purchaseSeat } from '../db/schema/payments.js';
import type { Conn } from '../db/transaction.js';
import { installmentSchedule } from '../../shared/payments.js';

/** A family installment plan lowered at the provider when one of its learners is dropped (ADR 0074). */

/**
 * The monthly amount of a family installment plan now: the later parts of the seats still
 * held, plus what the plan's own coupon takes off each invoice (ADR 0070: the subscription's
 * price is the list total's later amount, a coupon brings it to the discounted one).
 */
export async function monthlyUnitNow(conn: Conn, purchaseId: string): Promise<{ unit: number; currency: string } | null> {
  const [p] = await conn.select().from(purchase).where(eq(purchase.id, purchaseId)).limit(1);
  if (!p || !p.installments || !p.installmentCents) return null;
  const [{ held }] = await conn
    .select({ held: sql<number>`coalesce(sum(${purchaseSeat.laterCents}), 0)::int` })
    .from(purchaseSeat)
    .where(and(eq(purchaseSeat.purchaseId, purchaseId), eq(purchaseSeat.status, 'seated')));
  const listEach = installmentSchedule(p.amountCents + p.discountCents, p.installments).at(-1)!;
  const couponOff = p.discountCents > 0 ? listEach - p.installmentCents : 0;
  return { unit: held + couponOff, currency: p.currency };
}

/**
 * Lowers a family installment plan at the provider to the seats still held: the subscription's
 * item gets the new monthly price with `proration_behavior: none` (billed from the next
 * invoice; what was paid stays paid, the dropped seat's part of it is refunded apart). Computed
 * from our records each time, so running it again (a retry) or after a second drop sets the same figure.
 */
export async function resizeSubscription(app: AppServices, purchaseId: string, subscriptionId: string) {
  const now = await monthlyUnitNow(app.database.db, purchaseId);
  if (!now) return;
  const stripe = app.stripe();
  const sub = await stripe.subscriptions.retrieve(subscriptionId);
  if (sub.status === 'canceled' || sub.status === 'incomplete_expired') return;
  const item = sub.items.data[0];
  if (item.price.unit_amount === now.unit) return;
  const product = typeof item.price.product === 'string' ? item.price.product : item.price.product.id;
  await stripe.subscriptions.update(subscriptionId, {
    items: [
      {
        id: item.id,
        price_data: { currency: now.currency, product, unit_amount: now.unit, recurring: { interval: 'month', interval_count: 1 } },
      },
    ],
    proration_behavior: 'none',
  });
}
