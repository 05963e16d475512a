import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { errorBody } from '../../shared/errors.js';
import { PAYMENT_MESSAGES, planById } from '../../shared/payments.js';
import {
  accountLinkInput, checkoutResult, checkoutSummary, courseCheckoutInput, courseSubscriptionInput, createAccountInput, createAccountResult,
  createCustomerInput, createCustomerResult, createProductInput, createProductResult, educatorPayouts, linkResult, paymentHistory,
  paymentsConfigResult, planCheckoutInput, verifySessionQuery, verifySessionResult, type VerifySessionResult,
} from '../../shared/payments-schemas.js';
import { ownedCourse } from '../courses/access.js';
import { requireEducator } from '../educators/require-educator.js';
import { course, courseSession, enrolment } from '../db/schema/courses.js';
import { purchase } from '../db/schema/payments.js';
import { AppError } from '../http/errors.js';
import { CHECKOUT_FAILURE, provider, shortHash } from './common.js';
import { checkoutSummaryFor, createCourseCheckout, createPlanCheckout, ensureCourseProduct } from './checkout-service.js';
import { createAccountLink, createConnectAccount, createLoginLink } from './connect-service.js';
import { ensureCustomer } from './customers.js';
import { fulfilCheckout } from './fulfilment.js';
import { educatorPayoutsFor, paymentHistoryFor } from './history.js';
import { startRefundRetries } from './refund-due.js';
import { webhookRoutes } from './webhook.js';

/** The client's Idempotency-Key header (a retried checkout call answers the same session). */
function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string') return undefined;
  const trimmed = key.trim();
  if (!trimmed) return undefined;
  if (trimmed.length > 255 || !/^[\w.:-]+$/.test(trimmed)) {
    throw new AppError(400, 'bad_idempotency_key', 'The Idempotency-Key header must be 1-255 letters, digits, dots, colons, dashes or underscores');
  }
  return trimmed;
}

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 500: errorBody };

/** An Idempotency-Key header the client sent (the web client sends one on payment calls). */
function clientKey(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key'];
  return typeof key === 'string' && /^[\w-]{8,100}$/.test(key) ? key : undefined;
}

export interface PaymentRoutesOptions {
  /** How often the refund retry timer looks for refunds owed (refund_due); default 15 s, 0 = off. */
  refundRetryMs?: number;
}

