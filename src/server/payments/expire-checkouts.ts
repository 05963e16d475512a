import { and, eq, isNotNull } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { purchase } from '../db/schema/payments.js';
import { describe } from './provider-calls.js';

/**
 * Expires at the provider every checkout a learner still has open for a course session (an
 * offered seat that lapsed or was declined): the page they left open can no longer take a
 * payment. The provider's `checkout.session.expired` event then marks the purchase expired,
 * as for any abandoned checkout. A failure is logged, not retried: a payment on a checkout
 * that could not be expired is refunded on arrival, since the seat is no longer held (ADR 0067).
 */
export async function expireOpenCheckouts(app: AppServices, e: { courseSessionId: string; learnerId: string }) {
  const open = await app.database.db
    .select({ id: purchase.id, checkoutSessionId: purchase.checkoutSessionId })
    .from(purchase)
    .where(
      and(
        eq(purchase.userId, e.learnerId),
        eq(purchase.courseSessionId, e.courseSessionId),
        eq(purchase.status, 'open'),
        isNotNull(purchase.checkoutSessionId),
      ),
    );
  for (const p of open) {
    try {
      const cs = await app.stripe().checkout.sessions.retrieve(p.checkoutSessionId!);
      if (cs.status === 'open') await app.stripe().checkout.sessions.expire(cs.id);
    } catch (err) {
      app.log.warn({ err: describe(err), purchase: p.id }, 'payments: the checkout of an ended offer could not be expired');
    }
  }
}
