import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../support/app.js';
import {
  allowPaidPublishing,
  makeClassTimes,
  makeCourse,
  makeEducator,
  makeLearner,
  makePublishedCourse,
  makeSession,
  queryRows,
  type Educator,
} from '../../support/courses.js';
import type { SignedInUser } from '../../support/factories.js';
import { get, post } from '../../support/http.js';
import { buildPaymentsApp, customerOf, makePayoutEducator, signedWebhook, startCheckout } from '../../support/payments.js';

/**
 * The payments API's rules and messages (spec sections 7 and 8): ownership, prices from
 * our database, the enrolment rules before paying, and the provider's failures answered
 * with the spec's messages only.
 */
let app: TestApp;
let educator: Educator & { accountId: string };
let learner: SignedInUser;

beforeAll(async () => {
  app = await buildPaymentsApp();
  educator = await makePayoutEducator(app);
  learner = await makeLearner(app);
});
afterAll(async () => {
  await app?.close();
});

/** Purchases of one course (other test files share the database and buy other courses). */
const purchasesOf = async (courseId: string) =>
  Number((await queryRows<{ n: number }>(app, sql`select count(*)::int as n from purchase where course_id = ${courseId}`))[0].n);

describe('POST /api/stripe/create-stripe-customer', () => {
  it('answers a list with the customer id, stores it on the user, and never creates a second one', async () => {
    const user = await makeLearner(app);
    const first = await post(
      app,
      '/api/stripe/create-stripe-customer',
      { email: user.email, name: 'Ada Lovelace' },
      { cookie: user.cookie },
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual([{ id: expect.stringMatching(/^cus_/) }]);
    const again = await post(
      app,
      '/api/stripe/create-stripe-customer',
      { email: user.email, name: 'Ada Lovelace' },
      { cookie: user.cookie },
    );
    expect(again.json()).toEqual(first.json());
    const [row] = await queryRows<{ stripe_customer_id: string }>(app, sql`select stripe_customer_id from "user" where id = ${user.id}`);
    expect(row.stripe_customer_id).toBe(first.json()[0].id);
  });

  it("someone else's email answers 403; no session answers 401", async () => {
    const res = await post(
      app,
      '/api/stripe/create-stripe-customer',
      { email: 'someone@example.com', name: 'X' },
      { cookie: learner.cookie },
    );
    expect(res.statusCode).toBe(403);
    expect((await post(app, '/api/stripe/create-stripe-customer', { email: learner.email, name: 'X' })).statusCode).toBe(401);
  });
});

describe('checkout calls are idempotent end to end (Idempotency-Key)', () => {
  it('a retried call with the same key answers the same checkout session and opens one purchase', async () => {
    const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: 4900 } });
    const buyer = await makeLearner(app);
    const customer = await customerOf(app, buyer);
    const body = { customer, course: courseId, session: sessionId, price: 4900 };
    const headers = { 'idempotency-key': 'attempt-1a2b3c' };
    const first = await post(app, '/api/stripe/course-embedded-checkout', body, { cookie: buyer.cookie, headers });
    expect(first.statusCode, first.body).toBe(200);
    const [again, parallel] = await Promise.all([
      post(app, '/api/stripe/course-embedded-checkout', body, { cookie: buyer.cookie, headers }),
      post(app, '/api/stripe/course-embedded-checkout', body, { cookie: buyer.cookie, headers }),
    ]);
    for (const res of [again, parallel]) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().sessionId).toBe(first.json().sessionId);
      expect(res.json().clientSecret).toBe(first.json().clientSecret);
    }
    expect(await purchasesOf(courseId)).toBe(1);
    // Without a key every call is a new attempt.
    const fresh = await post(app, '/api/stripe/course-embedded-checkout', body, { cookie: buyer.cookie });
    expect(fresh.json().sessionId).not.toBe(first.json().sessionId);
  });

  it('the same key for another checkout answers 400; a malformed key answers 400; keys are per user', async () => {
    const a = await makePublishedCourse(app, educator, { course: { priceCents: 4900 } });
    const b = await makePublishedCourse(app, educator, { course: { priceCents: 4900 } });
    const buyer = await makeLearner(app);
    const customer = await customerOf(app, buyer);
    const headers = { 'idempotency-key': 'attempt-shared-key' };
    const first = await post(
      app,
      '/api/stripe/course-embedded-checkout',
      { customer, course: a.courseId, session: a.sessionId, price: 4900 },
      { cookie: buyer.cookie, headers },
    );
    expect(first.statusCode, first.body).toBe(200);
    const reused = await post(
      app,
      '/api/stripe/course-embedded-checkout',
      { customer, course: b.courseId, session: b.sessionId, price: 4900 },
      { cookie: buyer.cookie, headers },
    );
    expect(reused.statusCode).toBe(409);
    expect(reused.json().error.code).toBe('idempotency_key_reused');
    const bad = await post(
      app,
      '/api/stripe/course-embedded-checkout',
      { customer, course: b.courseId, session: b.sessionId, price: 4900 },
      { cookie: buyer.cookie, headers: { 'idempotency-key': 'x'.repeat(300) } },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/Idempotency-Key/);
    // Another user with the same key gets a checkout of their own.
    const other = await makeLearner(app);
    const theirs = await post(
      app,
      '/api/stripe/course-embedded-checkout',
      { customer: await customerOf(app, other), course: a.courseId, session: a.sessionId, price: 4900 },
      { cookie: other.cookie, headers },
    );
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.json().sessionId).not.toBe(first.json().sessionId);
  });
});

