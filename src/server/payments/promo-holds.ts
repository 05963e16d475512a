import { and, eq, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { promoRedemption, purchase } from '../db/schema/payments.js';
import { fulfilCheckout } from './fulfilment.js';
import { describe } from './provider-calls.js';
import { CODE_CHECKOUT_LIFETIME_SECONDS } from './promo-codes.js';

export const PROMO_HOLDS_JOB = 'payments.promo-holds';

/**
 * Uses held by checkouts past their lifetime (abandoned): each checkout is re-read from the
 * provider through fulfilment, which releases the use of an expired one (and fulfils one paid
 * meanwhile). A lost or late `checkout.session.expired` never keeps a use held. Answers how many were looked at.
 */
export async function releaseLapsedHolds(app: AppServices, limit = 50): Promise<number> {
  const lapsed = await app.database.db
    .select({ checkoutSessionId: purchase.checkoutSessionId })
    .from(promoRedemption)
    .innerJoin(purchase, eq(purchase.id, promoRedemption.purchaseId))
    .where(
      and(
        eq(promoRedemption.status, 'reserved'),
        eq(purchase.status, 'open'),
        sql`${purchase.checkoutSessionId} is not null`,
        sql`${promoRedemption.createdAt} < now() - make_interval(secs => ${CODE_CHECKOUT_LIFETIME_SECONDS + 60})`,
      ),
    )
    .limit(limit);
  for (const { checkoutSessionId } of lapsed) {
    await fulfilCheckout(app, checkoutSessionId!).catch((err) =>
      app.log.warn({ err: describe(err), checkoutSessionId }, 'payments: could not re-read a checkout holding a promo code'),
    );
  }
  return lapsed.length;
}

/** Every few minutes, once across processes. */
export function schedulePromoHoldRelease(app: AppServices, intervalMs: number): void {
  app.jobs.every(PROMO_HOLDS_JOB, intervalMs, async () => {
    try {
      app.stripe(); // sandbox mode: throws until the server listens
    } catch {
      return;
    }
    await releaseLapsedHolds(app);
  });
}
