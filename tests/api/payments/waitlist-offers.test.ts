import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { enrolLearner } from '../../../src/server/courses/seats.js';
import type { TestApp } from '../../support/app.js';
import {
  courseBody,
  drop,
  enrol,
  enrolmentCounts,
  getCourse,
  makeLearner,
  makePublishedCourse,
  patchSession,
  queryRows,
  seatsTaken,
} from '../../support/courses.js';
import { outbox } from '../../support/factories.js';
import { get, post } from '../../support/http.js';
import {
  buildPaymentsApp,
  buy,
  makePayoutEducator,
  payCheckout,
  paymentsOf,
  purchaseOf,
  startCheckout,
  waitFor,
  waitForPurchase,
  type Checkout,
} from '../../support/payments.js';

/**
 * A paid session's waitlist (issue 26.1, ADR 0067): joining takes no payment; a freed seat is
 * offered to the first in line and held for them; they claim it by paying; an offer that
 * lapses or is declined moves to the next. Real PostgreSQL, the payments sandbox over HTTP.
 */
let app: TestApp;
let educator: Awaited<ReturnType<typeof makePayoutEducator>>;

beforeAll(async () => {
  app = await buildPaymentsApp();
  educator = await makePayoutEducator(app);
});
afterAll(async () => {
  await app?.close();
});

type Learner = Awaited<ReturnType<typeof makeLearner>>;

async function enrolmentOf(sessionId: string, learner: Learner) {
  const [row] = await queryRows<{ id: string; status: string; offer_expires_at: string | null; expires_in_s: number | null }>(
    app,
    sql`select id, status, offer_expires_at,
          extract(epoch from offer_expires_at - now())::int as expires_in_s
        from enrolment where session_id = ${sessionId} and learner_id = ${learner.id}
        order by created_at desc limit 1`,
  );
  return row;
}

/** The clock moves past the offer's end (the test does not wait a real hold): the offer and its job are due. */
async function timePasses(enrolmentId: string) {
  await queryRows(app, sql`update enrolment set offer_expires_at = now() - interval '1 second' where id = ${enrolmentId}`);
  await queryRows(app, sql`update job set run_at = now() - interval '1 second' where key = ${`waitlist-offer:${enrolmentId}`}`);
}

const decline = (learner: Learner, courseId: string, sessionId: string) =>
  post(app, `/api/courses/${courseId}/sessions/${sessionId}/offer/decline`, undefined, { cookie: learner.cookie });

/** A full paid session (capacity 1, bought by `holder`) with `waiting` learners on its waitlist, in order. */
async function fullPaidSession(priceCents: number, waiting: number, course: Record<string, unknown> = {}) {
  const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents, ...course }, session: { capacity: 1 } });
  const holder = await makeLearner(app);
  await waitForPurchase(app, await buy(app, holder, courseId, sessionId, priceCents));
  const line: Learner[] = [];
  for (let i = 0; i < waiting; i++) {
    const l = await makeLearner(app);
    const res = await enrol(app, l, courseId, sessionId);
    expect(res.statusCode, res.body).toBe(200);
    line.push(l);
  }
  return { courseId, sessionId, holder, line };
}

