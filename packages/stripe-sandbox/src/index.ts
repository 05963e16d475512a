import fp from 'fastify-plugin';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import { billingRoutes } from './api/billing.js';
import { discountRoutes } from './api/discounts.js';
import { checkoutRoutes } from './api/checkout.js';
import { connectRoutes } from './api/connect.js';
import { customerAndPriceRoutes } from './api/customers-and-prices.js';
import { paymentRoutes } from './api/payments.js';
import { billingPortalRoutes } from './api/billing-portal.js';
import { createRouter } from './api/router.js';
import { StripeError } from './errors.js';
import { parseForm } from './form.js';
import { migrateSandbox } from './migrate.js';
import { sandboxPages } from './pages/routes.js';
import { Sandbox } from './sandbox.js';
import type { SandboxDb } from './store.js';

export interface StripeSandboxOptions {
  /**
   * A drizzle PostgreSQL database (node-postgres, PGlite, ...). The plugin keeps its state
   * in its own schema, `stripe_sandbox`, which it creates and migrates when registered.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any drizzle driver and schema
  database: PgDatabase<any, any, any>;
  /** The secret key the SDK must send (e.g. 'sk_test_sandbox'); other keys get a 401. */
  secretKey: string;
  /** Signing secret (whsec_...) of platform events. */
  webhookSecret: string;
  /** Signing secret of Connect events (those with `account`); default: webhookSecret. */
  connectWebhookSecret?: string;
  /**
   * Where events are POSTed, signed as Stripe signs them: an absolute URL, or a path on
   * this same server (e.g. '/api/stripe/webhook', reached once it listens). Changeable at
   * run time through `app.stripeSandbox.webhookUrl`. Default null: events are stored, not sent.
   */
  webhookUrl?: string | null;
  /**
   * The address people open in a browser (checkout form, receipts, onboarding, dashboard
   * links); default: this server as seen from itself once it listens.
   */
  publicUrl?: string;
  /** Default: the Fastify instance's logger. */
  logger?: FastifyBaseLogger;
}

/** What the host app and its tests may use: `app.stripeSandbox`. */
export interface StripeSandboxControls {
  /** Webhook target (absolute URL or a path on this server); null: events are not sent. */
  webhookUrl: string | null;
  /**
   * Requests answered with a 500 api_error, as "METHOD /v1/path" (a simulated provider
   * outage, e.g. 'POST /v1/refunds').
   */
  readonly failRequests: Set<string>;
  /**
   * Resolves true once every event created by this process has been delivered, false
   * after `timeoutMs` (default 10 s): tests wait for it instead of racing deliveries.
   */
  settle(timeoutMs?: number): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The Stripe sandbox's controls (only where the plugin is registered). */
    stripeSandbox?: StripeSandboxControls;
  }
}

/**
 * A Stripe-compatible server for development and tests: Stripe's HTTP API subset under
 * /v1 (for the official SDK pointed at this server) and its pages under /sandbox. See
 * ../README.md.
 *
 *   schema.ts     its tables (schema stripe_sandbox); migrate.ts applies ../migrations
 *   store.ts      objects in stripe_sandbox.object (Stripe JSON shapes), events
 *   shapes.ts     object builders typed by the SDK's .d.ts
 *   api/*.ts      /v1 resources; router.ts: auth, idempotency, expand, transactions
 *   checkout.ts   completing a session from the form; billing.ts charges, invoices,
 *                 dunning; clock.ts test clocks; cards.ts test cards
 *   delivery.ts   signed webhook deliveries with retries (stripe_sandbox.delivery)
 *   pages/        checkout form, receipts, Connect onboarding and dashboard, dev dashboard
 */
