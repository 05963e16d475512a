import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { stripeEvent } from '../db/schema/payments.js';
import { describe } from './provider-calls.js';
import { fulfilCheckout } from './fulfilment.js';
import { handleInvoiceFailed, handleInvoicePaid, handleSubscriptionDeleted } from './installments.js';
import { refreshPayoutAccount } from './payout-accounts.js';
import { handleChargeRefunded } from './provider-refunds.js';

/**
 * POST /api/stripe/webhook. Its own plugin scope: the body is kept raw (a Buffer) for the
 * signature, checked against the platform secret, then the Connect one. A bad or missing
 * signature: 400, nothing changes. Each event id is stored once; an event already
 * processed answers 200 and does nothing. The event is only a trigger: every handler
 * re-reads the object from the provider. A processing error answers 500 so the provider
 * (or the sandbox) delivers again; processed_at is set only on success.
 */
export async function webhookRoutes(app: FastifyInstance) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));

  app.post('/api/stripe/webhook', { schema: { hide: true } as Record<string, unknown> }, async (request, reply) => {
    const signature = request.headers['stripe-signature'];
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.from(typeof request.body === 'string' ? request.body : '');
    const event = verify(app, raw, typeof signature === 'string' ? signature : '');
    if (!event) {
      app.observe.webhookProcessed('unknown', 'rejected');
      return reply.status(400).send({ error: { code: 'bad_signature', message: 'Webhook signature verification failed' } });
    }

    const db = app.database.db;
    await db
      .insert(stripeEvent)
      .values({ id: event.id, type: event.type, account: event.account ?? null })
      .onConflictDoNothing();
    const [stored] = await db.select().from(stripeEvent).where(eq(stripeEvent.id, event.id)).limit(1);
    if (stored?.processedAt) {
      app.observe.webhookProcessed(event.type, 'duplicate');
      return { received: true, duplicate: true };
    }

    try {
      await handle(app, event);
    } catch (err) {
      request.log.error({ err: describe(err), event: event.id, type: event.type }, 'payments: webhook processing failed (will be retried)');
      app.observe.webhookProcessed(event.type, 'failed');
      await db
        .update(stripeEvent)
        .set({ error: err instanceof Error ? err.message.slice(0, 500) : 'failed' })
        .where(eq(stripeEvent.id, event.id));
      return reply
        .status(500)
        .send({ error: { code: 'processing_failed', message: 'The event could not be processed; deliver it again' } });
    }
    await db
      .update(stripeEvent)
      .set({ processedAt: sql`now()`, error: null })
      .where(eq(stripeEvent.id, event.id));
    app.observe.webhookProcessed(event.type, 'processed');
    return { received: true };
  });
}

function verify(app: FastifyInstance, raw: Buffer, signature: string): Stripe.Event | null {
  if (!signature || !raw.length) return null;
  const { webhookSecret, connectWebhookSecret } = app.config.payments;
  for (const secret of [...new Set([webhookSecret, connectWebhookSecret])]) {
    try {
      return Stripe.webhooks.constructEvent(raw, signature, secret);
    } catch {
      // try the next secret
    }
  }
  return null;
}

async function handle(app: FastifyInstance, event: Stripe.Event) {
  const object = event.data.object as unknown as { id: string; metadata?: Record<string, string> | null };
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.expired':
      await fulfilCheckout(app, object.id);
      return;
    case 'invoice.paid':
    case 'invoice.payment_succeeded':
      await handleInvoicePaid(app, object.id);
      return;
    case 'invoice.payment_failed':
      await handleInvoiceFailed(app, object.id);
      return;
    case 'customer.subscription.deleted':
      await handleSubscriptionDeleted(app, object.id, object.metadata ?? null);
      return;
    case 'account.updated':
      await refreshPayoutAccount(app, event.account ?? object.id);
      return;
    case 'charge.refunded':
      await handleChargeRefunded(app, object.id);
      return;
    default:
    // Not one of ours: stored (so it is answered once) and ignored.
  }
}
