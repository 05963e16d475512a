import { and, eq, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import type Stripe from 'stripe';
import type { CheckoutResult } from '../../shared/payments-schemas.js';
import { payoutAccount, purchase } from '../db/schema/payments.js';
import type { Tx } from '../db/transaction.js';
import { AppError } from '../http/errors.js';
import { CHECKOUT_FAILURE, provider } from './provider-calls.js';
import { feePercentOf, type FeeKind } from './fees.js';
import { releaseUse } from './promo-codes.js';

/**
 * What every checkout shares: the fee, the return URL, the answer the web embeds, and the
 * purchase row opened before the provider's checkout session (course-checkout.ts, plan-checkout.ts).
 */

/** The platform's fee percent on a sale of `kind` by an educator (the fee rule with their plan). */
export async function feePercentFor(app: AppServices, educatorId: string, kind: FeeKind): Promise<number> {
  const [acct] = await app.database.db
    .select({ plan: payoutAccount.plan })
    .from(payoutAccount)
    .where(eq(payoutAccount.userId, educatorId))
    .limit(1);
  return feePercentOf(app, acct?.plan, kind);
}

/** The purchase an earlier call with this client Idempotency-Key opened, if any. */
export async function purchaseByClientKey(app: AppServices, userId: string, clientKey: string) {
  const [row] = await app.database.db
    .select({ id: purchase.id, promoCodeId: purchase.promoCodeId })
    .from(purchase)
    .where(and(eq(purchase.userId, userId), eq(purchase.idempotencyKey, clientKey)))
    .limit(1);
  return row ?? null;
}

export function returnUrl(app: AppServices, path: string) {
  return `${app.config.publicUrl}${path}${path.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`;
}

function checkoutAnswer(app: AppServices, checkout: Stripe.Checkout.Session): CheckoutResult {
  const clientSecret = checkout.client_secret ?? '';
  return {
    clientSecret,
    sessionId: checkout.id,
    // The sandbox's form is the session's url (real Stripe: null, Stripe.js opens its form from
    // the secret), served by this server: framed by path, same origin on any host name.
    sandboxUrl: app.config.payments.mode === 'sandbox' && checkout.url ? sameOriginPath(checkout.url) : null,
  };
}

function sameOriginPath(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

/**
 * The purchase row first (its id is in the provider's metadata and is the idempotency
 * key), then the provider's checkout session. A provider failure: the purchase expires and
 * the caller gets 500 "Checkout session error" (the provider's text is only logged).
 *
 * End-to-end idempotency: a call carrying the client's Idempotency-Key that was seen
 * before (same user) reuses that purchase, and the provider's own idempotency key
 * (`checkout-<purchase id>`) then answers the same checkout session, so a retried request
 * (a lost answer, a double click) never opens a second purchase or session.
 */
export async function openCheckout(
  app: AppServices,
  values: typeof purchase.$inferInsert,
  clientKey: string | undefined,
  build: (purchaseId: string) => Promise<Stripe.Checkout.SessionCreateParams>,
  /** Runs in the transaction that creates the purchase (a promo code's use is reserved there); throwing undoes both. */
  reserve?: (tx: Tx, purchaseId: string) => Promise<void>,
): Promise<CheckoutResult> {
  const db = app.database.db;
  let purchaseId: string;
  if (clientKey) {
    const created = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(purchase)
        .values({ ...values, idempotencyKey: clientKey })
        .onConflictDoNothing({ target: [purchase.userId, purchase.idempotencyKey] })
        .returning({ id: purchase.id });
      if (row && reserve) await reserve(tx, row.id);
      return row;
    });
    if (created) {
      purchaseId = created.id;
    } else {
      const [seen] = await db
        .select()
        .from(purchase)
        .where(and(eq(purchase.userId, values.userId), eq(purchase.idempotencyKey, clientKey)))
        .limit(1);
      // The same checkout, with the same terms: a price or fee that changed since the first
      // call would send the provider other parameters under the same key (its error: a 500).
      const same = (
        [
          'kind',
          'courseId',
          'courseSessionId',
          'planId',
          'amountCents',
          'currency',
          'installments',
          'feePercent',
          'promoCodeId',
          'discountCents',
        ] as const
      ).every((field) => seen[field] === (values[field] ?? (field === 'discountCents' ? 0 : null)));
      if (!same) {
        throw new AppError(
          409,
          'idempotency_key_reused',
          'This request key was already used for another checkout: reload the page and try again',
        );
      }
      purchaseId = seen.id;
    }
  } else {
    purchaseId = await db.transaction(async (tx) => {
      const [row] = await tx.insert(purchase).values(values).returning({ id: purchase.id });
      if (reserve) await reserve(tx, row.id);
      return row.id;
    });
  }
  try {
    const session = await provider(app.log, CHECKOUT_FAILURE, 'checkout.sessions.create', async () =>
      app.stripe().checkout.sessions.create(await build(purchaseId), { idempotencyKey: `checkout-${purchaseId}` }),
    );
    await db
      .update(purchase)
      .set({
        checkoutSessionId: session.id,
        status: sql`case when ${purchase.status} = 'expired' and ${purchase.checkoutSessionId} is null then 'open' else ${purchase.status} end`,
        failureReason: null,
        updatedAt: new Date(),
      })
      .where(eq(purchase.id, purchaseId));
    return checkoutAnswer(app, session);
  } catch (err) {
    await db
      .transaction(async (tx) => {
        const expired = await tx
          .update(purchase)
          .set({ status: 'expired', failureReason: CHECKOUT_FAILURE.message, updatedAt: new Date() })
          .where(and(eq(purchase.id, purchaseId), sql`${purchase.checkoutSessionId} is null`))
          .returning({ id: purchase.id });
        // No checkout was opened: a code's use held for it goes back.
        if (expired.length) await releaseUse(tx, purchaseId);
      })
      .catch(() => {});
    throw err;
  }
}
