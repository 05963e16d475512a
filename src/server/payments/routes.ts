import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../shared/errors.js';
import {
  accountLinkInput,
  checkoutResult,
  cardUpdate,
  checkoutSummary,
  dropRefundPreview as dropRefundPreviewResult,
  myInstallments as myInstallmentsResult,
  courseCheckoutInput,
  courseSubscriptionInput,
  createAccountInput,
  createAccountResult,
  createCustomerInput,
  createCustomerResult,
  createProductInput,
  createProductResult,
  educatorPayouts,
  linkResult,
  paymentHistory,
  paymentsConfigResult,
  planCheckoutInput,
  pricingResult,
  verifySessionQuery,
  verifySessionResult,
} from '../../shared/payments-schemas.js';
import { AppError } from '../http/errors.js';
import { checkoutSummaryFor, createCourseCheckout, promoQuoteFor } from './course-checkout.js';
import { createPlanCheckout } from './plan-checkout.js';
import { createAccountLink, createConnectAccount, createLoginLink } from './connect-service.js';
import { checkoutConfig, createCustomer } from './customers.js';
import { educatorPayoutsFor, paymentHistoryFor } from './history.js';
import { pricingFor } from './fees.js';
import { scheduleRefundRetries } from './refund-due.js';
import { createProduct } from './products.js';
import { verifyCheckout } from './verify-checkout.js';
import { dropRefundPreview } from './drop-refund.js';
import { myInstallments, startCardUpdate } from './my-installments.js';
import { webhookRoutes } from './webhook.js';
import {
  educatorPromoCodeInput,
  educatorPromoCodes,
  promoCodeParams,
  promoCodeView,
  promoQuote,
  promoQuoteInput,
} from '../../shared/promo-codes.js';
import { createEducatorCode, endCode, promoCodeViews } from './promo-codes.js';
import { schedulePromoHoldRelease } from './promo-holds.js';
import { paidCoursesWithSessionsOf } from '../courses/course-records.js';

/**
 * How each use reads the client's Idempotency-Key header. A checkout stores the key with
 * its purchase (a retried call answers the same session), so a malformed one is the
 * client's mistake (400). A provider link only puts it inside the provider's own key
 * (at most 255 characters with the account id before it), so it is shorter, and a
 * malformed one is ignored: the link is made with a fresh key.
 */
const IDEMPOTENCY_KEY = {
  checkout: { valid: /^[\w.:-]{1,255}$/, malformed: 'reject' },
  link: { valid: /^[\w-]{8,100}$/, malformed: 'ignore' },
} as const;

/** The client's Idempotency-Key header as `use` reads it; undefined when absent or blank. */
function idempotencyKeyOf(request: FastifyRequest, use: keyof typeof IDEMPOTENCY_KEY): string | undefined {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string') return undefined;
  const rule = IDEMPOTENCY_KEY[use];
  const trimmed = key.trim();
  if (!trimmed) return undefined;
  if (rule.valid.test(trimmed)) return trimmed;
  if (rule.malformed === 'ignore') return undefined;
  throw new AppError(
    400,
    'bad_idempotency_key',
    'The Idempotency-Key header must be 1-255 letters, digits, dots, colons, dashes or underscores',
  );
}

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 500: errorBody };

export interface PaymentRoutesOptions {
  /** How often the refund retry pass looks for refunds owed (refund_due), once across all processes; default 15 s, 0 = off. */
  refundRetryMs?: number;
}

