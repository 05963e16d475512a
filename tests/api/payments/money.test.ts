import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TestApp } from '../../support/app.js';
import { addMonths } from '../../../src/shared/payments.js';
import { dateIn } from '../../../src/shared/time.js';
import { purchaseRecordsOf } from '../../../src/server/payments/purchase-records.js';
import {
  classTimeBody,
  courseBody,
  dayFromNow,
  drop,
  makeClassTimes,
  makeCourse,
  makeLearner,
  makePublishedCourse,
  makeSession,
  publish,
  queryRows,
} from '../../support/courses.js';
import { get, post } from '../../support/http.js';
import { buildPaymentsApp, buy, makePayoutEducator, paidSeat, startCheckout, waitFor, waitForPurchase } from '../../support/payments.js';

/**
 * Money that is right everywhere (issue 13): totals per currency, the platform's fee given
 * back with refunds (all of it on a full refund, in proportion on a partial one) as the
 * provider's objects say, and the dashboard agreeing to the cent with our payments table
 * and with the provider, read through the official Stripe SDK.
 */
let app: TestApp;

beforeAll(async () => {
  app = await buildPaymentsApp();
});
afterAll(async () => {
  await app?.close();
});

const payouts = async (educator: { cookie: string }) => {
  const res = await get(app, '/api/educator/payouts', { cookie: educator.cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

async function paymentRow(purchaseId: string) {
  const [row] = await queryRows<{
    amount_cents: number;
    fee_cents: number;
    refunded_cents: number;
    fee_refunded_cents: number;
    charge_id: string;
  }>(
    app,
    sql`select amount_cents, fee_cents, refunded_cents, fee_refunded_cents, charge_id from payment where purchase_id = ${purchaseId}`,
  );
  return row;
}

/** The educator's net of one charge as the provider has it: amount - refunded - (fee - fee refunded). */
async function providerNet(chargeId: string) {
  const charge = await app.stripe().charges.retrieve(chargeId);
  const fee = charge.application_fee ? await app.stripe().applicationFees.retrieve(charge.application_fee as string) : null;
  return {
    currency: charge.currency,
    net: charge.amount - charge.amount_refunded - ((fee?.amount ?? 0) - (fee?.amount_refunded ?? 0)),
    fee,
    charge,
  };
}

describe('refunds give the platform fee back', () => {
  it('a full refund of a $120 sale leaves the educator $0.00 net, fee returned at the provider', async () => {
    const educator = await makePayoutEducator(app);
    const { courseId, sessionId, learner, purchase } = await paidSeat(app, educator, { priceCents: 12000, refundPolicy: 'moderate' });
    const res = await drop(app, learner, courseId, sessionId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refund).toMatchObject({ amountCents: 12000, full: true });
    const row = await waitFor(async () => {
      const r = await paymentRow(purchase.id);
      return r.fee_refunded_cents === 1200 ? r : null;
    }, 'fee refunded recorded');
    expect(row).toMatchObject({ amount_cents: 12000, fee_cents: 1200, refunded_cents: 12000, fee_refunded_cents: 1200 });
    const provider = await providerNet(row.charge_id);
    expect(provider.charge.amount_refunded).toBe(12000);
    expect(provider.fee).toMatchObject({ amount: 1200, amount_refunded: 1200, refunded: true });
    expect(provider.net).toBe(0);
    const p = await payouts(educator);
    expect(p.totals).toEqual([
      { currency: 'usd', grossCents: 12000, feeCents: 1200, refundedCents: 12000, feeRefundedCents: 1200, netCents: 0, sales: 1 },
    ]);
    expect(p.sales[0]).toMatchObject({ netCents: 0, feeRefundedCents: 1200 });
  });

  it('a partial refund (flexible policy, first week) returns the fee in proportion', async () => {
    const educator = await makePayoutEducator(app);
    const { courseId, sessionId, learner, purchase } = await paidSeat(app, educator, { priceCents: 12000, refundPolicy: 'flexible' });
    await app.database.db.execute(
      sql`update class_time set starts_at = now() - interval '1 day', ends_at = now() - interval '23 hours' where session_id = ${sessionId}`,
    );
    // The drop page's figure, then the drop: the same amount.
    const preview = await get(app, `/api/courses/${courseId}/sessions/${sessionId}/drop-refund`, { cookie: learner.cookie });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ paid: true, amountCents: 6000, paidCents: 12000, currency: 'usd', full: false });
    const res = await drop(app, learner, courseId, sessionId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refund).toMatchObject({ amountCents: preview.json().amountCents, full: false });
    const row = await waitFor(async () => {
      const r = await paymentRow(purchase.id);
      return r.fee_refunded_cents === 600 ? r : null;
    }, 'fee refunded recorded');
    expect(row).toMatchObject({ refunded_cents: 6000, fee_refunded_cents: 600 });
    const provider = await providerNet(row.charge_id);
    expect(provider.charge.amount_refunded).toBe(6000);
    expect(provider.fee).toMatchObject({ amount: 1200, amount_refunded: 600, refunded: false });
    // 120.00 - 12.00 fee - 60.00 refunded + 6.00 fee back = 54.00
    expect(provider.net).toBe(5400);
    expect((await payouts(educator)).totals[0]).toMatchObject({ netCents: 5400, feeRefundedCents: 600 });
  });

  it('the drop page figure: 404 for a session the caller is not in, nothing for a free seat', async () => {
    const educator = await makePayoutEducator(app);
    const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: 0 } });
    const stranger = await makeLearner(app);
    const res = await get(app, `/api/courses/${courseId}/sessions/${sessionId}/drop-refund`, { cookie: stranger.cookie });
    expect(res.statusCode).toBe(404);
  });
});

