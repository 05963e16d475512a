import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TestApp } from '../../support/app.js';
import { dayFromNow, makeLearner, makePublishedCourse, queryRows, type Educator } from '../../support/courses.js';

type Learner = Educator;
import { outbox } from '../../support/factories.js';
import { get, post } from '../../support/http.js';
import {
  advanceCustomer,
  buildPaymentsApp,
  customerOf,
  makePayoutEducator,
  makePromoCode,
  payCheckout,
  paymentsOf,
  signedWebhook,
  startCheckout,
  waitFor,
  waitForPurchase,
  type Checkout,
} from '../../support/payments.js';

/**
 * Family accounts, the money side (issue 26 part 3, ADR 0074): one checkout for several
 * learners of an account. The price times the learners, a code on the total, installments on
 * the total exact to the cent in the provider's objects (the sandbox, read through the SDK)
 * and our records; every seat or a full refund; one learner dropped alone.
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

async function courseAt(priceCents: number, opts: { installments?: number; capacity?: number } = {}) {
  return makePublishedCourse(app, educator, {
    course: { priceCents, installments: opts.installments ?? null, title: `Family ${priceCents} ${serial++}` },
    session: {
      startsOn: dayFromNow(10),
      endsOn: dayFromNow(40 + 31 * (opts.installments ?? 1)),
      ...(opts.capacity ? { capacity: opts.capacity } : {}),
    },
  });
}

/** A parent with children's learner profiles (made in the database: the profiles' API is another helper's). */
async function parentWith(...names: string[]): Promise<Learner & { kids: string[] }> {
  const parent = await makeLearner(app);
  const kids: string[] = [];
  for (const name of names) {
    const [row] = await queryRows<{ id: string }>(
      app,
      sql`insert into learner_profile (account_id, first_name, age_min, age_max, ages_as_of)
          values (${parent.id}, ${name}, 9, 9, current_date) returning id`,
    );
    kids.push(row.id);
  }
  return { ...parent, kids };
}

const checkout = (
  who: { cookie: string },
  c: { courseId: string; sessionId: string },
  price: number,
  { installments, ...body }: { learnerIds?: string[]; code?: string; installments?: number } = {},
) => startCheckout(app, who, c.courseId, c.sessionId, price, installments, body);

async function paid(who: { cookie: string }, c: { courseId: string; sessionId: string }, price: number, body = {}) {
  const res = await checkout(who, c, price, body);
  expect(res.statusCode, res.body).toBe(200);
  const co = res.json() as Checkout;
  expect((await payCheckout(app, co)).statusCode).toBeLessThan(300);
  return { co, p: await waitForPurchase(app, co) };
}

const seatsOf = (purchaseId: string) =>
  queryRows<{ learner_profile_id: string | null; enrolment_id: string | null; share_cents: number; status: string }>(
    app,
    sql`select learner_profile_id, enrolment_id, share_cents, status from purchase_seat where purchase_id = ${purchaseId} order by position`,
  );
const liveEnrolments = (sessionId: string, accountId: string) =>
  queryRows<{ id: string; learner_profile_id: string | null; status: string }>(
    app,
    sql`select id, learner_profile_id, status from enrolment where session_id = ${sessionId} and learner_id = ${accountId} and status <> 'dropped' order by created_at`,
  );
const seatsTaken = async (sessionId: string) =>
  (await queryRows<{ seats_taken: number }>(app, sql`select seats_taken from course_session where id = ${sessionId}`))[0].seats_taken;