describe('joining the waitlist of a full paid session', () => {
  it('takes no payment: a waitlisted enrolment with its place in line, and the checkout says so', async () => {
    const { courseId, sessionId, line } = await fullPaidSession(3000, 2);
    const [b, c] = line;
    expect(await enrolmentCounts(app, sessionId)).toEqual({ active: 1, waitlisted: 2 });
    const again = await enrol(app, c, courseId, sessionId);
    expect(again.statusCode).toBe(409);
    const page = await getCourse(app, c, courseId);
    expect(page.json().sessions[0].myEnrolment).toMatchObject({ status: 'waitlisted', waitlistPosition: 2 });
    // No purchase was opened for anyone on the line.
    const purchases = await queryRows<{ n: number }>(
      app,
      sql`select count(*)::int as n from purchase where session_id = ${sessionId} and user_id in (${b.id}, ${c.id})`,
    );
    expect(Number(purchases[0].n)).toBe(0);
    const checkout = await startCheckout(app, c, courseId, sessionId, 3000);
    expect(checkout.statusCode).toBe(409);
    expect(checkout.json().error).toMatchObject({ code: 'on_waitlist', message: expect.stringMatching(/number 2 on the waitlist/) });
    const outsider = await makeLearner(app);
    const full = await startCheckout(app, outsider, courseId, sessionId, 3000);
    expect(full.statusCode).toBe(409);
    expect(full.json().error).toMatchObject({ code: 'session_full', message: expect.stringMatching(/join its waitlist/) });
  });

  it('the first enrol answer says there is nothing to pay now', async () => {
    const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: 2500 }, session: { capacity: 1 } });
    await buy(app, await makeLearner(app), courseId, sessionId, 2500);
    await waitFor(async () => (await seatsTaken(app, sessionId)).seatsTaken === 1, 'seat taken');
    const res = await enrol(app, await makeLearner(app), courseId, sessionId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ next: null, enrolment: { status: 'waitlisted', waitlistPosition: 1 } });
    expect(res.json().message).toMatch(/Nothing to pay now/);
  });
});

describe('a freed seat is offered to the first in line', () => {
  it('a drop: the seat is held for the first (nobody else can buy it), told in the app and by email; they claim it by paying', async () => {
    const { courseId, sessionId, holder, line } = await fullPaidSession(4200, 2, { waitlistHoldMinutes: 90 });
    const [b, c] = line;
    const dropped = await drop(app, holder, courseId, sessionId);
    expect(dropped.statusCode, dropped.body).toBe(200);

    const offer = await enrolmentOf(sessionId, b);
    expect(offer.status).toBe('offered');
    // The educator's hold: 90 minutes from now (a few seconds of slack for a slow machine).
    expect(offer.expires_in_s).toBeGreaterThan(90 * 60 - 30);
    expect(offer.expires_in_s).toBeLessThanOrEqual(90 * 60);
    expect(await seatsTaken(app, sessionId)).toEqual({ seatsTaken: 1, capacity: 1 });
    expect((await enrolmentOf(sessionId, c)).status).toBe('waitlisted');

    // One expiry job, keyed, at the offer's end.
    const jobs = await queryRows<{ n: number; at_end: boolean }>(
      app,
      sql`select count(*)::int as n, bool_and(run_at = ${offer.offer_expires_at}::timestamptz) as at_end from job where key = ${`waitlist-offer:${offer.id}`}`,
    );
    expect(Number(jobs[0].n)).toBe(1);
    expect(jobs[0].at_end).toBe(true);

    // Told in the app (a notification of its own, linking to the checkout) and by email.
    const list = await get(app, '/api/notifications', { cookie: b.cookie });
    const note = list.json().notifications.find((n: { type: string }) => n.type === 'waitlist_offer');
    expect(note, list.body).toBeTruthy();
    expect(note.link).toBe(`/course/checkout?course=${courseId}&session=${sessionId}`);
    expect(note.body).toMatch(/held for you until/);
    const mail = await waitFor(async () => (await outbox(app, b.email)).find((m) => /is held for you/.test(m.subject)), 'offer email');
    expect(mail.text).toMatch(/Claim your seat/);
    expect(mail.text).toContain(`/course/checkout?course=${courseId}&session=${sessionId}`);

    // Nobody else can buy the held seat; the one behind cannot either; another cannot decline it.
    const outsider = await makeLearner(app);
    expect((await startCheckout(app, outsider, courseId, sessionId, 4200)).json().error.code).toBe('session_full');
    expect((await startCheckout(app, c, courseId, sessionId, 4200)).json().error.code).toBe('on_waitlist');
    const notTheirs = await decline(outsider, courseId, sessionId);
    expect(notTheirs.statusCode).toBe(404);
    expect(notTheirs.json().error.message).toBe('You have no offer of a seat in this session');
    expect((await enrolmentOf(sessionId, b)).status).toBe('offered');

    // The checkout they know: the summary says the seat is held for them.
    const summary = await get(app, `/api/course/${courseId}/checkout?session=${sessionId}`, { cookie: b.cookie });
    expect(summary.statusCode, summary.body).toBe(200);
    expect(new Date(summary.json().seatHeldUntil).getTime()).toBe(new Date(offer.offer_expires_at!).getTime());
    const paid = await waitForPurchase(app, await buy(app, b, courseId, sessionId, 4200));
    expect(paid.enrolment_id).toBe(offer.id);
    expect((await enrolmentOf(sessionId, b)).status).toBe('active');
    expect(await seatsTaken(app, sessionId)).toEqual({ seatsTaken: 1, capacity: 1 });
    expect(await enrolmentCounts(app, sessionId)).toMatchObject({ active: 1, waitlisted: 1 });
    // Claimed: the expiry job, when it runs, changes nothing.
    await timePasses(offer.id);
    await app.jobs.runDue();
    expect((await enrolmentOf(sessionId, b)).status).toBe('active');
    expect((await enrolmentOf(sessionId, c)).status).toBe('waitlisted');
  });

  it('in installments too', async () => {
    const { courseId, sessionId, holder, line } = await fullPaidSession(9000, 1, { installments: 3 });
    await drop(app, holder, courseId, sessionId);
    expect((await enrolmentOf(sessionId, line[0])).status).toBe('offered');
    const p = await waitForPurchase(app, await buy(app, line[0], courseId, sessionId, 9000, 3));
    expect(p.subscription_id).toBeTruthy();
    expect((await enrolmentOf(sessionId, line[0])).status).toBe('active');
  });

  it('a capacity raise offers the new seats, in order; a free session keeps its automatic promotion', async () => {
    const { courseId, sessionId, line } = await fullPaidSession(2000, 3);
    const res = await patchSession(app, educator, courseId, sessionId, { capacity: 3 });
    expect(res.statusCode, res.body).toBe(200);
    expect((await enrolmentOf(sessionId, line[0])).status).toBe('offered');
    expect((await enrolmentOf(sessionId, line[1])).status).toBe('offered');
    expect((await enrolmentOf(sessionId, line[2])).status).toBe('waitlisted');
    expect(await seatsTaken(app, sessionId)).toEqual({ seatsTaken: 3, capacity: 3 });

    const free = await makePublishedCourse(app, educator, { course: { priceCents: 0 }, session: { capacity: 1 } });
    const first = await makeLearner(app);
    const second = await makeLearner(app);
    await enrol(app, first, free.courseId, free.sessionId);
    await enrol(app, second, free.courseId, free.sessionId);
    await drop(app, first, free.courseId, free.sessionId);
    expect((await enrolmentOf(free.sessionId, second)).status).toBe('active');
  });
});

