import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TestApp } from '../../support/app.js';
import { releaseLapsedHolds } from '../../../src/server/payments/promo-holds.js';
import { dayFromNow, makeLearner, makePublishedCourse, makeSession, queryRows, type Educator } from '../../support/courses.js';
import { outbox } from '../../support/factories.js';
import { get, post } from '../../support/http.js';
import {
  advanceCustomer,
  buildPaymentsApp,
  customerOf,
  inDays,
  makePayoutEducator,
  makePromoCode,
  payCheckout,
  paymentsOf,
  purchaseOf,
  signedWebhook,
  startCheckout,
  waitFor,
  waitForPurchase,
  type Checkout,
} from '../../support/payments.js';

/**
 * Promo codes (ADR 0070): educators' codes for their courses, the platform's; the price with a
 * code before paying, one payment and installments exact to the cent in the provider's objects
 * (the sandbox, read through the SDK), our purchase and payments, the code's revenue and the
 * payouts; refused codes with their messages; the last use under concurrency; a replayed
 * webhook; attempts rate-limited.
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

let serial = 0;
const uniqueCode = (prefix: string) => `${prefix}${Date.now().toString(36).toUpperCase()}${serial++}`;

async function courseAt(priceCents: number, installments?: number, sessions = 1) {
  const made = await makePublishedCourse(app, educator, {
    course: { priceCents, installments: installments ?? null, title: `Promo ${priceCents}` },
    session: { startsOn: dayFromNow(10), endsOn: dayFromNow(40 + 31 * (installments ?? 1)) },
  });
  const extra: string[] = [];
  for (let i = 1; i < sessions; i++)
    extra.push(
      await makeSession(app, educator, made.courseId, {
        startsOn: dayFromNow(20 + i),
        endsOn: dayFromNow(60 + 31 * (installments ?? 1) + i),
      }),
    );
  return { ...made, extra };
}

const makeCode = (body: Record<string, unknown>, who: { cookie: string } = educator) => makePromoCode(app, who, body);

const checkout = (learner: { cookie: string }, courseId: string, sessionId: string, price: number, code?: string, installments?: number) =>
  startCheckout(app, learner, courseId, sessionId, price, installments, { code });

const codeRow = async (id: string) =>
  (await queryRows<{ uses: number; max_uses: number }>(app, sql`select uses, max_uses from promo_code where id = ${id}`))[0];

describe('the OpenAPI document', () => {
  it('describes every promo code endpoint with its body', async () => {
    const doc = (await get(app, '/api/docs/json')).json();
    expect(doc.paths['/api/educator/promo-codes'].get).toBeDefined();
    expect(doc.paths['/api/educator/promo-codes'].post.requestBody).toBeDefined();
    expect(doc.paths['/api/educator/promo-codes/{codeId}/end'].post).toBeDefined();
    expect(doc.paths['/api/admin/promo-codes'].post.requestBody).toBeDefined();
    expect(doc.paths['/api/admin/promo-codes/{codeId}/end'].post).toBeDefined();
    expect(doc.paths['/api/course/{courseID}/checkout/promo-code'].post.requestBody).toBeDefined();
    const checkout = JSON.stringify(doc.paths['/api/stripe/course-embedded-checkout'].post.requestBody);
    expect(checkout).toContain('"code"');
  });
});

describe('an educator code, one payment', () => {
  it('the learner sees the new price, pays it; provider, purchase, payment, receipt, revenue and payout agree to the cent', async () => {
    const { courseId, sessionId } = await courseAt(9999);
    const created = await makeCode({ courseId, code: uniqueCode('SPRING'), percentOff: 15 });
    expect(created.statusCode, created.body).toBe(200);
    const code = created.json();
    expect(code).toMatchObject({ label: '15% off', used: 0, status: 'active', courseId });
    // The provider has the coupon and the promotion code.
    const [ids] = await queryRows<{ provider_coupon_id: string; provider_promotion_code_id: string }>(
      app,
      sql`select provider_coupon_id, provider_promotion_code_id from promo_code where id = ${code.id}`,
    );
    const promotion = await app.stripe().promotionCodes.retrieve(ids.provider_promotion_code_id);
    expect(promotion).toMatchObject({ code: code.code, active: true, max_redemptions: 10, promotion: { coupon: ids.provider_coupon_id } });
    expect(await app.stripe().coupons.retrieve(ids.provider_coupon_id)).toMatchObject({ percent_off: 15, duration: 'once' });

    const learner = await makeLearner(app);
    // Typed in small letters with spaces: the same code.
    const quote = await post(
      app,
      `/api/course/${courseId}/checkout/promo-code`,
      { session: sessionId, code: ` ${code.code.toLowerCase()} ` },
      { cookie: learner.cookie },
    );
    expect(quote.statusCode, quote.body).toBe(200);
    // 15 % of $99.99 = $14.9985: $15.00 off, $84.99 to pay.
    expect(quote.json()).toMatchObject({
      listPriceCents: 9999,
      discountCents: 1500,
      priceCents: 8499,
      currency: 'usd',
      onePaymentOnly: false,
    });

    const res = await checkout(learner, courseId, sessionId, 9999, code.code);
    expect(res.statusCode, res.body).toBe(200);
    const co = res.json() as Checkout;
    const cs = await app.stripe().checkout.sessions.retrieve(co.sessionId);
    expect(cs).toMatchObject({
      amount_subtotal: 9999,
      amount_total: 8499,
      total_details: { amount_discount: 1500 },
      discounts: [{ promotion_code: ids.provider_promotion_code_id }],
    });
    expect((await codeRow(code.id)).uses).toBe(1);
    expect((await payCheckout(app, co)).statusCode).toBeLessThan(300);
    const p = await waitForPurchase(app, co);
    const [row] = await queryRows<{ amount_cents: number; discount_cents: number }>(
      app,
      sql`select amount_cents, discount_cents from purchase where id = ${p.id}`,
    );
    expect(row).toEqual({ amount_cents: 8499, discount_cents: 1500 });
    const pay = (await paymentsOf(app, p.id))[0];
    const pi = await app.stripe().paymentIntents.retrieve(p.payment_intent_id!);
    // The educator's code: the fee is on what was paid (10 % of $84.99 = $8.50).
    expect(pay).toMatchObject({ amount_cents: 8499, fee_cents: 850 });
    expect(pi).toMatchObject({ amount: 8499, application_fee_amount: 850 });
    expect((await app.stripe().promotionCodes.retrieve(ids.provider_promotion_code_id)).times_redeemed).toBe(1);

    // The receipt says the code and the amounts.
    const mail = await waitFor(async () => (await outbox(app, learner.email)).find((m) => /You're enrolled/.test(m.subject)), 'receipt');
    expect(mail.text).toContain(`code ${code.code}: −$15.00 off $99.99, $84.99 in all`);

    // The educator sees the use and the revenue; the payouts' net is the same money.
    const list = (await get(app, '/api/educator/promo-codes', { cookie: educator.cookie })).json().codes;
    expect(list.find((c: { id: string }) => c.id === code.id)).toMatchObject({
      used: 1,
      held: 0,
      revenue: [{ currency: 'usd', cents: 8499 }],
      discounted: [{ currency: 'usd', cents: 1500 }],
    });
    // The educator's first sale: the payouts' totals and the analytics say the same cents.
    const payouts = (await get(app, '/api/educator/payouts', { cookie: educator.cookie })).json();
    expect(payouts.totals).toEqual([expect.objectContaining({ currency: 'usd', grossCents: 8499, feeCents: 850, netCents: 7649 })]);
    await waitFor(async () => {
      const a = await get(app, `/api/educator/${educator.id}/analytics?course=${courseId}`, { cookie: educator.cookie });
      const row = a.json().table?.find((r: { courseId: string }) => r.courseId === courseId);
      return row?.revenue?.[0]?.gross === 8499 ? row : null;
    }, 'analytics revenue');
    const analytics = (await get(app, `/api/educator/${educator.id}/analytics?course=${courseId}`, { cookie: educator.cookie })).json();
    expect(analytics.table.find((r: { courseId: string }) => r.courseId === courseId).revenue).toEqual([
      { currency: 'usd', gross: 8499, refunds: 0, net: 7649 },
    ]);

    // Once per person.
    const again = await post(
      app,
      `/api/course/${courseId}/checkout/promo-code`,
      { session: sessionId, code: code.code },
      { cookie: learner.cookie },
    );
    expect(again.statusCode).toBe(400);
    expect(again.json().error.fields.code).toBe('You have already used this code: it can be used once per person.');

    // A replayed checkout.session.completed changes nothing twice.
    const event = JSON.stringify({
      id: `evt_replay_${p.id}`,
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { id: co.sessionId, object: 'checkout.session' } },
    });
    for (let i = 0; i < 2; i++) expect((await signedWebhook(app, event)).statusCode).toBe(200);
    const again2 = JSON.stringify({ ...JSON.parse(event), id: `evt_replay2_${p.id}` });
    expect((await signedWebhook(app, again2)).statusCode).toBe(200);
    expect(await paymentsOf(app, p.id)).toHaveLength(1);
    expect((await codeRow(code.id)).uses).toBe(1);
    const [r] = await queryRows<{ n: number }>(
      app,
      sql`select count(*)::int as n from promo_redemption where promo_code_id = ${code.id} and status = 'confirmed'`,
    );
    expect(r.n).toBe(1);
  });
});

describe('installments with a code', () => {
  it('$100 − 15 % over 3 is 28.34 + 28.33 + 28.33: the quote, the invoices and our payments', async () => {
    const { courseId, sessionId } = await courseAt(10000, 3);
    const code = (await makeCode({ courseId, code: uniqueCode('PLAN'), percentOff: 15 })).json();
    const learner = await makeLearner(app);
    const quote = (
      await post(app, `/api/course/${courseId}/checkout/promo-code`, { session: sessionId, code: code.code }, { cookie: learner.cookie })
    ).json();
    expect(quote).toMatchObject({ priceCents: 8500, discountCents: 1500, installments: 3, installmentAmounts: [2834, 2833, 2833] });

    const res = await checkout(learner, courseId, sessionId, 10000, code.code, 3);
    expect(res.statusCode, res.body).toBe(200);
    const co = res.json() as Checkout;
    const cs = await app.stripe().checkout.sessions.retrieve(co.sessionId);
    expect(cs.amount_total).toBe(2834);
    expect((await payCheckout(app, co)).statusCode).toBeLessThan(300);
    const p = await waitForPurchase(app, co);
    const [row] = await queryRows<{ amount_cents: number; installment_cents: number; discount_cents: number }>(
      app,
      sql`select amount_cents, installment_cents, discount_cents from purchase where id = ${p.id}`,
    );
    expect(row).toEqual({ amount_cents: 8500, installment_cents: 2833, discount_cents: 1500 });
    const customer = await customerOf(app, learner);
    for (let m = 1; m < 3; m++) await advanceCustomer(app, customer, 31);
    await waitFor(async () => (await paymentsOf(app, p.id)).length === 3, '3 installments');
    const payments = await paymentsOf(app, p.id);
    expect(payments.map((x) => x.amount_cents)).toEqual([2834, 2833, 2833]);
    // The fee on each, as the provider took it (10 % of each invoice).
    expect(payments.map((x) => x.fee_cents)).toEqual([283, 283, 283]);
    const invoices = (await app.stripe().invoices.list({ subscription: p.subscription_id!, limit: 100 })).data
      .filter((i) => i.status === 'paid')
      .sort((a, b) => a.created - b.created);
    expect(invoices.map((i) => i.amount_paid)).toEqual([2834, 2833, 2833]);
    expect(invoices.every((i) => (i.total_discount_amounts ?? [])[0]?.amount === 500)).toBe(true);
    const sub = await app.stripe().subscriptions.retrieve(p.subscription_id!);
    expect(sub.discounts).toHaveLength(1);
    const list = (await get(app, '/api/educator/promo-codes', { cookie: educator.cookie })).json().codes;
    expect(list.find((c: { id: string }) => c.id === code.id).revenue).toEqual([{ currency: 'usd', cents: 8500 }]);
  });
});

describe('refused codes, with messages a person understands (field code)', () => {
  it('unknown, another course, another session, not started, expired, ended early, used up, wrong currency', async () => {
    const a = await courseAt(5000, undefined, 2);
    const b = await courseAt(6000);
    const learner = await makeLearner(app);
    const quote = (courseId: string, sessionId: string, code: string) =>
      post(app, `/api/course/${courseId}/checkout/promo-code`, { session: sessionId, code }, { cookie: learner.cookie });
    const refusal = async (courseId: string, sessionId: string, code: string) => {
      const res = await quote(courseId, sessionId, code);
      expect(res.statusCode, res.body).toBe(400);
      return res.json().error.fields.code as string;
    };
    expect(await refusal(a.courseId, a.sessionId, 'NOPE-NOT-A-CODE')).toBe('This code does not exist. Check it and try again.');
    const forB = (await makeCode({ courseId: b.courseId })).json();
    expect(await refusal(a.courseId, a.sessionId, forB.code)).toBe('This code is for another course.');
    const oneSession = (await makeCode({ courseId: a.courseId, sessionIds: [a.extra[0]] })).json();
    expect(await refusal(a.courseId, a.sessionId, oneSession.code)).toMatch(/not valid for this session/);
    expect((await quote(a.courseId, a.extra[0], oneSession.code)).statusCode).toBe(200);
    const later = (await makeCode({ courseId: a.courseId, startsAt: inDays(2), endsAt: inDays(9) })).json();
    expect(later.status).toBe('scheduled');
    expect(await refusal(a.courseId, a.sessionId, later.code)).toMatch(/^This code can be used from /);
    const expiring = (await makeCode({ courseId: a.courseId })).json();
    await queryRows(
      app,
      sql`update promo_code set starts_at = now() - interval '3 days', ends_at = now() - interval '1 day' where id = ${expiring.id}`,
    );
    expect(await refusal(a.courseId, a.sessionId, expiring.code)).toMatch(/^This code expired on /);
    const ended = (await makeCode({ courseId: a.courseId })).json();
    const end = await post(app, `/api/educator/promo-codes/${ended.id}/end`, {}, { cookie: educator.cookie });
    expect(end.statusCode, end.body).toBe(200);
    expect(end.json().status).toBe('ended');
    expect(await refusal(a.courseId, a.sessionId, ended.code)).toBe('This code has ended.');
    const [pc] = await queryRows<{ provider_promotion_code_id: string }>(
      app,
      sql`select provider_promotion_code_id from promo_code where id = ${ended.id}`,
    );
    expect((await app.stripe().promotionCodes.retrieve(pc.provider_promotion_code_id)).active).toBe(false);
    const usedUp = (await makeCode({ courseId: a.courseId, maxUses: 1 })).json();
    await queryRows(app, sql`update promo_code set uses = 1 where id = ${usedUp.id}`);
    expect(await refusal(a.courseId, a.sessionId, usedUp.code)).toBe('This code has been used as many times as it can be.');
    // The checkout itself refuses the same way (a code is never trusted from the page).
    const co = await checkout(learner, a.courseId, a.sessionId, 5000, usedUp.code);
    expect(co.statusCode).toBe(400);
    expect(co.json().error.fields.code).toBe('This code has been used as many times as it can be.');
    // Creation checks: an amount off leaving less than $0.50, the end before the start, another's course.
    const tooMuch = await makeCode({ courseId: a.courseId, kind: 'amount', amountOffCents: 4990 });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error.fields.amountOffCents).toMatch(/At most \$49\.50/);
    const backwards = await makeCode({ courseId: a.courseId, startsAt: inDays(5), endsAt: inDays(2) });
    expect(backwards.statusCode).toBe(400);
    const other = await makePayoutEducator(app);
    expect((await makeCode({ courseId: a.courseId }, other)).statusCode).toBe(404);
    expect((await post(app, `/api/educator/promo-codes/${usedUp.id}/end`, {}, { cookie: other.cookie })).statusCode).toBe(404);
    const taken = await makeCode({ courseId: a.courseId, code: usedUp.code });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.fields.code).toBe('This code is already taken');
  });

  it('codes that do not exist are rate-limited per person (10 misses in 15 minutes), real codes are not counted', async () => {
    const a = await courseAt(5000);
    const code = (await makeCode({ courseId: a.courseId })).json();
    const learner = await makeLearner(app);
    const quote = (c: string) =>
      post(app, `/api/course/${a.courseId}/checkout/promo-code`, { session: a.sessionId, code: c }, { cookie: learner.cookie });
    for (let i = 0; i < 5; i++) expect((await quote(code.code)).statusCode).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await quote(`GUESS${i}XX`)).statusCode);
    expect(statuses).toEqual([...Array(10).fill(400), 429, 429]);
    const limited = await quote(code.code);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.message).toMatch(/Too many codes tried/);
  });
});

describe('exact under concurrency', () => {
  it.each([
    [8, 1],
    [12, 3],
  ])('%i concurrent checkouts for a code with %i use(s) left: exactly that many get it', async (N, left) => {
    const { courseId, sessionId } = await courseAt(5000);
    const code = (await makeCode({ courseId, maxUses: 5 })).json();
    await queryRows(app, sql`update promo_code set uses = ${5 - left} where id = ${code.id}`);
    const learners = await Promise.all(Array.from({ length: N }, () => makeLearner(app)));
    for (const l of learners) await customerOf(app, l);
    const results = await Promise.all(learners.map((l) => checkout(l, courseId, sessionId, 5000, code.code)));
    const ok = results.filter((r) => r.statusCode === 200);
    const refused = results.filter((r) => r.statusCode === 400);
    console.log(`promo uses: ${N} concurrent checkouts, ${left} left -> ${ok.length} got it, ${refused.length} refused`);
    expect(ok).toHaveLength(left);
    expect(refused).toHaveLength(N - left);
    for (const r of refused) expect(r.json().error.fields.code).toBe('This code has been used as many times as it can be.');
    expect((await codeRow(code.id)).uses).toBe(5);
    const [{ n }] = await queryRows<{ n: number }>(app, sql`select count(*)::int as n from purchase where promo_code_id = ${code.id}`);
    expect(n).toBe(left);
    if (left !== 1) return;

    // The winner's checkout expires unpaid: the use goes back (once, even if the event comes twice).
    const winner = ok[0].json() as Checkout;
    await app.stripe().checkout.sessions.expire(winner.sessionId);
    await waitFor(async () => (await purchaseOf(app, winner.sessionId))?.status === 'expired', 'expired');
    await waitFor(async () => (await codeRow(code.id)).uses === 4, 'use released');
    const event = JSON.stringify({
      id: `evt_expired_${winner.sessionId}`,
      object: 'event',
      type: 'checkout.session.expired',
      data: { object: { id: winner.sessionId, object: 'checkout.session' } },
    });
    expect((await signedWebhook(app, event)).statusCode).toBe(200);
    expect((await codeRow(code.id)).uses).toBe(4);
  });

  it('a checkout with a code is payable for an hour; an abandoned one gives its use back even without the expiry event', async () => {
    const { courseId, sessionId } = await courseAt(5000);
    const code = (await makeCode({ courseId, maxUses: 1 })).json();
    const learner = await makeLearner(app);
    const key = `promo-retry-${Date.now()}`;
    const customer = await customerOf(app, learner);
    const body = { customer, course: courseId, session: sessionId, price: 5000, code: code.code };
    const first = await post(app, '/api/stripe/course-embedded-checkout', body, {
      cookie: learner.cookie,
      headers: { 'idempotency-key': key },
    });
    expect(first.statusCode, first.body).toBe(200);
    // A retried request (same key): the same checkout, one use held.
    const again = await post(app, '/api/stripe/course-embedded-checkout', body, {
      cookie: learner.cookie,
      headers: { 'idempotency-key': key },
    });
    expect(again.json().sessionId).toBe(first.json().sessionId);
    expect((await codeRow(code.id)).uses).toBe(1);
    const cs = await app.stripe().checkout.sessions.retrieve(first.json().sessionId);
    expect(cs.expires_at - cs.created).toBeGreaterThanOrEqual(3500);
    expect(cs.expires_at - cs.created).toBeLessThanOrEqual(3700);
    // Two hours later (the hold and the provider's session both backdated), no event came: the sweep releases it.
    await queryRows(app, sql`update promo_redemption set created_at = now() - interval '2 hours' where promo_code_id = ${code.id}`);
    await queryRows(
      app,
      sql`update stripe_sandbox.object set data = jsonb_set(data, '{expires_at}', to_jsonb(extract(epoch from now())::int - 3600)) where id = ${cs.id}`,
    );
    expect(await releaseLapsedHolds(app)).toBeGreaterThanOrEqual(1);
    expect((await codeRow(code.id)).uses).toBe(0);
    expect((await purchaseOf(app, cs.id))?.status).toBe('expired');
    // The use is back: another learner can take it.
    const other = await makeLearner(app);
    expect((await checkout(other, courseId, sessionId, 5000, code.code)).statusCode).toBe(200);
  });

  it('the same person opening a second checkout with the code (another way to pay): the first is expired, one use held', async () => {
    const { courseId, sessionId } = await courseAt(10000, 3);
    const code = (await makeCode({ courseId, maxUses: 1 })).json();
    const learner = await makeLearner(app);
    const first = await checkout(learner, courseId, sessionId, 10000, code.code);
    expect(first.statusCode, first.body).toBe(200);
    const second = await checkout(learner, courseId, sessionId, 10000, code.code, 3);
    expect(second.statusCode, second.body).toBe(200);
    expect((await app.stripe().checkout.sessions.retrieve(first.json().sessionId)).status).toBe('expired');
    expect((await codeRow(code.id)).uses).toBe(1);
  });
});

describe('platform codes', () => {
  it('admins create them; the platform bears the discount out of its fee; another educator cannot end one', async () => {
    const admin = await makeLearner(app);
    await queryRows(app, sql`update "user" set role = 'admin' where id = ${admin.id}`);
    const created = await post(
      app,
      '/api/admin/promo-codes',
      {
        code: uniqueCode('WELCOME'),
        kind: 'amount',
        amountOffCents: 500,
        currency: 'usd',
        startsAt: inDays(-1),
        endsAt: inDays(10),
        maxUses: 100,
      },
      { cookie: admin.cookie },
    );
    expect(created.statusCode, created.body).toBe(200);
    const code = created.json();
    expect(code).toMatchObject({ courseId: null, label: '$5.00 off' });
    expect(
      (
        await post(
          app,
          '/api/admin/promo-codes',
          { kind: 'percent', percentOff: 5, startsAt: inDays(0), endsAt: inDays(1), maxUses: 1 },
          { cookie: educator.cookie },
        )
      ).statusCode,
    ).toBe(403);
    expect((await post(app, `/api/educator/promo-codes/${code.id}/end`, {}, { cookie: educator.cookie })).statusCode).toBe(404);

    const { courseId, sessionId } = await courseAt(10000, 3);
    const learner = await makeLearner(app);
    const quote = (
      await post(app, `/api/course/${courseId}/checkout/promo-code`, { session: sessionId, code: code.code }, { cookie: learner.cookie })
    ).json();
    expect(quote).toMatchObject({ priceCents: 9500, onePaymentOnly: true, installments: null });
    const inst = await checkout(learner, courseId, sessionId, 10000, code.code, 3);
    expect(inst.statusCode).toBe(400);
    expect(inst.json().error.fields.code).toBe('This code is for one payment only');
    const res = await checkout(learner, courseId, sessionId, 10000, code.code);
    expect(res.statusCode, res.body).toBe(200);
    const co = res.json() as Checkout;
    expect((await payCheckout(app, co)).statusCode).toBeLessThan(300);
    const p = await waitForPurchase(app, co);
    // Fee: 10 % of the list price ($10.00) less the $5.00 discount = $5.00; the educator gets $90.00 as without the code.
    const pay = (await paymentsOf(app, p.id))[0];
    expect(pay).toMatchObject({ amount_cents: 9500, fee_cents: 500 });
    expect(pay.amount_cents - pay.fee_cents).toBe(9000);
    const pi = await app.stripe().paymentIntents.retrieve(p.payment_intent_id!);
    expect(pi.application_fee_amount).toBe(500);
    const list = (await get(app, '/api/admin/promo-codes', { cookie: admin.cookie })).json().codes;
    expect(list.find((c: { id: string }) => c.id === code.id)).toMatchObject({ used: 1, revenue: [{ currency: 'usd', cents: 9500 }] });
    // A course in another currency: refused with the reason.
    const eur = await makePublishedCourse(app, educator, { course: { priceCents: 8000, currency: 'eur', title: 'Euro course' } });
    const wrong = await post(
      app,
      `/api/course/${eur.courseId}/checkout/promo-code`,
      { session: eur.sessionId, code: code.code },
      { cookie: learner.cookie },
    );
    expect(wrong.json().error.fields.code).toMatch(/for prices in USD/);
    const ended = await post(app, `/api/admin/promo-codes/${code.id}/end`, {}, { cookie: admin.cookie });
    expect(ended.json().status).toBe('ended');
  });
});