/** One learner of the account dropped alone (POST .../drop { learnerId }, ADR 0074). */
async function dropLearner(parent: Learner, c: { courseId: string; sessionId: string }, learnerId: string) {
  const res = await post(app, `/api/courses/${c.courseId}/sessions/${c.sessionId}/drop`, { learnerId }, { cookie: parent.cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { message: string; refund: { amountCents: number } | null };
}

describe('two learners, one payment', () => {
  it('charges 2 x the price; the webhook seats both; a replayed webhook changes nothing; receipts name them', async () => {
    const c = await courseAt(4999);
    const parent = await parentWith('Mia', 'Leo');
    const { co, p } = await paid(parent, c, 4999, { learnerIds: parent.kids });
    const cs = await app.stripe().checkout.sessions.retrieve(co.sessionId, { expand: ['line_items'] });
    expect(cs).toMatchObject({ amount_subtotal: 9998, amount_total: 9998 });
    expect(cs.line_items?.data[0]).toMatchObject({ quantity: 2, price: { unit_amount: 4999 } });
    const pi = await app.stripe().paymentIntents.retrieve(p.payment_intent_id!);
    expect(pi).toMatchObject({ amount: 9998, application_fee_amount: 1000 });
    expect((await paymentsOf(app, p.id)).map((x) => [x.amount_cents, x.fee_cents])).toEqual([[9998, 1000]]);
    const seats = await seatsOf(p.id);
    expect(seats.map((s) => [s.learner_profile_id, s.share_cents, s.status])).toEqual([
      [parent.kids[0], 4999, 'seated'],
      [parent.kids[1], 4999, 'seated'],
    ]);
    const enrolled = await liveEnrolments(c.sessionId, parent.id);
    expect(enrolled.map((e) => [e.learner_profile_id, e.status])).toEqual([
      [parent.kids[0], 'active'],
      [parent.kids[1], 'active'],
    ]);
    expect(seats.map((s) => s.enrolment_id).sort()).toEqual(enrolled.map((e) => e.id).sort());
    expect(await seatsTaken(c.sessionId)).toBe(2);

    for (let i = 0; i < 3; i++) {
      const event = JSON.stringify({
        id: `evt_family_${p.id}_${i % 2}`,
        object: 'event',
        type: 'checkout.session.completed',
        data: { object: { id: co.sessionId, object: 'checkout.session' } },
      });
      expect((await signedWebhook(app, event)).statusCode).toBe(200);
    }
    await get(app, `/api/stripe/verify-session?session_id=${co.sessionId}`, { cookie: parent.cookie });
    expect(await liveEnrolments(c.sessionId, parent.id)).toHaveLength(2);
    expect(await seatsTaken(c.sessionId)).toBe(2);
    expect(await paymentsOf(app, p.id)).toHaveLength(1);

    // The payment history says whom it was for.
    const history = (await get(app, '/api/payments', { cookie: parent.cookie })).json();
    expect(JSON.stringify(history)).toContain('Mia, Leo');
    const mail = await waitFor(async () => (await outbox(app, parent.email)).find((m) => /You're enrolled/.test(m.subject)), 'receipt');
    expect(mail.text).toContain('Mia, Leo');
  });

  it('refuses another account’s learner (404), a learner twice, and more learners than seats left', async () => {
    const c = await courseAt(3000, { capacity: 2 });
    const parent = await parentWith('Ana', 'Ben', 'Cy');
    const stranger = await parentWith('Zed');
    const other = await checkout(parent, c, 3000, { learnerIds: [parent.kids[0], stranger.kids[0]] });
    expect(other.statusCode).toBe(404);
    expect(other.json().error.fields.learnerIds).toBeDefined();
    const twice = await checkout(parent, c, 3000, { learnerIds: [parent.kids[0], parent.kids[0]] });
    expect(twice.statusCode).toBe(400);
    const three = await checkout(parent, c, 3000, { learnerIds: parent.kids });
    expect(three.statusCode).toBe(409);
    expect(three.json().error.message).toBe('This session has 2 seats left: choose at most 2 learners');
    const bad = await checkout(parent, c, 3000, { learnerIds: ['nobody'] });
    expect(bad.statusCode).toBe(400);
  });
});

describe('codes and installments on the total, exact to the cent', () => {
  it('a percent code is taken once on the total; an amount off once per purchase', async () => {
    const c = await courseAt(9999);
    const percent = (await makePromoCode(app, educator, { courseId: c.courseId })).json();
    const amount = (await makePromoCode(app, educator, { kind: 'amount', amountOffCents: 1000, courseId: c.courseId })).json();
    const a = await parentWith('Ivy', 'Jo');
    // 15 % of 2 x $99.99 = $29.997: $30.00 off $199.98 once, $169.98 paid.
    const quote = await post(
      app,
      `/api/course/${c.courseId}/checkout/promo-code`,
      { session: c.sessionId, code: percent.code, seats: 2 },
      { cookie: a.cookie },
    );
    expect(quote.json()).toMatchObject({ listPriceCents: 19998, discountCents: 3000, priceCents: 16998 });
    const one = await paid(a, c, 9999, { learnerIds: a.kids, code: percent.code });
    const cs = await app.stripe().checkout.sessions.retrieve(one.co.sessionId);
    expect(cs).toMatchObject({ amount_subtotal: 19998, amount_total: 16998, total_details: { amount_discount: 3000 } });
    expect((await paymentsOf(app, one.p.id)).map((x) => [x.amount_cents, x.fee_cents])).toEqual([[16998, 1700]]);
    expect((await seatsOf(one.p.id)).map((s) => s.share_cents)).toEqual([8499, 8499]);
    // The use counts once for the purchase (once per person, ADR 0070).
    const [uses] = await queryRows<{ uses: number }>(app, sql`select uses from promo_code where id = ${percent.id}`);
    expect(uses.uses).toBe(1);

    const b = await parentWith('Kai', 'Lu');
    const two = await paid(b, c, 9999, { learnerIds: ['me', ...b.kids], code: amount.code });
    const cs2 = await app.stripe().checkout.sessions.retrieve(two.co.sessionId);
    // $10.00 off 3 x $99.99 once: $289.97, split 96.66 + 96.66 + 96.65.
    expect(cs2).toMatchObject({ amount_subtotal: 29997, amount_total: 28997, total_details: { amount_discount: 1000 } });
    expect((await seatsOf(two.p.id)).map((s) => [s.learner_profile_id, s.share_cents])).toEqual([
      [null, 9666],
      [b.kids[0], 9666],
      [b.kids[1], 9665],
    ]);
  });

  it('2 x $100.01 in 3 with 15 % off is $170.02: 56.68 + 56.67 + 56.67, the provider’s invoices the same', async () => {
    const c = await courseAt(10001, { installments: 3 });
    const code = (await makePromoCode(app, educator, { courseId: c.courseId })).json();
    const parent = await parentWith('Noa', 'Oli');
    const quote = (
      await post(
        app,
        `/api/course/${c.courseId}/checkout/promo-code`,
        { session: c.sessionId, code: code.code, seats: 2 },
        { cookie: parent.cookie },
      )
    ).json();
    // 2 x $100.01 = $200.02; 15 % = $30.003: $30.00 off, $170.02 in 3.
    expect(quote).toMatchObject({ priceCents: 17002, installments: 3, installmentAmounts: [5668, 5667, 5667] });
    const { co, p } = await paid(parent, c, 10001, { learnerIds: parent.kids, code: code.code, installments: 3 });
    expect((await app.stripe().checkout.sessions.retrieve(co.sessionId)).amount_total).toBe(5668);
    const customer = await customerOf(app, parent);
    for (let m = 1; m < 3; m++) await advanceCustomer(app, customer, 31);
    await waitFor(async () => (await paymentsOf(app, p.id)).length === 3, '3 installments');
    expect((await paymentsOf(app, p.id)).map((x) => x.amount_cents)).toEqual([5668, 5667, 5667]);
    const invoices = (await app.stripe().invoices.list({ subscription: p.subscription_id!, limit: 100 })).data
      .filter((i) => i.status === 'paid')
      .sort((a, b) => a.created - b.created);
    expect(invoices.map((i) => i.amount_paid)).toEqual([5668, 5667, 5667]);
    // Each seat's part: 2834 + 2 x 2834 and 2834 + 2 x 2833.
    expect((await seatsOf(p.id)).map((s) => s.share_cents)).toEqual([8502, 8500]);
  });
});

describe('seats never over-sold', () => {
  it('two parents paying for 2 learners each when 3 seats are left: one is seated, the other refunded in full with the reason', async () => {
    const rounds = 3;
    const outcomes: string[] = [];
    for (let round = 0; round < rounds; round++) {
      const c = await courseAt(2500, { capacity: 3 });
      const parents = [await parentWith('P', 'Q'), await parentWith('R', 'S')];
      // Both checkouts open while 3 seats are left (each needs 2).
      const opened = await Promise.all(parents.map((x) => checkout(x, c, 2500, { learnerIds: x.kids })));
      for (const o of opened) expect(o.statusCode, o.body).toBe(200);
      const cos = opened.map((o) => o.json() as Checkout);
      const payments = await Promise.all(cos.map((co) => payCheckout(app, co)));
      for (const r of payments) expect(r.statusCode).toBeLessThan(300);
      const settled = await Promise.all(
        cos.map((co) =>
          waitFor(async () => {
            const [row] = await queryRows<{ id: string; status: string; failure_reason: string | null; payment_intent_id: string }>(
              app,
              sql`select id, status, failure_reason, payment_intent_id from purchase where checkout_session_id = ${co.sessionId}`,
            );
            return row && row.status !== 'open' ? row : null;
          }, 'settled'),
        ),
      );
      const won = settled.filter((s) => s.status === 'fulfilled');
      const lost = settled.filter((s) => s.status === 'refunded');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0].failure_reason).toBe('This session no longer has 2 seats left');
      expect(await seatsTaken(c.sessionId)).toBe(2);
      const loser = parents[settled.indexOf(lost[0])];
      expect(await liveEnrolments(c.sessionId, loser.id)).toHaveLength(0);
      expect((await seatsOf(lost[0].id)).map((s) => s.status)).toEqual(['refused', 'refused']);
      // Refunded in full at the provider (both learners' 2 x $25.00), the fee back too.
      const charge = await waitFor(async () => {
        const pi = await app.stripe().paymentIntents.retrieve(lost[0].payment_intent_id);
        const ch = await app.stripe().charges.retrieve(pi.latest_charge as string);
        return ch.amount_refunded === 5000 ? ch : null;
      }, 'full refund');
      expect(charge.refunded).toBe(true);
      const mail = await waitFor(
        async () => (await outbox(app, loser.email)).find((m) => /You have been refunded/.test(m.subject)),
        'the explanation',
      );
      expect(mail.text).toMatch(
        /We could not give you a seat in "[^"]+": this session no longer has 2 seats left\. You have been refunded \$50\.00 in full/,
      );
      outcomes.push(`round ${round + 1}: 2 parents x 2 learners, 3 seats: 2 taken, 1 purchase refunded $50.00`);
    }
    expect(outcomes).toHaveLength(rounds);
    console.info(outcomes.join('\n'));
  });
});

describe('a learner offered a seat from the waitlist', () => {
  it('the parent pays for that learner alone: the held seat becomes theirs, no seat over capacity', async () => {
    const c = await courseAt(3500, { capacity: 1 });
    const first = await makeLearner(app);
    await paid(first, c, 3500);
    const parent = await parentWith('Zoe');
    const waiting = await post(
      app,
      `/api/courses/${c.courseId}/sessions/${c.sessionId}/enrol`,
      { learnerIds: parent.kids },
      { cookie: parent.cookie },
    );
    expect(waiting.statusCode, waiting.body).toBe(200);
    expect((await liveEnrolments(c.sessionId, parent.id)).map((e) => e.status)).toEqual(['waitlisted']);
    const dropped = await post(app, `/api/courses/${c.courseId}/sessions/${c.sessionId}/drop`, undefined, { cookie: first.cookie });
    expect(dropped.statusCode, dropped.body).toBe(200);
    await waitFor(async () => (await liveEnrolments(c.sessionId, parent.id))[0]?.status === 'offered', 'the offer');
    const summary = await get(app, `/api/course/${c.courseId}/checkout?session=${c.sessionId}&learners=${parent.kids[0]}`, {
      cookie: parent.cookie,
    });
    expect(summary.json()).toMatchObject({ totalCents: 3500, learners: [{ id: parent.kids[0], name: 'Zoe' }] });
    expect(summary.json().seatHeldUntil).not.toBeNull();
    const { p } = await paid(parent, c, 3500, { learnerIds: parent.kids });
    expect((await liveEnrolments(c.sessionId, parent.id)).map((e) => [e.learner_profile_id, e.status])).toEqual([
      [parent.kids[0], 'active'],
    ]);
    expect(await seatsTaken(c.sessionId)).toBe(1);
    expect((await seatsOf(p.id)).map((s) => [s.share_cents, s.status])).toEqual([[3500, 'seated']]);
  });
});

describe('a crowd of families', () => {
  it('6 parents paying for 2 learners each when 7 seats are left: 3 seated (6 seats), 3 refunded in full, never 8', async () => {
    const c = await courseAt(1999, { capacity: 7 });
    const parents = await Promise.all(Array.from({ length: 6 }, (_, i) => parentWith(`A${i}`, `B${i}`)));
    const opened = await Promise.all(parents.map((x) => checkout(x, c, 1999, { learnerIds: x.kids })));
    for (const o of opened) expect(o.statusCode, o.body).toBe(200);
    const cos = opened.map((o) => o.json() as Checkout);
    await Promise.all(cos.map((co) => payCheckout(app, co)));
    const settled = await Promise.all(
      cos.map((co) =>
        waitFor(async () => {
          const [row] = await queryRows<{ id: string; status: string; payment_intent_id: string }>(
            app,
            sql`select id, status, payment_intent_id from purchase where checkout_session_id = ${co.sessionId}`,
          );
          return row && row.status !== 'open' ? row : null;
        }, 'settled'),
      ),
    );
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(3);
    const lost = settled.filter((s) => s.status === 'refunded');
    expect(lost).toHaveLength(3);
    expect(await seatsTaken(c.sessionId)).toBe(6);
    const [{ n }] = await queryRows<{ n: number }>(
      app,
      sql`select count(*)::int as n from enrolment where session_id = ${c.sessionId} and status = 'active'`,
    );
    expect(n).toBe(6);
    // Each refused purchase refunded in full at the provider: 3 x $39.98.
    let refunded = 0;
    for (const l of lost) {
      const ch = await waitFor(async () => {
        const pi = await app.stripe().paymentIntents.retrieve(l.payment_intent_id);
        const charge = await app.stripe().charges.retrieve(pi.latest_charge as string);
        return charge.amount_refunded === 3998 ? charge : null;
      }, 'refund');
      refunded += ch.amount_refunded;
    }
    expect(refunded).toBe(3 * 3998);
    console.info(
      `6 parents x 2 learners, 7 seats: 3 purchases seated (6 seats taken), 3 refunded in full ($${(refunded / 100).toFixed(2)})`,
    );
  });
});

describe('one learner dropped', () => {
  it('one payment: that learner’s share comes back, the other keeps the seat, the educator’s net exact', async () => {
    const c = await courseAt(4001);
    const parent = await parentWith('Uma', 'Vic');
    const before = (await get(app, '/api/educator/payouts', { cookie: educator.cookie })).json();
    const { p } = await paid(parent, c, 4001, { learnerIds: parent.kids });
    // 2 x $40.01 = $80.02, fee $8.00 (10 %); Uma's share $40.01, Vic's $40.01.
    const [, vic] = await liveEnrolments(c.sessionId, parent.id);
    // The drop page's figure for Uma is what the drop refunds.
    const preview = await get(app, `/api/courses/${c.courseId}/sessions/${c.sessionId}/drop-refund`, { cookie: parent.cookie });
    expect(preview.statusCode).toBe(404); // the account holder has no seat of their own here
    const forUma = await get(app, `/api/courses/${c.courseId}/sessions/${c.sessionId}/drop-refund?learnerId=${parent.kids[0]}`, {
      cookie: parent.cookie,
    });
    expect(forUma.json()).toMatchObject({ paid: true, amountCents: 4001, paidCents: 4001, full: true, stopsInstallments: false });
    // Another account asking about Uma: not found, as for an unknown learner.
    const stranger = await makeLearner(app);
    const peek = await get(app, `/api/courses/${c.courseId}/sessions/${c.sessionId}/drop-refund?learnerId=${parent.kids[0]}`, {
      cookie: stranger.cookie,
    });
    expect(peek.statusCode).toBe(404);
    const told = await dropLearner(parent, c, parent.kids[0]);
    expect(told.message).toBe('Uma has left this session. $40.01 (everything paid for Uma) is refunded to your card.');
    expect(told.refund?.amountCents).toBe(4001);
    const pay = await waitFor(async () => {
      const [row] = await paymentsOf(app, p.id);
      return row.refunded_cents === 4001 ? row : null;
    }, 'refund recorded');
    expect(pay).toMatchObject({ amount_cents: 8002, fee_cents: 800 });
    const pi = await app.stripe().paymentIntents.retrieve(p.payment_intent_id!);
    const charge = await app.stripe().charges.retrieve(pi.latest_charge as string);
    expect(charge).toMatchObject({ amount_refunded: 4001, refunded: false });
    const fee = await app.stripe().applicationFees.retrieve(charge.application_fee as string);
    expect(fee.amount_refunded).toBe(400);
    const [{ fee_refunded_cents }] = await queryRows<{ fee_refunded_cents: number }>(
      app,
      sql`select fee_refunded_cents from payment where purchase_id = ${p.id}`,
    );
    expect(fee_refunded_cents).toBe(400);
    expect((await liveEnrolments(c.sessionId, parent.id)).map((e) => e.id)).toEqual([vic.id]);
    expect((await seatsOf(p.id)).map((s) => s.status)).toEqual(['dropped', 'seated']);
    const [{ status }] = await queryRows<{ status: string }>(app, sql`select status from purchase where id = ${p.id}`);
    expect(status).toBe('fulfilled');
    expect(await seatsTaken(c.sessionId)).toBe(1);
    // The educator: gross 80.02, fee 8.00 - 4.00 back, refunds 40.01: net 80.02 - 8.00 - 40.01 + 4.00 = 36.01.
    const after = (await get(app, '/api/educator/payouts', { cookie: educator.cookie })).json();
    const usd = (x: { totals: { currency: string; netCents: number; grossCents: number }[] }) =>
      x.totals.find((t) => t.currency === 'usd') ?? { netCents: 0, grossCents: 0 };
    expect(usd(after).grossCents - usd(before).grossCents).toBe(8002);
    expect(usd(after).netCents - usd(before).netCents).toBe(3601);
  });

  it('installments: the dropped learner’s part of what was paid comes back and the remaining invoices are lowered', async () => {
    const c = await courseAt(10001, { installments: 3 });
    const parent = await parentWith('Wes', 'Xia');
    const { p } = await paid(parent, c, 10001, { learnerIds: parent.kids, installments: 3 });
    // $200.02 in 3: 66.68 + 66.67 + 66.67; Wes: 33.34 then 33.34 a month, Xia: 33.34 then 33.33.
    expect((await paymentsOf(app, p.id)).map((x) => x.amount_cents)).toEqual([6668]);
    const [, xia] = await liveEnrolments(c.sessionId, parent.id);
    const told = await dropLearner(parent, c, parent.kids[0]);
    expect(told.refund?.amountCents).toBe(3334);
    expect(told.message).toBe(
      "Wes has left this session. $33.34 (everything paid for Wes) is refunded to your card. The remaining installments are lowered by Wes's part.",
    );
    const sub = await waitFor(async () => {
      const s = await app.stripe().subscriptions.retrieve(p.subscription_id!);
      return s.items.data[0].price.unit_amount === 3333 ? s : null;
    }, 'subscription lowered');
    expect(sub.status).toBe('active');
    const customer = await customerOf(app, parent);
    for (let m = 1; m < 3; m++) await advanceCustomer(app, customer, 31);
    await waitFor(async () => (await paymentsOf(app, p.id)).length === 3, '3 installments');
    const payments = await paymentsOf(app, p.id);
    expect(payments.map((x) => x.amount_cents)).toEqual([6668, 3333, 3333]);
    expect(payments.map((x) => x.refunded_cents)).toEqual([3334, 0, 0]);
    // Xia's whole share was paid, exactly: 33.34 + 33.33 + 33.33; Wes's first part came back.
    expect(payments.reduce((n, x) => n + x.amount_cents - x.refunded_cents, 0)).toBe(10000);
    expect((await liveEnrolments(c.sessionId, parent.id)).map((e) => e.id)).toEqual([xia.id]);
  });
});
