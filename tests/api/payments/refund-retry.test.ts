import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { retryDelayMs, retryDueRefunds } from '../../../src/server/payments/refund-due.js';
import type { TestApp } from '../../support/app.js';
import { drop, makeLearner, makePublishedCourse, makeSession, patchSession, queryRows, type Educator } from '../../support/courses.js';
import { outbox } from '../../support/factories.js';
import { get } from '../../support/http.js';
import {
  buildPaymentsApp,
  buy,
  makePayoutEducator,
  paidSeat,
  paymentsOf,
  purchaseOf,
  sandboxOf,
  waitFor,
  waitForPurchase,
} from '../../support/payments.js';

/**
 * A refund the provider failed (after a drop or a cancelled session) is owed in refund_due
 * and retried with back-off until done, always with the same idempotency key: exactly one
 * refund at the provider, and the learner is emailed when it finally goes through.
 */
let app: TestApp;
let educator: Educator & { accountId: string };
let failRequests: Set<string>;

beforeAll(async () => {
  app = await buildPaymentsApp();
  educator = await makePayoutEducator(app);
  failRequests = sandboxOf(app).failRequests;
});
afterAll(async () => {
  failRequests?.clear();
  await app?.close();
});

interface Owed {
  amount_cents: number;
  attempts: number;
  next_attempt_at: Date | string;
  last_error: string | null;
  plan: { items: { sequence: number; amountCents: number; idempotencyKey: string }[] };
}
const owed = async (purchaseId: string) =>
  (
    await queryRows<Owed>(
      app,
      sql`select amount_cents, attempts, next_attempt_at, last_error, plan from refund_due where purchase_id = ${purchaseId}`,
    )
  )[0] ?? null;
const refundsAtProvider = async (chargeId: string) => (await app.stripe().refunds.list({ charge: chargeId, limit: 100 })).data;
const delayedMails = async (email: string) => (await outbox(app, email)).filter((m) => /has gone through/.test(m.subject));
const later = (ms: number) => new Date(Date.now() + ms);

describe('refunds the provider failed are retried until done', () => {
  it('back-off: 30 s, 1 min, 2 min, ... capped at 1 h', () => {
    expect([1, 2, 3, 4, 7, 8, 20].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000, 240_000, 1_920_000, 3_600_000, 3_600_000]);
  });

  it('a drop while refunds fail: pending and owed, no refund; the retry refunds exactly once and emails the learner', async () => {
    const {
      courseId,
      sessionId,
      learner,
      checkout,
      purchase: p,
    } = await paidSeat(app, educator, { priceCents: 6000, refundPolicy: 'moderate' });
    const [pay] = await paymentsOf(app, p.id);

    failRequests.add('POST /v1/refunds');
    try {
      const res = await drop(app, learner, courseId, sessionId);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().refund).toEqual({ amountCents: 6000, currency: 'usd', full: true, pending: true });
      expect(res.json().message).toMatch(/\$60\.00 is being processed/);
      const row = await owed(p.id);
      expect(row).toMatchObject({ amount_cents: 6000, attempts: 1, last_error: expect.any(String) });
      expect(row!.plan.items).toEqual([expect.objectContaining({ sequence: 1, amountCents: 6000, idempotencyKey: `refund-${p.id}-1` })]);
      const wait = new Date(row!.next_attempt_at).getTime() - Date.now();
      expect(wait).toBeGreaterThan(20_000);
      expect(wait).toBeLessThanOrEqual(30_000);
      expect(await refundsAtProvider(pay.charge_id!)).toHaveLength(0);
      expect((await paymentsOf(app, p.id))[0].refunded_cents).toBe(0);
      expect((await purchaseOf(app, checkout.sessionId))!.status).toBe('cancelled');
      // The learner's history shows the refund as pending while it is owed.
      const history = (await get(app, '/api/payments', { cookie: learner.cookie })).json().payments;
      expect(history[0]).toMatchObject({ amountCents: 6000, refundedCents: 0, refundPendingCents: 6000 });

      // Nothing is due before its time; a due retry that fails again backs off further.
      await retryDueRefunds(app);
      expect(await owed(p.id)).toMatchObject({ attempts: 1 });
      await retryDueRefunds(app, { now: later(31_000) });
      const again = await owed(p.id);
      expect(again).toMatchObject({ amount_cents: 6000, attempts: 2 });
      expect(new Date(again!.next_attempt_at).getTime() - Date.now()).toBeGreaterThan(50_000);
      expect(await refundsAtProvider(pay.charge_id!)).toHaveLength(0);
    } finally {
      failRequests.delete('POST /v1/refunds');
    }

    // The provider is back: two workers at once (SKIP LOCKED) make exactly one refund.
    const passes = await Promise.all([retryDueRefunds(app, { now: later(61_000) }), retryDueRefunds(app, { now: later(61_000) })]);
    expect(passes.reduce((n, x) => n + x.failed, 0)).toBe(0);
    expect(await owed(p.id)).toBeNull();
    const refunds = await refundsAtProvider(pay.charge_id!);
    expect(refunds).toHaveLength(1);
    expect(refunds[0].amount).toBe(6000);
    expect((await app.stripe().charges.retrieve(pay.charge_id!)).amount_refunded).toBe(6000);
    await waitFor(async () => (await paymentsOf(app, p.id))[0].refunded_cents === 6000, 'refund recorded');
    const mails = await delayedMails(learner.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain('$60.00');
    const history = (await get(app, '/api/payments', { cookie: learner.cookie })).json().payments;
    expect(history[0]).toMatchObject({ refundedCents: 6000, refundPendingCents: 0 });

    // Running the retry again changes nothing.
    await retryDueRefunds(app, { now: later(2 * 3_600_000) });
    expect(await refundsAtProvider(pay.charge_id!)).toHaveLength(1);
    expect(await delayedMails(learner.email)).toHaveLength(1);
    expect((await paymentsOf(app, p.id))[0].refunded_cents).toBe(6000);
  });

  it('a cancelled session while refunds fail: each paid seat is owed, then refunded in full once', async () => {
    const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: 5500 } });
    await makeSession(app, educator, courseId);
    const learner = await makeLearner(app);
    const checkout = await buy(app, learner, courseId, sessionId, 5500);
    const p = await waitForPurchase(app, checkout);
    const [pay] = await paymentsOf(app, p.id);
    failRequests.add('POST /v1/refunds');
    try {
      const res = await patchSession(app, educator, courseId, sessionId, { status: 'cancelled' });
      expect(res.statusCode, res.body).toBe(200);
      expect(await owed(p.id)).toMatchObject({ amount_cents: 5500, attempts: 1 });
      expect(await refundsAtProvider(pay.charge_id!)).toHaveLength(0);
      expect((await purchaseOf(app, checkout.sessionId))!.status).toBe('refunded');
    } finally {
      failRequests.delete('POST /v1/refunds');
    }
    await retryDueRefunds(app, { now: later(31_000) });
    expect(await owed(p.id)).toBeNull();
    const refunds = await refundsAtProvider(pay.charge_id!);
    expect(refunds.map((r) => r.amount)).toEqual([5500]);
    expect(await delayedMails(learner.email)).toHaveLength(1);
    await retryDueRefunds(app, { now: later(2 * 3_600_000) });
    expect(await refundsAtProvider(pay.charge_id!)).toHaveLength(1);
  });
});
