import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExploreResult } from '../../../src/shared/courses-schemas.js';
import { pricingResult } from '../../../src/shared/payments-schemas.js';
import type { TestApp } from '../../support/app.js';
import { makeEducator, makeLearner, makePublishedCourse, type Educator } from '../../support/courses.js';
import { get, post } from '../../support/http.js';
import { buildPaymentsApp, customerOf, makePayoutEducator, payCheckout, paidSeat, paymentsOf, waitFor } from '../../support/payments.js';

/**
 * Platform plans (decision 0037): the fees the web app shows come from the server's
 * configuration (here a non-default PLATFORM_FEE_PERCENT of 12), and Educator Pro's
 * "Featured placement on /explore" is the explore answer's `featured` shelf, given with the
 * plan and taken back when it ends.
 */
let app: TestApp;

beforeAll(async () => {
  app = await buildPaymentsApp({ PLATFORM_FEE_PERCENT: '12' });
});
afterAll(async () => {
  await app?.close();
});

const explore = async (user: { cookie: string }) => {
  const res = await get(app, '/api/explore', { cookie: user.cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ExploreResult;
};

/** Buys Educator Pro for an educator with payouts, as /pricing does; waits for the lower fee. */
async function buyPro(educator: Educator): Promise<string> {
  const customer = await customerOf(app, educator);
  const res = await post(
    app,
    '/api/stripe/create-embedded-checkout-session',
    { customer, product: 'educator-pro', price: 2900 },
    { cookie: educator.cookie },
  );
  expect(res.statusCode, res.body).toBe(200);
  expect((await payCheckout(app, res.json())).statusCode).toBeLessThan(300);
  await waitFor(
    async () => (await get(app, '/api/educator/payouts', { cookie: educator.cookie })).json().plan.feePercent === 5,
    'pro plan',
  );
  return (await app.stripe().checkout.sessions.retrieve(res.json().sessionId)).subscription as string;
}

describe('fees come from the configuration', () => {
  it('GET /api/pricing answers the configured standard fee and writes it into the plan features', async () => {
    expect((await get(app, '/api/pricing')).statusCode).toBe(401);
    const learner = await makeLearner(app);
    const res = await get(app, '/api/pricing', { cookie: learner.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const pricing = pricingResult.parse(res.json());
    // Every kind of sale costs the same: one "per sale" line, read from the fee rule.
    expect(pricing.standard).toEqual({ feePercent: 12, fees: [{ label: 'per sale', feePercent: 12 }] });
    expect(pricing.plans).toEqual([
      expect.objectContaining({
        id: 'educator-pro',
        feePercent: 5,
        fees: [{ label: 'per sale', feePercent: 5 }],
        features: ['Platform fee of 5% instead of 12%', 'Featured placement on /explore', 'Priority support'],
      }),
    ]);
    expect(res.body).not.toMatch(/\b10%/);
  });

  it('a standard educator is told, and charged, the configured fee', async () => {
    const educator = await makePayoutEducator(app);
    expect((await get(app, '/api/educator/payouts', { cookie: educator.cookie })).json().plan).toEqual({ id: 'standard', feePercent: 12 });
    const { purchase } = await paidSeat(app, educator, { priceCents: 10000 });
    expect((await paymentsOf(app, purchase.id))[0].fee_cents).toBe(1200);
  });
});

describe('Educator Pro: featured placement on /explore', () => {
  it("a Pro educator's upcoming course is featured, another educator's is not, and ending the plan removes it", async () => {
    const pro = await makePayoutEducator(app, { firstName: 'Pia', lastName: 'Pro' });
    const other = await makeEducator(app, { firstName: 'Stan', lastName: 'Dard' });
    const { courseId: proCourse } = await makePublishedCourse(app, pro, { course: { title: 'Featured pottery' } });
    const { courseId: otherCourse } = await makePublishedCourse(app, other, { course: { title: 'Plain pottery' } });
    const learner = await makeLearner(app);

    const before = await explore(learner);
    // (Not asserted: that both are in "upcoming": that shelf holds the run's 12 soonest courses, other files' too.)
    expect(before.featured.map((c) => c.id)).not.toContain(proCourse);
    expect(before.featured.map((c) => c.id)).not.toContain(otherCourse);

    const subscription = await buyPro(pro);
    const during = await waitFor(async () => {
      const e = await explore(learner);
      return e.featured.some((c) => c.id === proCourse) && e;
    }, 'the featured course');
    expect(during.featured.map((c) => c.id)).not.toContain(otherCourse);
    // A course published while on the plan is featured too (the placement is the educator's).
    const { courseId: later } = await makePublishedCourse(app, pro, { course: { title: 'Featured glazing' } });
    expect((await explore(learner)).featured.map((c) => c.id)).toEqual(expect.arrayContaining([proCourse, later]));

    await app.stripe().subscriptions.cancel(subscription);
    await waitFor(async () => (await get(app, '/api/educator/payouts', { cookie: pro.cookie })).json().plan.feePercent === 12, 'standard');
    await waitFor(async () => {
      const e = await explore(learner);
      return !e.featured.some((c) => c.id === proCourse || c.id === later);
    }, 'the placement to end');
    // Still published and found like everyone's (the "upcoming" shelf holds the run's 12 soonest courses, other files' too).
    const page = await get(app, `/api/courses/${proCourse}`, { cookie: learner.cookie });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().status).toBe('published');
  });
});