/** /api/stripe/* (spec section 7), the webhook, payment history and payout status. */
export async function paymentRoutes(app: FastifyInstance, opts: PaymentRoutesOptions = {}) {
  await app.register(webhookRoutes);
  // Refunds the provider failed (after a drop or a cancelled session) are retried until done.
  const retryMs = opts.refundRetryMs ?? 15_000;
  if (retryMs > 0) {
    let stop: (() => Promise<void>) | null = null;
    app.addHook('onReady', async () => {
      stop = startRefundRetries(app, retryMs);
    });
    app.addHook('onClose', async () => {
      await stop?.();
    });
  }
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;
  const tags = ['payments'];

  r.post('/api/stripe/create-stripe-customer', {
    schema: { tags, summary: "Your payment customer (created once; the email must be yours)", body: createCustomerInput, response: { 200: createCustomerResult, ...errors } },
  }, async (request) => {
    const viewer = await app.requireViewer(request);
    if (request.body.email.toLowerCase() !== viewer.user.email.toLowerCase()) throw new AppError(403, 'not_your_email', 'You can only create a payment customer for your own email');
    return [{ id: await ensureCustomer(app, viewer.user, request.body.name) }];
  });

  r.post('/api/stripe/create-product', {
    schema: { tags, summary: 'The provider product of your course (educators)', body: createProductInput, response: { 200: createProductResult, ...errors } },
  }, async (request) => {
    const viewer = await app.requireViewer(request);
    requireEducator(viewer);
    const failure = { code: 'product_error', message: 'Error creating product' };
    if (request.body.course) {
      const c = await ownedCourse(db, request.body.course, viewer);
      const id = await provider(app.log, failure, 'products.create', () => ensureCourseProduct(app, c, request.body.name));
      return { id, name: request.body.name };
    }
    const product = await provider(app.log, failure, 'products.create', () =>
      app.stripe().products.create({ name: request.body.name, metadata: { educator_id: viewer.user.id } }, { idempotencyKey: `product-${viewer.user.id}-${shortHash(request.body.name)}` }));
    return { id: product.id, name: product.name };
  });

  r.post('/api/stripe/course-embedded-checkout', {
    schema: { tags, summary: 'Embedded checkout for one payment of a course session', body: courseCheckoutInput, response: { 200: checkoutResult, ...errors } },
  }, async (request) => createCourseCheckout(app, await app.requireViewer(request), request.body, idempotencyKeyOf(request)));

  r.post('/api/stripe/course-embedded-subscription', {
    schema: { tags, summary: 'Embedded checkout for N monthly installments of a course session', body: courseSubscriptionInput, response: { 200: checkoutResult, ...errors } },
  }, async (request) => createCourseCheckout(app, await app.requireViewer(request), request.body, idempotencyKeyOf(request)));

  r.post('/api/stripe/create-embedded-checkout-session', {
    schema: { tags, summary: 'Embedded checkout for a platform plan (educators)', body: planCheckoutInput, response: { 200: checkoutResult, ...errors } },
  }, async (request) => createPlanCheckout(app, await app.requireViewer(request), request.body, idempotencyKeyOf(request)));

  r.get('/api/stripe/verify-session', {
    schema: { tags, summary: 'The state of your checkout (fulfils it when paid)', querystring: verifySessionQuery, response: { 200: verifySessionResult, ...errors } },
  }, async (request, reply) => {
    const viewer = await app.requireViewer(request);
    reply.header('cache-control', 'no-store');
    const sessionId = request.query.session_id;
    if (!sessionId) throw new AppError(400, 'session_missing', PAYMENT_MESSAGES.sessionMissing);
    const [mine] = await db.select({ id: purchase.id, userId: purchase.userId }).from(purchase).where(eq(purchase.checkoutSessionId, sessionId)).limit(1);
    if (!mine) throw new AppError(404, 'session_missing', PAYMENT_MESSAGES.sessionMissing);
    if (mine.userId !== viewer.user.id) throw AppError.forbidden('This checkout is not yours');
    const outcome = await provider(app.log, CHECKOUT_FAILURE, 'verify-session', () => fulfilCheckout(app, sessionId));
    return verifyAnswer(app, mine.id, outcome.session);
  });

  r.get('/api/stripe/config', {
    schema: { tags, summary: 'What the checkout page needs (mode, publishable key, your customer)', response: { 200: paymentsConfigResult, ...errors } },
  }, async (request) => {
    const viewer = await app.requireViewer(request);
    let customer: string | null = viewer.user.stripeCustomerId;
    try {
      customer = await ensureCustomer(app, viewer.user);
    } catch {
      // Shown as null; the checkout call creates it on demand (or says "Error creating stripe customer").
    }
    return { mode: app.config.payments.mode, publishableKey: app.config.payments.publishableKey, customer };
  });

  r.get('/api/course/:courseID/checkout', {
    schema: {
      tags, summary: 'The order summary of /course/checkout',
      params: z.object({ courseID: z.uuid('Unknown course') }), querystring: z.object({ session: z.uuid('Unknown session').optional() }),
      response: { 200: checkoutSummary, ...errors },
    },
  }, async (request) => checkoutSummaryFor(app, await app.requireViewer(request), request.params.courseID, request.query.session));

  r.post('/api/stripe/create-stripe-account', {
    schema: { tags, summary: 'Your payout (Connect Express) account; onboarding step 2', body: createAccountInput, response: { 200: createAccountResult, ...errors } },
  }, async (request) => createConnectAccount(app, await app.requireViewer(request), request.body));

  r.post('/api/stripe/create-educator-account-link', {
    schema: { tags, summary: 'A link to onboarding at the provider', body: accountLinkInput, response: { 200: linkResult, ...errors } },
  }, async (request) => createAccountLink(app, await app.requireViewer(request), request.body.stripe_connect_account_id, clientKey(request)));

  r.post('/api/stripe/create-stripe-login-link', {
    schema: { tags, summary: 'A link to your payouts dashboard', body: accountLinkInput, response: { 200: linkResult, ...errors } },
  }, async (request) => createLoginLink(app, await app.requireViewer(request), request.body.stripe_connect_account_id, clientKey(request)));

  r.get('/api/educator/payouts', {
    schema: { tags, summary: 'Your payout status and sales (refresh=1 re-reads the account)', querystring: z.object({ refresh: z.enum(['0', '1', 'true', 'false']).optional() }), response: { 200: educatorPayouts, ...errors } },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const refresh = request.query.refresh === '1' || request.query.refresh === 'true';
    return educatorPayoutsFor(app, await app.requireViewer(request), refresh);
  });

  r.get('/api/payments', {
    schema: { tags, summary: 'Your payments and receipts', response: { 200: paymentHistory, ...errors } },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return paymentHistoryFor(app, await app.requireViewer(request));
  });
}

async function verifyAnswer(app: FastifyInstance, purchaseId: string, session: { status: string | null; payment_status: string }): Promise<VerifySessionResult> {
  const db = app.database.db;
  const [p] = await db.select().from(purchase).where(eq(purchase.id, purchaseId)).limit(1);
  const [c] = p.courseId ? await db.select({ id: course.id, title: course.title }).from(course).where(eq(course.id, p.courseId)).limit(1) : [];
  const [s] = p.sessionId ? await db.select({ id: courseSession.id, startsOn: courseSession.startsOn, endsOn: courseSession.endsOn }).from(courseSession).where(eq(courseSession.id, p.sessionId)).limit(1) : [];
  const [e] = p.enrolmentId ? await db.select({ id: enrolment.id, status: enrolment.status }).from(enrolment).where(eq(enrolment.id, p.enrolmentId)).limit(1) : [];
  const plan = p.planId ? planById(p.planId) : null;
  const status = (['open', 'complete', 'expired'] as const).find((x) => x === session.status) ?? 'open';
  const paymentStatus = (['paid', 'unpaid', 'no_payment_required'] as const).find((x) => x === session.payment_status) ?? 'unpaid';
  return {
    status,
    paymentStatus,
    kind: p.kind as VerifySessionResult['kind'],
    purchase: {
      id: p.id, status: p.status as VerifySessionResult['purchase']['status'], amountCents: p.amountCents, currency: p.currency,
      installments: p.installments, installmentCents: p.installmentCents, failureReason: p.failureReason,
    },
    course: c ?? null,
    session: s ?? null,
    enrolment: e ?? null,
    plan: plan ? { id: plan.id, name: plan.name } : null,
  };
}