describe('course checkout: refused before any money moves', () => {
  it("another user's customer id answers 403 and creates no purchase", async () => {
    const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: 4900 } });
    const other = await makeLearner(app);
    const theirs = await customerOf(app, other);
    const res = await post(
      app,
      '/api/stripe/course-embedded-checkout',
      { customer: theirs, course: courseId, session: sessionId, price: 4900 },
      { cookie: learner.cookie },
    );
    expect(res.statusCode).toBe(403);
    expect(await purchasesOf(courseId)).toBe(0);
  });

  it('a tampered price answers 400 on the price field, with the real price', async () => {
    const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: 4900 } });
    const res = await startCheckout(app, learner, courseId, sessionId, 100);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/^The price has changed: it is now \$49\.00/);
    expect(res.json().error.fields.price).toBeTruthy();
    expect(await purchasesOf(courseId)).toBe(0);
  });

  it('installments on a course that does not offer them, or another number, answer 400', async () => {
    const one = await makePublishedCourse(app, educator, { course: { priceCents: 9000 } });
    const res = await startCheckout(app, learner, one.courseId, one.sessionId, 9000, 3);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.installments).toBeTruthy();
    const three = await makePublishedCourse(app, educator, { course: { priceCents: 9000, installments: 3 } });
    const wrong = await startCheckout(app, learner, three.courseId, three.sessionId, 9000, 6);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe('This session is paid in 3 monthly installments');
  });

  it('a full session answers 409 "This session is full" (join its waitlist) before paying', async () => {
    const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: 4900 }, session: { capacity: 1 } });
    await app.database.db.execute(sql`update course_session set seats_taken = 1 where id = ${sessionId}`);
    const res = await startCheckout(app, learner, courseId, sessionId, 4900);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({
      code: 'session_full',
      message: 'This session is full: join its waitlist from the course page',
    });
  });

  it('the enrolment rules apply: own course 400, free course 400, a draft 404', async () => {
    const paid = await makePublishedCourse(app, educator, { course: { priceCents: 4900 } });
    const own = await startCheckout(app, educator, paid.courseId, paid.sessionId, 4900);
    expect(own.statusCode).toBe(400);
    expect(own.json().error).toMatchObject({ code: 'own_course', message: 'You cannot enrol in your own course' });
    const free = await makePublishedCourse(app, educator);
    expect((await startCheckout(app, learner, free.courseId, free.sessionId, 100)).statusCode).toBe(400);
    const draft = await makeCourse(app, educator, { priceCents: 4900 });
    const draftSession = await makeSession(app, educator, draft);
    expect((await startCheckout(app, learner, draft, draftSession, 4900)).statusCode).toBe(404);
  });

  it('a valid checkout answers the client secret, the session id and the sandbox form', async () => {
    const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: 4900 } });
    const res = await startCheckout(app, learner, courseId, sessionId, 4900);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ sessionId: expect.stringMatching(/^cs_/), clientSecret: expect.any(String) });
    expect(body.sandboxUrl).toBe(`/sandbox/checkout/${body.sessionId}?client_secret=${encodeURIComponent(body.clientSecret)}`);
    const [p] = await queryRows<{ status: string; amount_cents: number; fee_percent: number }>(
      app,
      sql`select status, amount_cents, fee_percent from purchase where checkout_session_id = ${body.sessionId}`,
    );
    expect(p).toMatchObject({ status: 'open', amount_cents: 4900, fee_percent: 10 });
    // The provider's session carries the fee and the educator's account as destination.
    const cs = await app.stripe().checkout.sessions.retrieve(body.sessionId);
    expect(cs.metadata).toMatchObject({ course: courseId, session: sessionId, user: learner.id });
    expect(cs.ui_mode).toBe('embedded_page');
    expect(cs.mode).toBe('payment');
  });
});

