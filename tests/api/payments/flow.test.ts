import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { TEST_CARDS } from '../../../src/shared/payments.js';
import type { TestApp } from '../../support/app.js';
import {
  drop,
  enrolmentCounts,
  firstClassTookPlace,
  makeLearner,
  makePublishedCourse,
  makeSession,
  patchSession,
  queryRows,
  seatsTaken,
  type Educator,
} from '../../support/courses.js';
import { outbox } from '../../support/factories.js';
import { get, post } from '../../support/http.js';
import {
  advanceCustomer,
  buildPaymentsApp,
  buy,
  customerOf,
  makePayoutEducator,
  payCheckout,
  paymentsOf,
  purchaseOf,
  sandboxOf,
  setCustomerCard,
  paidSeat,
  signedWebhook,
  startCheckout,
  waitFor,
  waitForPurchase,
  type Checkout,
} from '../../support/payments.js';

/**
 * Paying for seats end to end on the payments sandbox: the SDK talks to it over HTTP and
 * it delivers signed webhooks to /api/stripe/webhook. The reliability rules of issue 4.
 */
let app: TestApp;
let educator: Educator & { accountId: string };

beforeAll(async () => {
  app = await buildPaymentsApp();
  educator = await makePayoutEducator(app);
});
afterAll(async () => {
  await app?.close();
});

const verify = (user: { cookie: string }, checkout: Checkout) =>
  get(app, `/api/stripe/verify-session?session_id=${checkout.sessionId}`, { cookie: user.cookie });

describe('one payment', () => {
  it('4242 pays; the webhook enrols the learner once, records the payment net of the fee, and emails a receipt', async () => {
    const { courseId, sessionId, learner, checkout, purchase: p } = await paidSeat(app, educator, { priceCents: 4900 });
    expect(p.enrolment_id).toBeTruthy();
    expect(await enrolmentCounts(app, sessionId)).toEqual({ active: 1 });
    const [pay] = await paymentsOf(app, p.id);
    expect(pay).toMatchObject({
      sequence: 1,
      amount_cents: 4900,
      fee_cents: 490,
      refunded_cents: 0,
      charge_id: expect.stringMatching(/^ch_/),
    });
    expect(pay.receipt_url).toBeTruthy();

    const v = await verify(learner, checkout);
    expect(v.statusCode, v.body).toBe(200);
    expect(v.json()).toMatchObject({
      status: 'complete',
      paymentStatus: 'paid',
      purchase: { status: 'fulfilled' },
      enrolment: { status: 'active' },
      course: { id: courseId },
    });
    const mail = await waitFor(
      async () => (await outbox(app, learner.email)).find((m) => /You're enrolled/.test(m.subject)),
      'receipt email',
    );
    expect(mail.text).toContain('$49.00');

    const history = await get(app, '/api/payments', { cookie: learner.cookie });
    expect(history.json().payments[0]).toMatchObject({
      amountCents: 4900,
      courseId,
      sequence: 1,
      installments: null,
      purchaseStatus: 'fulfilled',
    });
    const payouts = (await get(app, '/api/educator/payouts', { cookie: educator.cookie })).json();
    expect(payouts.sales.find((s: { courseId: string }) => s.courseId === courseId)).toMatchObject({
      amountCents: 4900,
      feeCents: 490,
      netCents: 4410,
    });
    // The charge at the provider went to the educator with the platform's fee.
    const charge = await app.stripe().charges.retrieve(pay.charge_id!);
    expect(charge.application_fee_amount).toBe(490);
    expect(charge.transfer_data?.destination).toBe(educator.accountId);
  });

  it('a declined card answers the provider reason and enrols nobody', async () => {
    const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: 4900 } });
    const learner = await makeLearner(app);
    const res = await startCheckout(app, learner, courseId, sessionId, 4900);
    const declined = await payCheckout(app, res.json(), TEST_CARDS.declined);
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toMatch(/declined/i);
    const v = await verify(learner, res.json());
    expect(v.json()).toMatchObject({ status: 'open', purchase: { status: 'open' }, enrolment: null });
    expect(await enrolmentCounts(app, sessionId)).toEqual({});
  });
});