/** /api/stripe/* (spec section 7), the webhook, payment history and payout status. */
export async function paymentRoutes(app: FastifyInstance, opts: PaymentRoutesOptions = {}) {
  await app.register(webhookRoutes);
  // Refunds the provider failed (after a drop or a cancelled session) are retried until done.
  const retryMs = opts.refundRetryMs ?? 15_000;
  if (retryMs > 0) scheduleRefundRetries(app, retryMs);
  // Promo code uses held by abandoned checkouts go back (ADR 0070).
  if (retryMs > 0) schedulePromoHoldRelease(app, 5 * 60_000);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['payments'];

  r.post(
    '/api/stripe/create-stripe-customer',
    {
      schema: {
        tags,
        summary: 'Your payment customer (created once; the email must be yours)',
        body: createCustomerInput,
        response: { 200: createCustomerResult, ...errors },
      },
    },
    async (request) => {
      return [{ id: await createCustomer(app, await app.requireViewer(request), request.body) }];
    },
  );

  r.post(
    '/api/stripe/create-product',
    {
      schema: {
        tags,
        summary: 'The provider product of your course (educators)',
        body: createProductInput,
        response: { 200: createProductResult, ...errors },
      },
    },
    async (request) => {
      return createProduct(app, await app.requireViewer(request), request.body);
    },
  );

  r.post(
    '/api/stripe/course-embedded-checkout',
    {
      schema: {
        tags,
        summary: 'Embedded checkout for one payment of a course session',
        body: courseCheckoutInput,
        response: { 200: checkoutResult, ...errors },
      },
    },
    async (request) => createCourseCheckout(app, await app.requireViewer(request), request.body, idempotencyKeyOf(request, 'checkout')),
  );

  r.post(
    '/api/stripe/course-embedded-subscription',
    {
      schema: {
        tags,
        summary: 'Embedded checkout for N monthly installments of a course session',
        body: courseSubscriptionInput,
        response: { 200: checkoutResult, ...errors },
      },
    },
    async (request) => createCourseCheckout(app, await app.requireViewer(request), request.body, idempotencyKeyOf(request, 'checkout')),
  );

  r.post(
    '/api/stripe/create-embedded-checkout-session',
    {
      schema: {
        tags,
        summary: 'Embedded checkout for a platform plan (educators)',
        body: planCheckoutInput,
        response: { 200: checkoutResult, ...errors },
      },
    },
    async (request) => createPlanCheckout(app, await app.requireViewer(request), request.body, idempotencyKeyOf(request, 'checkout')),
  );

  r.get(
    '/api/stripe/verify-session',
    {
      schema: {
        tags,
        summary: 'The state of your checkout (fulfils it when paid)',
        querystring: verifySessionQuery,
        response: { 200: verifySessionResult, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return verifyCheckout(app, await app.requireViewer(request), request.query.session_id);
    },
  );

  r.get(
    '/api/pricing',
    {
      schema: {
        tags,
        summary: "The platform's fee on a sale (the configured standard one) and the plans on sale with theirs",
        response: { 200: pricingResult, ...errors },
      },
    },
    async (request) => {
      await app.requireViewer(request);
      return pricingFor(app);
    },
  );

  r.get(
    '/api/stripe/config',
    {
      schema: {
        tags,
        summary: 'What the checkout page needs (mode, publishable key, your customer)',
        response: { 200: paymentsConfigResult, ...errors },
      },
    },
    async (request) => {
      return checkoutConfig(app, await app.requireViewer(request));
    },
  );

  r.get(
    '/api/course/:courseID/checkout',
    {
      schema: {
        tags,
        summary: 'The order summary of /course/checkout',
        params: z.object({ courseID: z.uuid('Unknown course') }),
        querystring: z.object({
          session: z.uuid('Unknown session').optional(),
          /** Whom the seats are for: `me` and learner profile ids, comma-separated (ADR 0074). */
          learners: z
            .string()
            .max(400, 'At most 10 learners')
            .regex(/^(me|[0-9a-f-]{36})(,(me|[0-9a-f-]{36}))*$/i, 'Learners are `me` or learner profile ids, comma-separated')
            .optional(),
        }),
        response: { 200: checkoutSummary, ...errors },
      },
    },
    async (request) =>
      checkoutSummaryFor(
        app,
        await app.requireViewer(request),
        request.params.courseID,
        request.query.session,
        request.query.learners?.split(','),
      ),
  );

  r.post(
    '/api/stripe/create-stripe-account',
    {
      schema: {
        tags,
        summary: 'Your payout (Connect Express) account; onboarding step 2',
        body: createAccountInput,
        response: { 200: createAccountResult, ...errors },
      },
    },
    async (request) => createConnectAccount(app, await app.requireViewer(request), request.body),
  );

  r.post(
    '/api/stripe/create-educator-account-link',
    {
      schema: { tags, summary: 'A link to onboarding at the provider', body: accountLinkInput, response: { 200: linkResult, ...errors } },
    },
    async (request) =>
      createAccountLink(app, await app.requireViewer(request), request.body.stripe_connect_account_id, idempotencyKeyOf(request, 'link')),
  );

  r.post(
    '/api/stripe/create-stripe-login-link',
    {
      schema: { tags, summary: 'A link to your payouts dashboard', body: accountLinkInput, response: { 200: linkResult, ...errors } },
    },
    async (request) =>
      createLoginLink(app, await app.requireViewer(request), request.body.stripe_connect_account_id, idempotencyKeyOf(request, 'link')),
  );

  r.get(
    '/api/educator/payouts',
    {
      schema: {
        tags,
        summary: 'Your payout status and sales (refresh=1 re-reads the account)',
        querystring: z.object({ refresh: z.enum(['0', '1', 'true', 'false']).optional() }),
        response: { 200: educatorPayouts, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const refresh = request.query.refresh === '1' || request.query.refresh === 'true';
      return educatorPayoutsFor(app, await app.requireViewer(request), refresh);
    },
  );

  // ── Promo codes (ADR 0070) ──────────────────────────────────────────────────────
  r.post(
    '/api/course/:courseID/checkout/promo-code',
    {
      schema: {
        tags,
        summary: 'The price with a promo code before paying (one payment and installments); refused codes: 400 on code',
        params: z.object({ courseID: z.uuid('Unknown course') }),
        body: promoQuoteInput,
        response: { 200: promoQuote, ...errors, 429: errorBody },
      },
    },
    async (request) => promoQuoteFor(app, await app.requireViewer(request), request.params.courseID, request.body),
  );
  r.get(
    '/api/educator/promo-codes',
    {
      schema: {
        tags,
        summary: "Your courses' promo codes with their uses and the revenue they brought",
        response: { 200: educatorPromoCodes, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const viewer = await app.requireViewer(request);
      return {
        codes: await promoCodeViews(app.database.db, { educatorId: viewer.user.id }),
        courses: await paidCoursesWithSessionsOf(app.database.db, viewer.user.id),
      };
    },
  );
  r.post(
    '/api/educator/promo-codes',
    {
      schema: {
        tags,
        summary: 'A promo code for one of your courses (percent or amount off, dates, uses; once per person)',
        body: educatorPromoCodeInput,
        response: { 200: promoCodeView, ...errors },
      },
    },
    async (request) => createEducatorCode(app, (await app.requireViewer(request)).user.id, request.body),
  );
  r.post(
    '/api/educator/promo-codes/:codeId/end',
    {
      schema: {
        tags,
        summary: 'Ends your promo code now',
        params: promoCodeParams,
        response: { 200: promoCodeView, ...errors },
      },
    },
    async (request) => endCode(app, request.params.codeId, { educatorId: (await app.requireViewer(request)).user.id }),
  );

  r.get(
    '/api/courses/:courseId/sessions/:sessionId/drop-refund',
    {
      schema: {
        tags,
        summary: 'What dropping this session would refund you now (the drop page shows it); `learnerId`: one of your learners',
        params: z.object({ courseId: z.uuid('Unknown course'), sessionId: z.uuid('Unknown session') }),
        querystring: z.object({
          learnerId: z.union([z.literal('me'), z.uuid('Unknown learner')], { error: 'Unknown learner' }).optional(),
        }),
        response: { 200: dropRefundPreviewResult, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return dropRefundPreview(
        app,
        await app.requireViewer(request),
        request.params.courseId,
        request.params.sessionId,
        request.query.learnerId,
      );
    },
  );

  r.get(
    '/api/payments/installments',
    {
      schema: {
        tags,
        summary: 'Your installment plans still running: next due date, amount left, the card that pays',
        response: { 200: myInstallmentsResult, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return myInstallments(app, await app.requireViewer(request));
    },
  );

  r.post(
    '/api/payments/card-update',
    {
      schema: {
        tags,
        summary: 'A page to change the card of your installments (the provider customer portal)',
        response: { 200: cardUpdate, ...errors, 502: errorBody },
      },
    },
    async (request) => startCardUpdate(app, await app.requireViewer(request)),
  );

  r.get(
    '/api/payments',
    {
      schema: { tags, summary: 'Your payments and receipts', response: { 200: paymentHistory, ...errors } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return paymentHistoryFor(app, await app.requireViewer(request));
    },
  );
}