describe('GET /api/stripe/verify-session', () => {
  it('without a session id answers 400 "Could not get session"', async () => {
    const res = await get(app, '/api/stripe/verify-session', { cookie: learner.cookie });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Could not get session');
  });

  it("another user's checkout answers 403; an unknown one 404", async () => {
    const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: 4900 } });
    const res = await startCheckout(app, learner, courseId, sessionId, 4900);
    const other = await makeLearner(app);
    expect((await get(app, `/api/stripe/verify-session?session_id=${res.json().sessionId}`, { cookie: other.cookie })).statusCode).toBe(
      403,
    );
    expect((await get(app, '/api/stripe/verify-session?session_id=cs_test_unknown', { cookie: learner.cookie })).statusCode).toBe(404);
    const mine = await get(app, `/api/stripe/verify-session?session_id=${res.json().sessionId}`, { cookie: learner.cookie });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toMatchObject({
      status: 'open',
      paymentStatus: 'unpaid',
      kind: 'course_payment',
      purchase: { status: 'open' },
      enrolment: null,
    });
  });
});

describe('payout accounts', () => {
  it('create-stripe-account for another user, or by a learner, answers 403', async () => {
    const other = await makeEducator(app);
    expect(
      (await post(app, '/api/stripe/create-stripe-account', { email: other.email, user_id: learner.id }, { cookie: other.cookie }))
        .statusCode,
    ).toBe(403);
    expect(
      (await post(app, '/api/stripe/create-stripe-account', { email: learner.email, user_id: learner.id }, { cookie: learner.cookie }))
        .statusCode,
    ).toBe(403);
  });

  it('create-stripe-account is idempotent; links for another account answer 403', async () => {
    const again = await post(
      app,
      '/api/stripe/create-stripe-account',
      { email: educator.email, user_id: educator.id },
      { cookie: educator.cookie },
    );
    expect(again.json()).toEqual({ stripe_connect_account_id: educator.accountId });
    const other = await makeEducator(app);
    for (const path of ['/api/stripe/create-educator-account-link', '/api/stripe/create-stripe-login-link']) {
      const res = await post(app, path, { stripe_connect_account_id: educator.accountId }, { cookie: other.cookie });
      expect(res.statusCode, path).toBe(403);
    }
    const link = await post(
      app,
      '/api/stripe/create-educator-account-link',
      { stripe_connect_account_id: educator.accountId },
      { cookie: educator.cookie },
    );
    expect(link.statusCode, link.body).toBe(200);
    expect(link.json().url).toContain(`/sandbox/connect/onboard/${educator.accountId}`);
    const login = await post(
      app,
      '/api/stripe/create-stripe-login-link',
      { stripe_connect_account_id: educator.accountId },
      { cookie: educator.cookie },
    );
    expect(login.statusCode, login.body).toBe(200);
    expect(login.json().url).toContain(educator.accountId);
    // A link's Idempotency-Key only goes inside the provider's key: a malformed one is ignored
    // (the link made with a fresh key), where a checkout answers 400 (decision 0039).
    for (const path of ['/api/stripe/create-educator-account-link', '/api/stripe/create-stripe-login-link']) {
      const res = await post(
        app,
        path,
        { stripe_connect_account_id: educator.accountId },
        { cookie: educator.cookie, headers: { 'idempotency-key': 'x'.repeat(300) } },
      );
      expect(res.statusCode, `${path} ${res.body}`).toBe(200);
    }
  });

  it('GET /api/educator/payouts shows the enabled account and the standard fee', async () => {
    const res = await get(app, '/api/educator/payouts', { cookie: educator.cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      account: { id: educator.accountId, chargesEnabled: true, payoutsEnabled: true },
      plan: { id: 'standard', feePercent: 10 },
    });
    expect((await get(app, '/api/educator/payouts', { cookie: learner.cookie })).statusCode).toBe(403);
  });
});