describe('reliability', () => {
  it('a replayed webhook changes nothing the second time', async () => {
    const { sessionId, learner, checkout, purchase: p } = await paidSeat(app, educator, { priceCents: 3000 });
    const events = await app.stripe().events.list({ type: 'checkout.session.completed', limit: 20 });
    const event = events.data.find((e) => (e.data.object as { id: string }).id === checkout.sessionId)!;
    expect(event).toBeTruthy();
    const payload = JSON.stringify(event);
    for (let i = 0; i < 2; i++) {
      const res = await signedWebhook(app, payload);
      expect(res.statusCode).toBe(200);
    }
    // A new event id for the same checkout (a duplicate delivery): still nothing new.
    const res = await signedWebhook(app, JSON.stringify({ ...event, id: `${event.id}_dup` }));
    expect(res.statusCode).toBe(200);
    expect(await enrolmentCounts(app, sessionId)).toEqual({ active: 1 });
    expect(await paymentsOf(app, p.id)).toHaveLength(1);
    expect((await outbox(app, learner.email)).filter((m) => /You're enrolled/.test(m.subject))).toHaveLength(1);
  });

  it('paid while the app missed the webhook: verify-session enrols, a late delivery changes nothing (exactly once)', async () => {
    const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: 2500 } });
    const learner = await makeLearner(app);
    const sandbox = sandboxOf(app);
    const webhookUrl = sandbox.webhookUrl;
    sandbox.webhookUrl = 'http://127.0.0.1:9/api/stripe/webhook'; // nobody listens: deliveries fail
    let checkout: Checkout;
    try {
      checkout = await buy(app, learner, courseId, sessionId, 2500);
      await new Promise((r) => setTimeout(r, 300));
      expect((await purchaseOf(app, checkout.sessionId))!.status).toBe('open');
      const v = await verify(learner, checkout);
      expect(v.statusCode, v.body).toBe(200);
      expect(v.json()).toMatchObject({ purchase: { status: 'fulfilled' }, enrolment: { status: 'active' } });
    } finally {
      sandbox.webhookUrl = webhookUrl;
    }
    // The provider's retry of the missed event arrives now.
    const events = await app.stripe().events.list({ type: 'checkout.session.completed', limit: 20 });
    const event = events.data.find((e) => (e.data.object as { id: string }).id === checkout.sessionId)!;
    expect((await signedWebhook(app, JSON.stringify(event))).statusCode).toBe(200);
    expect((await verify(learner, checkout)).json().purchase.status).toBe('fulfilled');
    expect(await enrolmentCounts(app, sessionId)).toEqual({ active: 1 });
    expect(await seatsTaken(app, sessionId)).toEqual({ seatsTaken: 1, capacity: 10 });
  });

  it('once fulfilled, the complete page polling verify-session is answered from our records, without the provider', async () => {
    const { learner, checkout } = await paidSeat(app, educator, { priceCents: 2700 });
    const failRequests = sandboxOf(app).failRequests;
    failRequests.add(`GET /v1/checkout/sessions/${checkout.sessionId}`);
    try {
      const v = await verify(learner, checkout);
      expect(v.statusCode, v.body).toBe(200);
      expect(v.json()).toMatchObject({
        status: 'complete',
        paymentStatus: 'paid',
        purchase: { status: 'fulfilled' },
        enrolment: { status: 'active' },
      });
    } finally {
      failRequests.clear();
    }
  });

  it('two tabs pay for the last seat: one enrolment; the other is refunded at the provider and told', async () => {
    const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: 4000 }, session: { capacity: 1 } });
    const a = await makeLearner(app);
    const b = await makeLearner(app);
    const ca = (await startCheckout(app, a, courseId, sessionId, 4000)).json() as Checkout;
    const cb = (await startCheckout(app, b, courseId, sessionId, 4000)).json() as Checkout;
    expect(ca.sessionId && cb.sessionId).toBeTruthy();
    const [pa, pb] = await Promise.all([payCheckout(app, ca), payCheckout(app, cb)]);
    expect(pa.statusCode).toBeLessThan(300);
    expect(pb.statusCode).toBeLessThan(300);
    const outcome = await waitFor(async () => {
      const x = await purchaseOf(app, ca.sessionId);
      const y = await purchaseOf(app, cb.sessionId);
      return x && y && x.status !== 'open' && y.status !== 'open' ? [x, y] : null;
    }, 'both purchases settled');
    expect(outcome.map((p) => p.status).sort()).toEqual(['fulfilled', 'refunded']);
    expect(await enrolmentCounts(app, sessionId)).toEqual({ active: 1 });
    const loser = outcome.find((p) => p.status === 'refunded')!;
    const loserUser = loser === outcome[0] ? a : b;
    expect(loser.failure_reason).toBe('This session is full');
    // The refund goes to the provider right after the purchase is marked refunded.
    await waitFor(async () => (await paymentsOf(app, loser.id))[0].refunded_cents === 4000, 'refund recorded');
    const [pay] = await paymentsOf(app, loser.id);
    const charge = await app.stripe().charges.retrieve(pay.charge_id!);
    expect(charge.amount_refunded).toBe(4000);
    const mail = await waitFor(async () => (await outbox(app, loserUser.email)).find((m) => /refunded/i.test(m.subject)), 'refund email');
    expect(mail.text).toMatch(/last seat was taken/);
  });
});