describe('an offer that ends moves to the next in line', () => {
  it('lapsed: the expiry job (once, even run twice at once) drops it and offers the seat to the next; its checkout is refused', async () => {
    const { courseId, sessionId, holder, line } = await fullPaidSession(3500, 2);
    const [b, c] = line;
    await drop(app, holder, courseId, sessionId);
    const offer = await enrolmentOf(sessionId, b);
    expect(offer.status).toBe('offered');
    await timePasses(offer.id);
    // Before the job runs, the clock already refuses the checkout.
    const late = await startCheckout(app, b, courseId, sessionId, 3500);
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toMatchObject({
      code: 'offer_expired',
      message: expect.stringMatching(/offer of a seat in this session has ended/),
    });
    await Promise.all([app.jobs.runDue(), app.jobs.runDue()]);
    expect((await enrolmentOf(sessionId, b)).status).toBe('dropped');
    const next = await enrolmentOf(sessionId, c);
    expect(next.status).toBe('offered');
    expect(await seatsTaken(app, sessionId)).toEqual({ seatsTaken: 1, capacity: 1 });
    expect(await enrolmentCounts(app, sessionId)).toEqual({ dropped: 2, offered: 1 });
    const notes = (await get(app, '/api/notifications', { cookie: c.cookie })).json().notifications;
    expect(notes.filter((n: { type: string }) => n.type === 'waitlist_offer')).toHaveLength(1);
    // The one whose offer lapsed is told, once (the job ran twice at once).
    const told = (await get(app, '/api/notifications', { cookie: b.cookie })).json().notifications;
    expect(told.filter((n: { title: string }) => /has gone to the next learner/.test(n.title))).toHaveLength(1);
    const mail = await waitFor(
      async () => (await outbox(app, b.email)).find((m) => /has gone to the next learner/.test(m.subject)),
      'lapse email',
    );
    expect(mail.text).toMatch(/not paid for in time/);
  });

  it('declined: the next in line is offered the seat; declining twice is refused', async () => {
    const { courseId, sessionId, holder, line } = await fullPaidSession(3500, 2);
    const [b, c] = line;
    await drop(app, holder, courseId, sessionId);
    const res = await decline(b, courseId, sessionId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toMatch(/next learner/);
    expect((await enrolmentOf(sessionId, b)).status).toBe('dropped');
    expect((await enrolmentOf(sessionId, c)).status).toBe('offered');
    expect((await decline(b, courseId, sessionId)).statusCode).toBe(404);
    // The last one declines: nobody waits, the seat is free to buy again.
    expect((await decline(c, courseId, sessionId)).statusCode).toBe(200);
    expect(await seatsTaken(app, sessionId)).toEqual({ seatsTaken: 0, capacity: 1 });
  });

  it('an offer that ends unclaimed expires the checkout its learner left open: it can no longer be paid', async () => {
    const { courseId, sessionId, holder, line } = await fullPaidSession(3600, 2);
    const [b, c] = line;
    await drop(app, holder, courseId, sessionId);
    const started = (await startCheckout(app, b, courseId, sessionId, 3600)).json() as Checkout;
    expect(started.sessionId).toBeTruthy();
    expect((await decline(b, courseId, sessionId)).statusCode).toBe(200);
    await waitFor(async () => (await app.stripe().checkout.sessions.retrieve(started.sessionId)).status === 'expired', 'checkout expired');
    expect((await waitForPurchase(app, started, 'expired')).status).toBe('expired');
    const paid = await payCheckout(app, started);
    expect(paid.statusCode).toBeGreaterThanOrEqual(400);
    expect(await paymentsOf(app, (await purchaseOf(app, started.sessionId)).id)).toHaveLength(0);
    expect((await enrolmentOf(sessionId, c)).status).toBe('offered');
  });

  it('bad input is a 4xx with a message', async () => {
    const bad = await post(app, '/api/courses/not-a-uuid/sessions/also-not/offer/decline', undefined, { cookie: educator.cookie });
    expect(bad.statusCode).toBe(400);
    const hold = await post(app, '/api/courses', courseBody({ waitlistHoldMinutes: 0 }), { cookie: educator.cookie });
    expect(hold.statusCode).toBe(400);
    expect(hold.body).toMatch(/held for at least 1 minute/);
  });
});

describe('the OpenAPI document', () => {
  it('describes the decline, the hold of a course and the held seat of a checkout', async () => {
    const doc = (await get(app, '/api/docs/json')).json();
    expect(doc.paths['/api/courses/{courseId}/sessions/{sessionId}/offer/decline']?.post).toBeDefined();
    expect(JSON.stringify(doc.paths['/api/courses'].post.requestBody)).toContain('waitlistHoldMinutes');
    expect(JSON.stringify(doc.paths['/api/course/{courseID}/checkout'].get.responses)).toContain('seatHeldUntil');
  });
});

describe('exact under concurrency', () => {
  it('the held seat is never sold twice: the offeree and an earlier open checkout pay at once', async () => {
    const figures: string[] = [];
    for (let round = 0; round < 3; round++) {
      const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: 5000 }, session: { capacity: 2 } });
      const holder = await makeLearner(app);
      const outsider = await makeLearner(app);
      // The outsider opens a checkout while a seat is free, and leaves it open.
      const open = (await startCheckout(app, outsider, courseId, sessionId, 5000)).json() as Checkout;
      expect(open.sessionId).toBeTruthy();
      await waitForPurchase(app, await buy(app, holder, courseId, sessionId, 5000));
      await waitForPurchase(app, await buy(app, await makeLearner(app), courseId, sessionId, 5000));
      const b = await makeLearner(app);
      expect((await enrol(app, b, courseId, sessionId)).json().enrolment.status).toBe('waitlisted');
      await drop(app, holder, courseId, sessionId);
      expect((await enrolmentOf(sessionId, b)).status).toBe('offered');
      const mine = (await startCheckout(app, b, courseId, sessionId, 5000)).json() as Checkout;
      const [x, y] = await Promise.all([payCheckout(app, open), payCheckout(app, mine)]);
      expect(x.statusCode).toBeLessThan(300);
      expect(y.statusCode).toBeLessThan(300);
      const theirs = await waitForPurchase(app, open, 'refunded');
      const ours = await waitForPurchase(app, mine, 'fulfilled');
      expect(theirs.failure_reason).toBe('This session is full');
      expect(ours.enrolment_id).toBeTruthy();
      expect(await seatsTaken(app, sessionId)).toEqual({ seatsTaken: 2, capacity: 2 });
      expect(await enrolmentCounts(app, sessionId)).toEqual({ active: 2, dropped: 1 });
      await waitFor(async () => (await paymentsOf(app, theirs.id))[0]?.refunded_cents === 5000, 'refund recorded');
      figures.push(`round ${round}: offeree fulfilled, outsider refunded`);
    }
    expect(figures).toHaveLength(3);
  });

  it('a payment confirmed after the expiry job moved the seat on is refused as a hold that ended, not as "full"', async () => {
    const { courseId, sessionId, holder, line } = await fullPaidSession(4300, 2);
    const [b, c] = line;
    await drop(app, holder, courseId, sessionId);
    await timePasses((await enrolmentOf(sessionId, b)).id);
    await app.jobs.runDue(); // the seat goes to the next in line (and b's open checkout is expired at the provider)
    expect((await enrolmentOf(sessionId, c)).status).toBe('offered');
    // A payment that still reached us (confirmed before the expiry did) asks for the seat:
    const asked = app.database.db.transaction((tx) => enrolLearner(tx, { sessionId, learnerId: b.id, seatOnly: true }));
    await expect(asked).rejects.toMatchObject({
      code: 'offer_expired',
      message: 'Your hold on this seat ended before the payment completed',
    });
    expect(await seatsTaken(app, sessionId)).toEqual({ seatsTaken: 1, capacity: 1 });
  });

  it('a payment that completes after the offer ended is refunded in full, with the reason', async () => {
    const { courseId, sessionId, holder, line } = await fullPaidSession(4400, 2);
    const [b, c] = line;
    await drop(app, holder, courseId, sessionId);
    const offer = await enrolmentOf(sessionId, b);
    const started = (await startCheckout(app, b, courseId, sessionId, 4400)).json() as Checkout;
    expect(started.sessionId).toBeTruthy();
    // The hold ends while the card form is open; its expiry job is not due yet (the app's own
    // worker must not run it before the card is confirmed: that path is the test above).
    await queryRows(app, sql`update enrolment set offer_expires_at = now() - interval '1 second' where id = ${offer.id}`);
    const paid = await payCheckout(app, started);
    expect(paid.statusCode).toBeLessThan(300);
    const refunded = await waitForPurchase(app, started, 'refunded');
    expect(refunded.failure_reason).toBe('Your hold on this seat ended before the payment completed');
    await waitFor(async () => (await paymentsOf(app, refunded.id))[0]?.refunded_cents === 4400, 'refund recorded');
    const [pay] = await paymentsOf(app, refunded.id);
    expect((await app.stripe().charges.retrieve(pay.charge_id!)).amount_refunded).toBe(4400);
    const mail = await waitFor(async () => (await outbox(app, b.email)).find((m) => /refunded/i.test(m.subject)), 'refund email');
    expect(mail.text).toMatch(/your hold on this seat ended before the payment completed/);
    // The seat moves on when the job runs.
    await timePasses(offer.id);
    await app.jobs.runDue();
    expect((await enrolmentOf(sessionId, c)).status).toBe('offered');
    expect(await seatsTaken(app, sessionId)).toEqual({ seatsTaken: 1, capacity: 1 });
    expect(await purchaseOf(app, started.sessionId)).toMatchObject({ status: 'refunded' });
  });
});