describe('totals per currency', () => {
  it('sales in USD, GBP and EUR are three totals, never one sum', async () => {
    const educator = await makePayoutEducator(app);
    for (const [currency, price] of [
      ['usd', 4000],
      ['gbp', 5000],
      ['eur', 7000],
    ] as const) {
      const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: price, currency } });
      const learner = await makeLearner(app);
      await waitForPurchase(app, await buy(app, learner, courseId, sessionId, price));
    }
    const p = await payouts(educator);
    expect(p.totals).toEqual([
      { currency: 'eur', grossCents: 7000, feeCents: 700, refundedCents: 0, feeRefundedCents: 0, netCents: 6300, sales: 1 },
      { currency: 'gbp', grossCents: 5000, feeCents: 500, refundedCents: 0, feeRefundedCents: 0, netCents: 4500, sales: 1 },
      { currency: 'usd', grossCents: 4000, feeCents: 400, refundedCents: 0, feeRefundedCents: 0, netCents: 3600, sales: 1 },
    ]);
    expect(new Set(p.daily.map((d: { currency: string }) => d.currency))).toEqual(new Set(['usd', 'gbp', 'eur']));
  });
});

describe('the dashboard agrees with the payments table and the provider', () => {
  it('to the cent, per currency, with full, partial and no refunds', async () => {
    const educator = await makePayoutEducator(app);
    const a = await paidSeat(app, educator, { priceCents: 12000, refundPolicy: 'flexible' });
    const b = await paidSeat(app, educator, { priceCents: 3333, refundPolicy: 'moderate' });
    await paidSeat(app, educator, { priceCents: 4999, currency: 'gbp' });
    await app.database.db.execute(
      sql`update class_time set starts_at = now() - interval '1 day', ends_at = now() - interval '23 hours' where session_id = ${a.sessionId}`,
    );
    expect((await drop(app, a.learner, a.courseId, a.sessionId)).statusCode).toBe(200);
    expect((await drop(app, b.learner, b.courseId, b.sessionId)).statusCode).toBe(200);
    await waitFor(
      async () => (await paymentRow(a.purchase.id)).fee_refunded_cents > 0 && (await paymentRow(b.purchase.id)).fee_refunded_cents > 0,
      'refunds recorded',
    );

    const dashboard = (await payouts(educator)).totals as { currency: string; netCents: number; grossCents: number }[];
    const table = await queryRows<{ currency: string; net: number; gross: number; charges: string[] }>(
      app,
      sql`select currency, sum(amount_cents - fee_cents - refunded_cents + fee_refunded_cents)::int as net, sum(amount_cents)::int as gross,
            array_agg(charge_id) as charges
          from payment where educator_id = ${educator.id} group by currency order by currency`,
    );
    expect(dashboard.map((t) => [t.currency, t.netCents, t.grossCents])).toEqual(table.map((t) => [t.currency, t.net, t.gross]));
    for (const t of table) {
      let providerSum = 0;
      for (const charge of t.charges) {
        const n = await providerNet(charge);
        expect(n.currency).toBe(t.currency);
        providerSum += n.net;
      }
      expect(providerSum).toBe(t.net);
    }
    // 120.00 half refunded (54.00) + 33.33 fully refunded (0.00) in USD; 49.99 - 5.00 in GBP.
    expect(dashboard).toEqual([
      expect.objectContaining({ currency: 'gbp', netCents: 4499 }),
      expect.objectContaining({ currency: 'usd', netCents: 5400 }),
    ]);
  });
});