describe('dropping a paid seat', () => {
  it('before the first class: a full refund at the provider, the seat freed, the answer says so', async () => {
    const {
      courseId,
      sessionId,
      learner,
      checkout,
      purchase: p,
    } = await paidSeat(app, educator, { priceCents: 6000, refundPolicy: 'moderate' });
    const res = await drop(app, learner, courseId, sessionId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refund).toEqual({ amountCents: 6000, currency: 'usd', full: true, pending: false });
    expect(res.json().message).toMatch(/\$60\.00/);
    expect(await seatsTaken(app, sessionId)).toEqual({ seatsTaken: 0, capacity: 10 });
    const [pay] = await paymentsOf(app, p.id);
    expect(pay.refunded_cents).toBe(6000);
    expect((await app.stripe().charges.retrieve(pay.charge_id!)).amount_refunded).toBe(6000);
    expect((await purchaseOf(app, checkout.sessionId))!.status).toBe('cancelled');
  });

  it('after the first class under a moderate policy: no refund', async () => {
    const { courseId, sessionId, learner, purchase: p } = await paidSeat(app, educator, { priceCents: 6000, refundPolicy: 'moderate' });
    await app.database.db.execute(
      sql`update class_time set starts_at = now() - interval '1 day', ends_at = now() - interval '23 hours' where session_id = ${sessionId}`,
    );
    const res = await drop(app, learner, courseId, sessionId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refund).toMatchObject({ amountCents: 0, full: false });
    expect((await paymentsOf(app, p.id))[0].refunded_cents).toBe(0);
  });
});

describe('installments', () => {
  it('3 installments: each paid invoice is recorded; after the 3rd the subscription ends and the learner stays enrolled', async () => {
    const { courseId, sessionId } = await makePublishedCourse(app, educator, {
      course: { priceCents: 9000, installments: 3 },
    });
    const learner = await makeLearner(app);
    const checkout = await buy(app, learner, courseId, sessionId, 9000, 3);
    const p = await waitForPurchase(app, checkout);
    expect(p.subscription_id).toMatch(/^sub_/);
    // It ends by itself after the 3rd invoice: cancel_at = start + 3 months.
    const sub = await waitFor(async () => {
      const s = await app.stripe().subscriptions.retrieve(p.subscription_id!);
      return s.cancel_at ? s : null;
    }, 'cancel_at set');
    expect(sub.cancel_at! - sub.start_date).toBeGreaterThanOrEqual(89 * 86400);
    expect(sub.cancel_at! - sub.start_date).toBeLessThanOrEqual(92 * 86400);
    const customer = await customerOf(app, learner);
    for (let month = 1; month <= 3; month++) await advanceCustomer(app, customer, 31);
    await waitFor(async () => (await purchaseOf(app, checkout.sessionId))!.status === 'completed', 'purchase completed');
    const payments = await paymentsOf(app, p.id);
    expect(payments.map((x) => [x.sequence, x.amount_cents])).toEqual([
      [1, 3000],
      [2, 3000],
      [3, 3000],
    ]);
    expect(await enrolmentCounts(app, sessionId)).toEqual({ active: 1 });
    expect((await app.stripe().subscriptions.retrieve(p.subscription_id!)).status).toBe('canceled');
  });

  it('a failed installment marks the enrolment past due (seat kept); when the provider gives up the seat is released', async () => {
    const { courseId, sessionId, learner, checkout } = await paidSeat(
      app,
      educator,
      { priceCents: 9000, installments: 3 },
      { capacity: 1 },
    );
    const customer = await customerOf(app, learner);
    await setCustomerCard(app, customer, '4000000000000341'); // attaches; every later charge fails
    await advanceCustomer(app, customer, 31);
    await waitFor(async () => (await enrolmentCounts(app, sessionId)).past_due === 1, 'past due');
    expect(await seatsTaken(app, sessionId)).toEqual({ seatsTaken: 1, capacity: 1 });
    // Past due still holds the seat: the class links and the review stay open to the learner.
    await firstClassTookPlace(app, courseId);
    const view = (await get(app, `/api/courses/${courseId}`, { cookie: learner.cookie })).json();
    expect(view.canReview).toBe(true);
    expect(view.sessions[0].classTimes.every((t: { meetingUrl: string | null }) => !!t.meetingUrl)).toBe(true);
    await waitFor(async () => (await outbox(app, learner.email)).find((m) => /failed/i.test(m.subject)), 'failure email');
    // Retries at +3, +5, +7 days fail too: the provider gives up.
    await advanceCustomer(app, customer, 8);
    await waitFor(async () => (await purchaseOf(app, checkout.sessionId))!.status === 'cancelled', 'seat released');
    expect(await enrolmentCounts(app, sessionId)).toEqual({ dropped: 1 });
    expect(await seatsTaken(app, sessionId)).toEqual({ seatsTaken: 0, capacity: 1 });
  });

  it('dropping cancels the future installments', async () => {
    const { courseId, sessionId, learner, purchase: p } = await paidSeat(app, educator, { priceCents: 9000, installments: 3 });
    const res = await drop(app, learner, courseId, sessionId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refund).toMatchObject({ amountCents: 3000, full: true });
    expect((await app.stripe().subscriptions.retrieve(p.subscription_id!)).status).toBe('canceled');
  });
});

