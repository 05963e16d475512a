import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import type { StripeSandboxControls } from '@agora/stripe-sandbox';
import { buildTestApp, type TestApp, type TestAppOptions } from './app.js';
import { makeEducator, makeLearner, makePublishedCourse, queryRows, type Educator } from './courses.js';
import { get, post } from './http.js';

/**
 * Payments tests: the app must listen, because the Stripe SDK reaches the payments
 * sandbox over HTTP on this server's port, and the sandbox delivers webhooks to it.
 */
export async function buildPaymentsApp(overrides: Record<string, string | undefined> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const app = await buildTestApp(overrides, options);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

/**
 * Polls until `check` answers a truthy value (webhooks and jobs arrive asynchronously). The
 * ceiling is generous: a receipt (a notification job, polled by every test app on the run's
 * database) once took over 60 s at load 15.
 */
export async function waitFor<T>(check: () => Promise<T | null | undefined | false>, what = 'condition', timeoutMs = 180_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The sandbox's controls (webhook target override for "the app was down" tests, outages). */
export function sandboxOf(app: TestApp): StripeSandboxControls {
  if (!app.stripeSandbox) throw new Error('the payments sandbox is not registered');
  return app.stripeSandbox;
}

/** The caller's customer id (GET /api/stripe/config creates it on demand). */
export async function customerOf(app: TestApp, user: { cookie: string }): Promise<string> {
  const res = await get(app, '/api/stripe/config', { cookie: user.cookie });
  expect(res.statusCode, res.body).toBe(200);
  const customer = res.json().customer as string | null;
  expect(customer).toMatch(/^cus_/);
  return customer!;
}

/**
 * An educator whose payouts are set up through the API and the sandbox's onboarding
 * (create-stripe-account, the onboarding form submitted), charges enabled.
 */
export async function makePayoutEducator(
  app: TestApp,
  overrides: Parameters<typeof makeEducator>[1] = {},
): Promise<Educator & { accountId: string }> {
  const educator = await makeEducator(app, overrides);
  const res = await post(
    app,
    '/api/stripe/create-stripe-account',
    { email: educator.email, user_id: educator.id },
    { cookie: educator.cookie },
  );
  expect(res.statusCode, res.body).toBe(200);
  const accountId = res.json().stripe_connect_account_id as string;
  await completeOnboarding(app, accountId);
  await waitFor(async () => {
    const payouts = await get(app, '/api/educator/payouts?refresh=1', { cookie: educator.cookie });
    return payouts.statusCode === 200 && payouts.json().account?.chargesEnabled;
  }, 'charges enabled');
  return { ...educator, accountId };
}

/** Submits the sandbox's Connect onboarding form for an account. */
export async function completeOnboarding(app: TestApp, accountId: string) {
  const q = new URLSearchParams({
    return_url: 'http://localhost/educator/onboard-success',
    refresh_url: 'http://localhost/educator/onboard?step=payouts',
  });
  const res = await app.inject({
    method: 'POST',
    url: `/sandbox/connect/onboard/${accountId}?${q}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ legal_name: 'Grace Hopper Studio', country: 'US' }).toString(),
  });
  expect([200, 302, 303], res.body).toContain(res.statusCode);
}

export interface Checkout {
  clientSecret: string;
  sessionId: string;
  sandboxUrl: string | null;
}

/** Pays a checkout on the sandbox's form, as the embedded form would; answers the response. */
export function payCheckout(app: TestApp, checkout: Checkout, number = '4242 4242 4242 4242') {
  return app.inject({
    method: 'POST',
    url: `/sandbox/api/checkout/${checkout.sessionId}/confirm`,
    headers: { 'content-type': 'application/json' },
    payload: { client_secret: checkout.clientSecret, number, exp: '12/34', cvc: '123', name: 'Ada Lovelace' },
  });
}

/**
 * Starts a checkout of a course session for a learner: one payment, or a subscription when in
 * `installments`; with a promo code and the account's learners (ADR 0070, 0074) when given.
 */
export async function startCheckout(
  app: TestApp,
  learner: { cookie: string },
  courseId: string,
  sessionId: string,
  price: number,
  installments?: number,
  { code, learnerIds }: { code?: string; learnerIds?: string[] } = {},
) {
  const customer = await customerOf(app, learner);
  const path = installments ? '/api/stripe/course-embedded-subscription' : '/api/stripe/course-embedded-checkout';
  return post(
    app,
    path,
    {
      customer,
      course: courseId,
      session: sessionId,
      price,
      ...(installments ? { installments } : {}),
      ...(code ? { code } : {}),
      ...(learnerIds ? { learnerIds } : {}),
    },
    { cookie: learner.cookie },
  );
}

/** An ISO instant `n` days from now (negative: ago). */
export const inDays = (n: number) => new Date(Date.now() + n * 86400_000).toISOString();

/**
 * POST /api/educator/promo-codes as `who`: 15 % off, valid from yesterday for 30 days, 10 uses,
 * unless `body` says otherwise. Answers the response (creation may be refused).
 */
export function makePromoCode(app: TestApp, who: { cookie: string }, body: Record<string, unknown>) {
  return post(
    app,
    '/api/educator/promo-codes',
    { kind: 'percent', percentOff: 15, startsAt: inDays(-1), endsAt: inDays(30), maxUses: 10, ...body },
    { cookie: who.cookie },
  );
}

/** Starts and pays a checkout; answers the checkout. */
export async function buy(
  app: TestApp,
  learner: { cookie: string },
  courseId: string,
  sessionId: string,
  price: number,
  installments?: number,
): Promise<Checkout> {
  const res = await startCheckout(app, learner, courseId, sessionId, price, installments);
  expect(res.statusCode, res.body).toBe(200);
  const checkout = res.json() as Checkout;
  const paid = await payCheckout(app, checkout);
  expect(paid.statusCode, paid.body).toBeLessThan(300);
  return checkout;
}

/** A new published paid course and a learner whose purchase of a seat in it went through. */
export async function paidSeat(
  app: TestApp,
  educator: { cookie: string },
  course: { priceCents: number; installments?: number } & Record<string, unknown>,
  session?: Record<string, unknown>,
) {
  const { courseId, sessionId } = await makePublishedCourse(app, educator, { course, session });
  const learner = await makeLearner(app);
  const checkout = await buy(app, learner, courseId, sessionId, course.priceCents, course.installments);
  const purchase = await waitForPurchase(app, checkout);
  return { courseId, sessionId, learner, checkout, purchase };
}

/** The purchase row of a checkout session. */
export async function purchaseOf(app: TestApp, checkoutSessionId: string) {
  const [row] = await queryRows<{
    id: string;
    status: string;
    failure_reason: string | null;
    enrolment_id: string | null;
    subscription_id: string | null;
    payment_intent_id: string | null;
  }>(
    app,
    sql`select id, status, failure_reason, enrolment_id, subscription_id, payment_intent_id from purchase where checkout_session_id = ${checkoutSessionId}`,
  );
  return row ?? null;
}

/** Waits for the purchase of a checkout to reach `status`; answers the purchase row. */
export function waitForPurchase(app: TestApp, checkout: Checkout, status = 'fulfilled') {
  return waitFor(async () => {
    const p = await purchaseOf(app, checkout.sessionId);
    return p && p.status === status ? p : null;
  }, `purchase ${status}`);
}

export async function paymentsOf(app: TestApp, purchaseId: string) {
  return queryRows<{
    sequence: number;
    amount_cents: number;
    fee_cents: number;
    refunded_cents: number;
    charge_id: string | null;
    invoice_id: string | null;
    receipt_url: string | null;
  }>(
    app,
    sql`select sequence, amount_cents, fee_cents, refunded_cents, charge_id, invoice_id, receipt_url from payment where purchase_id = ${purchaseId} order by sequence`,
  );
}

/** A webhook request signed with the app's secret (or a given one), as the provider sends it. */
export function signedWebhook(app: TestApp, payload: string, secret = app.config.payments.webhookSecret) {
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    payload,
  });
}

/** Test-clock helper of the sandbox: moves the customer's time forward. */
export async function advanceCustomer(app: TestApp, customer: string, days: number) {
  const res = await app.inject({
    method: 'POST',
    url: `/sandbox/api/customers/${customer}/advance`,
    headers: { 'content-type': 'application/json' },
    payload: { days },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res;
}

/** Dev helper of the sandbox: the customer's card for later charges. */
export async function setCustomerCard(app: TestApp, customer: string, number: string) {
  const res = await app.inject({
    method: 'POST',
    url: `/sandbox/api/customers/${customer}/card`,
    headers: { 'content-type': 'application/json' },
    payload: { number },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res;
}