describe('installments limited to what makes sense', () => {
  it('each payment at least $20.00: a $45 course allows 2 installments, not 3', async () => {
    const educator = await makePayoutEducator(app);
    const res = await post(app, '/api/courses', courseBody({ priceCents: 4500, installments: 3 }), { cookie: educator.cookie });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.installments).toBe('Each monthly payment must be at least $20.00: at most 2 installments at this price');
    const low = await post(app, '/api/courses', courseBody({ priceCents: 3000, installments: 2 }), { cookie: educator.cookie });
    expect(low.json().error.fields.installments).toBe('Each monthly payment must be at least $20.00: this price is paid in one payment');
    const ok = await post(app, '/api/courses', courseBody({ priceCents: 4500, installments: 2 }), { cookie: educator.cookie });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('the last payment falls before the session ends: the checkout offers fewer, or one payment', async () => {
    const educator = await makePayoutEducator(app);
    const learner = await makeLearner(app);
    const { courseId, sessionId } = await makePublishedCourse(app, educator, {
      course: { priceCents: 12000, installments: 6 },
      session: { startsOn: dayFromNow(10), endsOn: dayFromNow(70) },
    });
    const summary = await get(app, `/api/course/${courseId}/checkout?session=${sessionId}`, { cookie: learner.cookie });
    expect(summary.statusCode, summary.body).toBe(200);
    const today = dateIn(new Date(), 'Europe/London');
    expect(summary.json()).toMatchObject({ installments: 3, installmentCents: 4000, lastInstallmentOn: addMonths(today, 2) });
    const six = await startCheckout(app, learner, courseId, sessionId, 12000, 6);
    expect(six.statusCode).toBe(400);
    expect(six.json().error.message).toBe('This session is paid in 3 monthly installments');
    expect((await startCheckout(app, learner, courseId, sessionId, 12000, 3)).statusCode).toBe(200);

    const shortCourse = await makeCourse(app, educator, { priceCents: 12000, installments: 6 });
    const shortSession = await makeSession(app, educator, shortCourse, { startsOn: dayFromNow(5), endsOn: dayFromNow(20) });
    await makeClassTimes(app, educator, shortCourse, shortSession, classTimeBody(10));
    await publish(app, educator, shortCourse);
    const short = { courseId: shortCourse, sessionId: shortSession };
    const one = await get(app, `/api/course/${short.courseId}/checkout?session=${short.sessionId}`, { cookie: learner.cookie });
    expect(one.json()).toMatchObject({ installments: null, installmentCents: null, lastInstallmentOn: null });
    const refused = await startCheckout(app, learner, short.courseId, short.sessionId, 12000, 2);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields.installments).toMatch(/one payment/);
  });
});

