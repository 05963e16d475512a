import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TestApp } from '../../support/app.js';
import { installmentSchedule } from '../../../src/shared/payments.js';
import { courseBody, dayFromNow, makeLearner, makePublishedCourse, queryRows, type Educator } from '../../support/courses.js';
import { get, post } from '../../support/http.js';
import {
  advanceCustomer,
  buildPaymentsApp,
  buy,
  customerOf,
  makePayoutEducator,
  paymentsOf,
  purchaseOf,
  waitFor,
  waitForPurchase,
} from '../../support/payments.js';

/**
 * Installments add up to the price exactly (decision 0017): the first payment carries the
 * cents the division leaves, the others are the price divided by N rounded down. The
 * checkout's summary, the purchase, the provider's invoices (the sandbox, through the SDK)
 * and our payment rows all say the same amounts.
 */
let app: TestApp;
let educator: Educator;

beforeAll(async () => {
  app = await buildPaymentsApp();
  educator = await makePayoutEducator(app);
});
afterAll(async () => {
  await app?.close();
});

/** A course at this price in N installments, with a session long enough for all of them. */
async function courseIn(priceCents: number, installments: number) {
  return makePublishedCourse(app, educator, {
    course: { priceCents, installments, title: `Schedule ${priceCents} in ${installments}` },
    session: { startsOn: dayFromNow(10), endsOn: dayFromNow(40 + 31 * installments) },
  });
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('the checkout summary', () => {
  it.each([
    [10000, 3, [3334, 3333, 3333]],
    [4500, 2, [2250, 2250]],
    [99999, 7, [14289, 14285, 14285, 14285, 14285, 14285, 14285]],
    [12000, 3, [4000, 4000, 4000]],
  ])('%i cents in %i payments: %j, adding up to the price', async (price, n, amounts) => {
    const { courseId, sessionId } = await courseIn(price, n);
    const learner = await makeLearner(app);
    const res = await get(app, `/api/course/${courseId}/checkout?session=${sessionId}`, { cookie: learner.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.installments).toBe(n);
    expect(body.installmentAmounts).toEqual(amounts);
    expect(sum(body.installmentAmounts)).toBe(price);
    expect(body.installmentCents).toBe(amounts[n - 1]);
  });

  it('$0.05 in 2 payments is not allowed (each payment is at least $20.00)', async () => {
    const res = await post(app, '/api/courses', courseBody({ priceCents: 5, installments: 2 }), { cookie: educator.cookie });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.installments).toMatch(/one payment/);
    // The arithmetic itself would still be exact.
    expect(installmentSchedule(5, 2)).toEqual([3, 2]);
  });
});

describe('what the provider charges', () => {
  it.each([
    [10000, 3, [3334, 3333, 3333]],
    [99999, 7, [14289, 14285, 14285, 14285, 14285, 14285, 14285]],
  ])('%i cents in %i: the invoices, our payments and the settings add up to the price', async (price, n, amounts) => {
    const { courseId, sessionId } = await courseIn(price, n);
    const learner = await makeLearner(app);
    const checkout = await buy(app, learner, courseId, sessionId, price, n);
    const p = await waitForPurchase(app, checkout);
    const [row] = await queryRows<{ amount_cents: number; installment_cents: number }>(
      app,
      sql`select amount_cents, installment_cents from purchase where id = ${p.id}`,
    );
    expect(row).toEqual({ amount_cents: price, installment_cents: amounts[n - 1] });
    await waitFor(async () => (await paymentsOf(app, p.id)).length === 1, 'first installment recorded');

    // Settings: after the first payment, the next is the later amount and what is left is exact.
    const mine = (await get(app, '/api/payments/installments', { cookie: learner.cookie })).json().plans[0];
    expect(mine).toMatchObject({
      installments: n,
      paidInstallments: 1,
      paidCents: amounts[0],
      leftCents: price - amounts[0],
      totalCents: price,
      nextAmountCents: amounts[1],
      installmentCents: amounts[1],
    });

    const customer = await customerOf(app, learner);
    for (let month = 1; month < n; month++) await advanceCustomer(app, customer, 31);
    await waitFor(async () => (await paymentsOf(app, p.id)).length === n, `${n} installments recorded`);
    const payments = await paymentsOf(app, p.id);
    expect(payments.map((x) => x.amount_cents)).toEqual(amounts);
    // The provider's side, read through the SDK: every paid invoice of the subscription.
    const invoices = await app.stripe().invoices.list({ subscription: p.subscription_id!, limit: 100 });
    const paid = invoices.data.filter((i) => i.status === 'paid').sort((a, b) => a.created - b.created);
    expect(paid.map((i) => i.amount_paid)).toEqual(amounts);
    expect(sum(paid.map((i) => i.amount_paid))).toBe(price);
    // One more month: nothing more is charged, the plan is complete.
    await advanceCustomer(app, customer, 31);
    await waitFor(async () => (await purchaseOf(app, checkout.sessionId))!.status === 'completed', 'purchase completed');
    expect((await paymentsOf(app, p.id)).map((x) => x.amount_cents)).toEqual(amounts);
  });
});