export const stripeSandbox = fp<StripeSandboxOptions>(
  async function stripeSandbox(app: FastifyInstance, opts: StripeSandboxOptions) {
    if (!opts.database) throw new Error('stripe-sandbox: the `database` option is required');
    if (!opts.secretKey) throw new Error('stripe-sandbox: the `secretKey` option is required');
    if (!opts.webhookSecret) throw new Error('stripe-sandbox: the `webhookSecret` option is required');
    const db = opts.database as unknown as SandboxDb;
    await migrateSandbox(db);
    const sandbox = new Sandbox(app, {
      db,
      secretKey: opts.secretKey,
      webhookSecret: opts.webhookSecret,
      connectWebhookSecret: opts.connectWebhookSecret ?? opts.webhookSecret,
      webhookUrl: opts.webhookUrl ?? null,
      publicUrl: opts.publicUrl ?? null,
      log: opts.logger ?? app.log,
    });
    app.decorate('stripeSandbox', sandbox as StripeSandboxControls);

    await app.register(async (scope) => {
      // Stripe's form bodies (bracket notation), only inside the sandbox's routes.
      if (scope.hasContentTypeParser('application/x-www-form-urlencoded'))
        scope.removeContentTypeParser('application/x-www-form-urlencoded');
      scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_req, body, done) => {
        done(null, parseForm(typeof body === 'string' ? body : body.toString('utf8')));
      });

      await scope.register(
        async (v1) => {
          v1.addHook('onRequest', async (request, reply) => {
            reply.header('request-id', `req_${Math.random().toString(36).slice(2, 16)}`);
            reply.header('stripe-version', '2026-10-28.endive');
            const auth = request.headers.authorization ?? '';
            const key = auth.startsWith('Bearer ')
              ? auth.slice(7).trim()
              : auth.startsWith('Basic ')
                ? Buffer.from(auth.slice(6), 'base64').toString().split(':')[0]
                : '';
            if (!key) {
              throw new StripeError(401, {
                type: 'invalid_request_error',
                message:
                  "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
              });
            }
            if (key !== sandbox.secretKey) {
              throw new StripeError(401, {
                type: 'invalid_request_error',
                code: 'api_key_invalid',
                message: `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(key.length - 12, 4))}${key.slice(-4)}`,
              });
            }
            if (sandbox.failRequests.has(`${request.method} ${request.url.split('?')[0]}`)) {
              throw new StripeError(500, {
                type: 'api_error',
                message: 'The payments sandbox was told to fail this request (a simulated outage).',
              });
            }
          });
          v1.setErrorHandler((err: Error, request, reply) => {
            if (err instanceof StripeError) return reply.status(err.status).send(err.toJSON());
            const status = (err as { statusCode?: number }).statusCode;
            if (status && status >= 400 && status < 500) {
              return reply.status(status).send({ error: { type: 'invalid_request_error', message: err.message } });
            }
            request.log.error({ err }, 'payments sandbox: internal error');
            return reply.status(500).send({ error: { type: 'api_error', message: 'An unknown error occurred in the payments sandbox.' } });
          });
          v1.setNotFoundHandler((request, reply) => {
            reply.status(404).send({
              error: {
                type: 'invalid_request_error',
                message: `Unrecognized request URL (${request.method}: ${request.url.split('?')[0]}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
              },
            });
          });
          const router = createRouter(v1, sandbox);
          customerAndPriceRoutes(router);
          checkoutRoutes(router);
          discountRoutes(router);
          paymentRoutes(router);
          billingRoutes(router);
          billingPortalRoutes(router);
          connectRoutes(router);
        },
        { prefix: '/v1' },
      );

      await sandboxPages(scope, sandbox);
    });

    app.addHook('onReady', async () => sandbox.delivery.start());
    app.addHook('onListen', async () => sandbox.delivery.kick());
    app.addHook('onClose', async () => sandbox.delivery.stop());
    // This server is its own provider: the SDK and the webhook deliveries hold keep-alive
    // connections to it. One that finishes its request after close() began would keep the
    // server open for the whole keep-alive timeout, so idle connections are closed until
    // the server is closed.
    app.addHook('preClose', (done) => {
      if (!app.server.listening) return done();
      const timer = setInterval(() => app.server.closeIdleConnections?.(), 100);
      timer.unref();
      app.server.once('close', () => clearInterval(timer));
      done();
    });
  },
  { name: 'stripe-sandbox', fastify: '5.x' },
);