describe('the roster says how each seat was paid', () => {
  it('paid, installments k of N, past due, refunded, refund pending: in the roster and its CSV', async () => {
    const educator = await makePayoutEducator(app);
    const { courseId, sessionId } = await makePublishedCourse(app, educator, {
      course: { priceCents: 9000, installments: 3, refundPolicy: 'moderate', title: 'Roster money' },
    });
    const once = await makeLearner(app, { email: `once-${Date.now()}@example.com` });
    const monthly = await makeLearner(app, { email: `monthly-${Date.now()}@example.com` });
    const late = await makeLearner(app, { email: `late-${Date.now()}@example.com` });
    const gone = await makeLearner(app, { email: `gone-${Date.now()}@example.com` });
    const owed = await makeLearner(app, { email: `owed-${Date.now()}@example.com` });
    await waitForPurchase(app, await buy(app, once, courseId, sessionId, 9000));
    await waitForPurchase(app, await buy(app, monthly, courseId, sessionId, 9000, 3));
    await waitForPurchase(app, await buy(app, late, courseId, sessionId, 9000, 3));
    await waitForPurchase(app, await buy(app, gone, courseId, sessionId, 9000));
    await waitForPurchase(app, await buy(app, owed, courseId, sessionId, 9000));
    // The first invoice of each plan is recorded when its invoice.paid arrives.
    for (const who of [monthly, late]) {
      await waitFor(async () => {
        const [r] = await queryRows<{ n: number }>(app, sql`select count(*)::int as n from payment where user_id = ${who.id}`);
        return r.n === 1;
      }, 'first installment recorded');
    }
    await app.database.db.execute(sql`update purchase set status = 'past_due' where user_id = ${late.id} and course_id = ${courseId}`);
    expect((await drop(app, gone, courseId, sessionId)).statusCode).toBe(200);
    await waitFor(async () => {
      const [r] = await queryRows<{ n: number }>(
        app,
        sql`select count(*)::int as n from payment where user_id = ${gone.id} and refunded_cents > 0`,
      );
      return r.n === 1;
    }, 'refund recorded');

    // A refund the provider has not made yet (its retry not due): the admin console says
    // refund_pending, and the roster says the same state in its words.
    await app.database.db.execute(
      sql`insert into refund_due (purchase_id, user_id, amount_cents, currency, plan, next_attempt_at)
          select id, user_id, 9000, currency, '{}'::jsonb, now() + interval '1 day' from purchase where user_id = ${owed.id} and course_id = ${courseId}`,
    );

    const res = await get(app, `/api/courses/${courseId}/roster`, { cookie: educator.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const byEmail = Object.fromEntries(res.json().rows.map((r: { learnerEmail: string; payment: unknown }) => [r.learnerEmail, r.payment]));
    expect(byEmail[once.email]).toEqual({ status: 'paid', label: 'Paid', paidInstallments: null, installments: null });
    expect(byEmail[monthly.email]).toEqual({ status: 'installments', label: 'Installments 1 of 3', paidInstallments: 1, installments: 3 });
    expect(byEmail[late.email]).toMatchObject({ status: 'past_due', label: 'Past due (1 of 3 paid)' });
    expect(byEmail[gone.email]).toMatchObject({ status: 'refunded', label: 'Refunded' });
    expect(byEmail[owed.email]).toMatchObject({ status: 'refunded', label: 'Refund pending' });
    const [owedPurchase] = (await purchaseRecordsOf(app.database.db, owed.id)).filter((p) => p.courseId === courseId);
    expect(owedPurchase.state).toBe('refund_pending');

    const csv = await get(app, `/api/courses/${courseId}/roster.csv`, { cookie: educator.cookie });
    const lines = csv.body.split('\r\n').filter(Boolean);
    expect(lines[0]).toContain('"Payment"');
    expect(lines.find((l) => l.includes(monthly.email))).toContain('"Installments 1 of 3"');
    expect(lines.find((l) => l.includes(gone.email))).toContain('"Refunded"');
  });
});

describe('installments in settings', () => {
  it('next due date, amount left and the card; the card changes on the provider portal page', async () => {
    const educator = await makePayoutEducator(app);
    const { learner, purchase } = await paidSeat(app, educator, { priceCents: 9000, installments: 3 });
    await waitFor(async () => {
      const [r] = await queryRows<{ n: number }>(app, sql`select count(*)::int as n from payment where purchase_id = ${purchase.id}`);
      return r.n === 1;
    }, 'first installment recorded');
    const res = await get(app, '/api/payments/installments', { cookie: learner.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.plans).toHaveLength(1);
    const today = new Date().toISOString().slice(0, 10);
    expect(body.plans[0]).toMatchObject({
      installments: 3,
      paidInstallments: 1,
      installmentCents: 3000,
      paidCents: 3000,
      leftCents: 6000,
      currency: 'usd',
      nextAmountCents: 3000,
      pastDue: false,
    });
    // About a month from today (the provider's current period end).
    const due = Date.parse(body.plans[0].nextDueOn) - Date.parse(today);
    expect(due / 86400_000).toBeGreaterThanOrEqual(27);
    expect(due / 86400_000).toBeLessThanOrEqual(32);
    expect(body.card).toEqual({ brand: 'visa', last4: '4242' });

    const portal = await post(app, '/api/payments/card-update', undefined, { cookie: learner.cookie });
    expect(portal.statusCode, portal.body).toBe(200);
    const url = new URL(portal.json().url);
    expect(url.pathname).toMatch(/^\/sandbox\/billing\/bps_/);
    const pageRes = await app.inject({ method: 'GET', url: url.pathname });
    expect(pageRes.statusCode).toBe(200);
    expect(pageRes.body).toContain('Change your card');
    const bad = await app.inject({
      method: 'POST',
      url: url.pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ number: '4242 4242 4242 4241', exp: '12/34', cvc: '123' }).toString(),
    });
    expect(bad.statusCode).toBe(402);
    expect(bad.body).toMatch(/card number is invalid/);
    const saved = await app.inject({
      method: 'POST',
      url: url.pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ number: '5555 5555 5555 4444', exp: '12/34', cvc: '123' }).toString(),
    });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toMatch(/\/user\/settings\?card=updated#installments$/);
    expect((await get(app, '/api/payments/installments', { cookie: learner.cookie })).json().card).toEqual({
      brand: 'mastercard',
      last4: '4444',
    });
    const [p] = await queryRows<{ subscription_id: string }>(app, sql`select subscription_id from purchase where id = ${purchase.id}`);
    const sub = await app.stripe().subscriptions.retrieve(p.subscription_id);
    const pm = await app.stripe().paymentMethods.retrieve(sub.default_payment_method as string);
    expect(pm.card?.last4).toBe('4444');
  });

  it('without installments: an empty list, and no card page (400)', async () => {
    const learner = await makeLearner(app);
    expect((await get(app, '/api/payments/installments', { cookie: learner.cookie })).json()).toEqual({ plans: [], card: null });
    const portal = await post(app, '/api/payments/card-update', undefined, { cookie: learner.cookie });
    expect(portal.statusCode).toBe(400);
    expect((await get(app, '/api/payments/installments')).statusCode).toBe(401);
  });
});