describe('platform plans (Educator Pro)', () => {
  it('only educators with payouts, at our price; paying lowers the fee; the subscription ending restores it', async () => {
    const learner = await makeLearner(app);
    const learnerCustomer = await customerOf(app, learner);
    expect(
      (
        await post(
          app,
          '/api/stripe/create-embedded-checkout-session',
          { customer: learnerCustomer, product: 'educator-pro', price: 2900 },
          { cookie: learner.cookie },
        )
      ).statusCode,
    ).toBe(403);
    const pro = await makePayoutEducator(app);
    const customer = await customerOf(app, pro);
    const tampered = await post(
      app,
      '/api/stripe/create-embedded-checkout-session',
      { customer, product: 'educator-pro', price: 100 },
      { cookie: pro.cookie },
    );
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json().error.fields.price).toBeTruthy();
    const res = await post(
      app,
      '/api/stripe/create-embedded-checkout-session',
      { customer, product: 'educator-pro', price: 2900 },
      { cookie: pro.cookie },
    );
    expect(res.statusCode, res.body).toBe(200);
    const cs = await app.stripe().checkout.sessions.retrieve(res.json().sessionId);
    expect(cs.mode).toBe('subscription');
    expect((await payCheckout(app, res.json())).statusCode).toBeLessThan(300);
    await waitFor(async () => (await get(app, '/api/educator/payouts', { cookie: pro.cookie })).json().plan.feePercent === 5, 'pro plan');
    expect((await get(app, '/api/educator/payouts', { cookie: pro.cookie })).json().plan).toEqual({ id: 'educator-pro', feePercent: 5 });
    // Its courses now sell with a 5% fee.
    const { courseId, sessionId } = await makePublishedCourse(app, pro, { course: { priceCents: 10000 } });
    const buyer = await makeLearner(app);
    const checkout = await buy(app, buyer, courseId, sessionId, 10000);
    const p = await waitForPurchase(app, checkout);
    expect((await paymentsOf(app, p.id))[0].fee_cents).toBe(500);
    // The plan's subscription ends: back to the standard fee.
    const v = await get(app, `/api/stripe/verify-session?session_id=${res.json().sessionId}`, { cookie: pro.cookie });
    expect(v.json()).toMatchObject({ kind: 'plan', purchase: { status: 'fulfilled' }, plan: { id: 'educator-pro' } });
    const subId = (await app.stripe().checkout.sessions.retrieve(res.json().sessionId)).subscription as string;
    await app.stripe().subscriptions.cancel(subId);
    await waitFor(
      async () => (await get(app, '/api/educator/payouts', { cookie: pro.cookie })).json().plan.feePercent === 10,
      'standard plan again',
    );
  });
});

describe('customers and cancelled sessions', () => {
  it('sign-up creates the payment customer (in the background)', async () => {
    const fresh = await makeLearner(app);
    const row = await waitFor(async () => {
      const [u] = await queryRows<{ stripe_customer_id: string | null }>(
        app,
        sql`select stripe_customer_id from "user" where id = ${fresh.id}`,
      );
      return u.stripe_customer_id;
    }, 'customer at sign-up');
    expect(row).toMatch(/^cus_/);
    expect(await customerOf(app, fresh)).toBe(row);
  });

  it('an educator cancelling a session refunds its paid seats in full', async () => {
    const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: 5500 } });
    await makeSession(app, educator, courseId);
    const learner = await makeLearner(app);
    const checkout = await buy(app, learner, courseId, sessionId, 5500);
    const p = await waitForPurchase(app, checkout);
    const res = await patchSession(app, educator, courseId, sessionId, { status: 'cancelled' });
    expect(res.statusCode, res.body).toBe(200);
    const [pay] = await paymentsOf(app, p.id);
    expect(pay.refunded_cents).toBe(5500);
    expect((await app.stripe().charges.retrieve(pay.charge_id!)).amount_refunded).toBe(5500);
    expect((await purchaseOf(app, checkout.sessionId))!.status).toBe('refunded');
    const history = (await get(app, '/api/payments', { cookie: learner.cookie })).json().payments;
    expect(history[0]).toMatchObject({ amountCents: 5500, refundedCents: 5500, purchaseStatus: 'refunded' });
  });
});
