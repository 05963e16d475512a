import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { billingRoutes } from './api/billing.js';
import { checkoutRoutes } from './api/checkout.js';
import { connectRoutes } from './api/connect.js';
import { coreRoutes } from './api/core.js';
import { paymentRoutes } from './api/payments.js';
import { createRouter } from './api/router.js';
import { StripeError } from './errors.js';
import { parseForm } from './form.js';
import { sandboxPages } from './pages/routes.js';
import { Sandbox } from './sandbox.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The payments sandbox (sandbox mode only): tests point webhooks elsewhere with it. */
    paymentsSandbox?: Sandbox;
  }
}

/**
 * The payments sandbox: Stripe's HTTP API subset under /v1 and its pages under /sandbox.
 * Registered only when no Stripe keys are configured (never in production). See the
 * README section "Payments sandbox (development tool)" and docs/decisions/0006.
 *
 *   store.ts      objects in sandbox_object (Stripe JSON shapes), events
 *   shapes.ts     object builders typed by the SDK's .d.ts
 *   api/*.ts      /v1 resources; router.ts: auth, idempotency, expand, transactions
 *   checkout.ts   completing a session from the form; billing.ts charges, invoices,
 *                 dunning; clock.ts test clocks; cards.ts test cards
 *   delivery.ts   signed webhook deliveries with retries (sandbox_delivery)
 *   pages/        checkout form, receipts, Connect onboarding and dashboard, dev dashboard
 */
export const paymentsSandbox = fp(
  async function paymentsSandbox(app: FastifyInstance) {
    const sandbox = new Sandbox(app);
    app.decorate('paymentsSandbox', sandbox);

    await app.register(async (scope) => {
      // Stripe's form bodies (bracket notation), only inside the sandbox's routes.
      if (scope.hasContentTypeParser('application/x-www-form-urlencoded')) scope.removeContentTypeParser('application/x-www-form-urlencoded');
      scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_req, body, done) => {
        done(null, parseForm(typeof body === 'string' ? body : body.toString('utf8')));
      });

      await scope.register(
        async (v1) => {
          v1.addHook('onRequest', async (request, reply) => {
            reply.header('request-id', `req_${Math.random().toString(36).slice(2, 16)}`);
            reply.header('stripe-version', '2026-10-28.endive');
            const auth = request.headers.authorization ?? '';
            const key = auth.startsWith('Bearer ') ? auth.slice(7).trim() : auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString().split(':')[0] : '';
            if (!key) {
              throw new StripeError(401, {
                type: 'invalid_request_error',
                message: 'You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. \'Authorization: Bearer YOUR_SECRET_KEY\').',
              });
            }
            if (key !== app.config.payments.secretKey) {
              throw new StripeError(401, { type: 'invalid_request_error', code: 'api_key_invalid', message: `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(key.length - 12, 4))}${key.slice(-4)}` });
            }
            if (sandbox.failRequests.has(`${request.method} ${request.url.split('?')[0]}`)) {
              throw new StripeError(500, { type: 'api_error', message: 'The payments sandbox was told to fail this request (a simulated outage).' });
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
          coreRoutes(router);
          checkoutRoutes(router);
          paymentRoutes(router);
          billingRoutes(router);
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
  { name: 'payments-sandbox' },
);