describe('publishing a paid course', () => {
  it('needs payouts with charges enabled (400 with a field); a free course does not', async () => {
    const newcomer = await makeEducator(app);
    const paid = await makeCourse(app, newcomer, { priceCents: 5000 });
    const s = await makeSession(app, newcomer, paid);
    await makeClassTimes(app, newcomer, paid, s);
    const res = await post(app, `/api/courses/${paid}/publish`, undefined, { cookie: newcomer.cookie });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'payouts_required', message: 'Set up payouts before publishing a paid course' });
    expect(res.json().error.fields.payouts).toBeTruthy();
    const free = await makeCourse(app, newcomer);
    await makeSession(app, newcomer, free);
    expect((await post(app, `/api/courses/${free}/publish`, undefined, { cookie: newcomer.cookie })).statusCode).toBe(200);
  });

  it('with payouts enabled it publishes and gets its provider product', async () => {
    const id = await makeCourse(app, educator, { priceCents: 5000 });
    await makeSession(app, educator, id);
    const res = await post(app, `/api/courses/${id}/publish`, undefined, { cookie: educator.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await queryRows<{ stripe_product_id: string | null }>(app, sql`select stripe_product_id from course where id = ${id}`);
    expect(row.stripe_product_id).toMatch(/^prod_/);
  });

  it('create-product: educators only, their own course only', async () => {
    const id = await makeCourse(app, educator, { priceCents: 5000 });
    expect((await post(app, '/api/stripe/create-product', { name: 'X', course: id }, { cookie: learner.cookie })).statusCode).toBe(403);
    const other = await makeEducator(app);
    expect((await post(app, '/api/stripe/create-product', { name: 'X', course: id }, { cookie: other.cookie })).statusCode).toBe(403);
    const res = await post(app, '/api/stripe/create-product', { name: 'Watercolour', course: id }, { cookie: educator.cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().id).toMatch(/^prod_/);
  });
});

describe('webhook', () => {
  it('a forged signature answers 400 and stores nothing', async () => {
    const stored = async () =>
      Number((await queryRows<{ n: number }>(app, sql`select count(*)::int as n from stripe_event where id = 'evt_forged_1'`))[0].n);
    const payload = JSON.stringify({
      id: 'evt_forged_1',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { id: 'cs_forged' } },
    });
    const forged = await signedWebhook(app, payload, 'whsec_not_the_secret');
    expect(forged.statusCode).toBe(400);
    const unsigned = await app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(unsigned.statusCode).toBe(400);
    expect(await stored()).toBe(0);
  });

  it('an event of a type we do not handle is stored once and answered 200', async () => {
    const payload = JSON.stringify({
      id: `evt_other_${Date.now()}`,
      object: 'event',
      type: 'customer.created',
      data: { object: { id: 'cus_x' } },
    });
    expect((await signedWebhook(app, payload)).statusCode).toBe(200);
    const again = await signedWebhook(app, payload);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ duplicate: true });
  });
});

describe('the provider is down', () => {
  let down: TestApp;
  let user: SignedInUser;
  beforeAll(async () => {
    // Not listening: the SDK cannot reach the sandbox, exactly like a provider outage.
    down = await buildTestApp();
    user = await makeLearner(down);
  });
  afterAll(async () => {
    await down?.close();
  });

  it('customer creation answers 500 "Error creating stripe customer"', async () => {
    const res = await post(down, '/api/stripe/create-stripe-customer', { email: user.email, name: 'Ada' }, { cookie: user.cookie });
    expect(res.statusCode).toBe(500);
    expect(res.json().error.message).toBe('Error creating stripe customer');
  });

  it('a checkout answers 500 "Checkout session error" and leaves no open purchase', async () => {
    const teacher = await makeEducator(down);
    const { courseId, sessionId } = await makePublishedCourse(down, teacher, { course: { priceCents: 4900 } });
    await allowPaidPublishing(down, courseId);
    await down.database.db.execute(sql`update "user" set stripe_customer_id = 'cus_offline_test' where id = ${user.id}`);
    const res = await post(
      down,
      '/api/stripe/course-embedded-checkout',
      { customer: 'cus_offline_test', course: courseId, session: sessionId, price: 4900 },
      { cookie: user.cookie },
    );
    expect(res.statusCode).toBe(500);
    expect(res.json().error.message).toBe('Checkout session error');
    const rows = await down.database.db.execute(sql`select status from purchase where user_id = ${user.id}`);
    const statuses = ((rows as unknown as { rows?: { status: string }[] }).rows ?? (rows as unknown as { status: string }[])).map(
      (r) => r.status,
    );
    expect(statuses).not.toContain('open');
  });

  it('payout account calls answer 500 "Error Getting Account"', async () => {
    const teacher = await makeEducator(down);
    const res = await post(
      down,
      '/api/stripe/create-stripe-account',
      { email: teacher.email, user_id: teacher.id },
      { cookie: teacher.cookie },
    );
    expect(res.statusCode).toBe(500);
    expect(res.json().error.message).toBe('Error Getting Account');
  });

  it('sign-up still works (the customer is created later, on demand)', async () => {
    const fresh = await makeLearner(down);
    expect(fresh.id).toBeTruthy();
  });
});
