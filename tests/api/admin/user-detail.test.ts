/**
 * Issue 23 item 2: the admin console's user detail tells the whole truth. Enrolments name
 * their course; a purchase's state comes from its payments (a dropped seat's refund reads
 * "refunded", not "cancelled"); checkouts never paid are not payments; the audit log and
 * the refunds owed name people instead of showing their ids.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payment, purchase, refundDue } from '../../../src/server/db/schema/payments.js';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { enrol, makeEducator, makePublishedCourse } from '../../support/courses.js';
import { createSignedInUser, type SignedInUser } from '../../support/factories.js';
import { get, post } from '../../support/http.js';

const adminEmail = `admin-detail-${randomUUID().slice(0, 8)}@example.com`;
let app: TestApp;
let admin: SignedInUser;

beforeAll(async () => {
  app = await buildTestApp({ ADMIN_EMAILS: adminEmail });
  admin = await createSignedInUser(app, { email: adminEmail, firstName: 'Ada', lastName: 'Admin' });
});
afterAll(async () => {
  await app.close();
});

const HOUR = 60 * 60 * 1000;

/** A purchase of the learner's with its payments (amount, refunded), as the payments domain records them. */
async function bought(
  userId: string,
  courseId: string | null,
  p: { status: string; kind?: string; installments?: number; ageMs?: number; failureReason?: string },
  payments: [number, number][] = [],
) {
  const createdAt = new Date(Date.now() - (p.ageMs ?? 0));
  const [row] = await app.database.db
    .insert(purchase)
    .values({
      userId,
      courseId,
      kind: p.kind ?? 'course_payment',
      installments: p.installments ?? null,
      installmentCents: p.installments ? 1500 : null,
      amountCents: 4500,
      currency: 'usd',
      feePercent: 10,
      status: p.status,
      failureReason: p.failureReason ?? null,
      createdAt,
    })
    .returning({ id: purchase.id });
  for (const [i, [amountCents, refundedCents]] of payments.entries())
    await app.database.db.insert(payment).values({
      purchaseId: row.id,
      userId,
      sequence: i + 1,
      amountCents,
      feeCents: Math.round(amountCents / 10),
      refundedCents,
      currency: 'usd',
      paidAt: createdAt,
    });
  return row.id;
}

describe('admin user detail', () => {
  it('lists enrolments with their course titles and session dates', async () => {
    const teacher = await makeEducator(app);
    const title = `Bookbinding by hand ${randomUUID().slice(0, 6)}`;
    const { courseId, sessionId } = await makePublishedCourse(app, teacher, { course: { title } });
    const learner = await createSignedInUser(app);
    const res = await enrol(app, learner, courseId, sessionId);
    expect(res.statusCode, res.body).toBeLessThan(300);

    const detail = await get(app, `/api/admin/users/${learner.id}`, { cookie: admin.cookie });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().enrolments).toEqual([
      expect.objectContaining({ courseId, courseTitle: title, sessionId, sessionStartsOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) }),
    ]);
  });

  it('gives each purchase its state from its payments and keeps checkouts never paid out of the payments', async () => {
    const teacher = await makeEducator(app);
    const title = `Letterpress ${randomUUID().slice(0, 6)}`;
    const { courseId } = await makePublishedCourse(app, teacher, { course: { title } });
    const learner = await createSignedInUser(app);
    const u = learner.id;
    const ids = {
      // A dropped seat whose money all went back: the purchase says "cancelled".
      refunded: await bought(u, courseId, { status: 'cancelled', ageMs: 9 * HOUR }, [[4500, 4500]]),
      partial: await bought(u, courseId, { status: 'cancelled', ageMs: 8 * HOUR }, [[4500, 2000]]),
      pending: await bought(u, courseId, { status: 'cancelled', ageMs: 7 * HOUR }, [[4500, 0]]),
      paid: await bought(u, courseId, { status: 'fulfilled', ageMs: 6 * HOUR }, [[4500, 0]]),
      failedInstallment: await bought(u, courseId, { status: 'past_due', kind: 'course_installments', installments: 3, ageMs: 5 * HOUR }, [
        [1500, 0],
      ]),
      underWay: await bought(u, courseId, { status: 'fulfilled', kind: 'course_installments', installments: 3, ageMs: 4 * HOUR }, [
        [1500, 0],
        [1500, 0],
      ]),
      neverCollected: await bought(u, courseId, {
        status: 'cancelled',
        failureReason: 'The installments could not be collected',
        ageMs: 3 * HOUR,
      }),
      // Checkouts never paid: one started two days ago (the provider's session is long gone), one a minute ago, one expired.
      abandoned: await bought(u, courseId, { status: 'open', ageMs: 48 * HOUR }),
      open: await bought(u, courseId, { status: 'open', ageMs: 60_000 }),
      expired: await bought(u, courseId, { status: 'expired', ageMs: 2 * HOUR }),
    };
    await app.database.db
      .insert(refundDue)
      .values({ purchaseId: ids.pending, userId: u, amountCents: 4500, currency: 'usd', plan: { items: [] } });

    const res = await get(app, `/api/admin/users/${u}`, { cookie: admin.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as {
      payments: { id: string; state: string; title: string; paidCents: number; refundedCents: number; installmentsPaid: number }[];
      checkouts: { id: string; state: string; title: string }[];
    };
    const stateOf = (list: { id: string; state: string }[]) => Object.fromEntries(list.map((p) => [p.id, p.state]));
    expect(stateOf(body.payments)).toEqual({
      [ids.refunded]: 'refunded',
      [ids.partial]: 'partially_refunded',
      [ids.pending]: 'refund_pending',
      [ids.paid]: 'paid',
      [ids.failedInstallment]: 'installment_failed',
      [ids.underWay]: 'installments',
      [ids.neverCollected]: 'failed',
    });
    expect(stateOf(body.checkouts)).toEqual({
      [ids.abandoned]: 'checkout_abandoned',
      [ids.open]: 'checkout_open',
      [ids.expired]: 'checkout_expired',
    });
    expect(body.payments.find((p) => p.id === ids.partial)).toMatchObject({ title, paidCents: 4500, refundedCents: 2000 });
    expect(body.payments.find((p) => p.id === ids.underWay)).toMatchObject({ installmentsPaid: 2 });
    expect([...body.payments, ...body.checkouts].every((p) => p.title === title)).toBe(true);
    // Newest first.
    expect(body.checkouts.map((p) => p.id)).toEqual([ids.open, ids.expired, ids.abandoned]);
  });

  it('names a plan purchase by its plan', async () => {
    const learner = await createSignedInUser(app);
    await bought(learner.id, null, { status: 'fulfilled', kind: 'plan' }, [[1900, 0]]);
    const res = await get(app, `/api/admin/users/${learner.id}`, { cookie: admin.cookie });
    expect(res.json().payments).toEqual([expect.objectContaining({ kind: 'plan', state: 'paid', title: expect.any(String) })]);
    expect(res.json().payments[0].title).not.toBe('A deleted course');
  });
});

describe('audit log and refunds owed', () => {
  it('name who acted and on whom, not their ids', async () => {
    const target = await createSignedInUser(app, { firstName: 'Tobias', lastName: 'Target' });
    expect(
      (await post(app, `/api/admin/users/${target.id}/ban`, { reason: 'Named in the log' }, { cookie: admin.cookie })).statusCode,
    ).toBe(200);
    const res = await get(app, '/api/admin/audit', { cookie: admin.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const entry = (res.json().entries as { targetId: string; action: string }[]).find(
      (e) => e.targetId === target.id && e.action === 'ban',
    );
    expect(entry).toMatchObject({
      adminName: 'Ada Admin',
      adminEmail,
      target: { kind: 'user', id: target.id, name: 'Tobias Target', email: target.email },
    });
  });

  it('names the person each refund is owed to', async () => {
    const learner = await createSignedInUser(app, { firstName: 'Rhea', lastName: 'Refundee' });
    const id = await bought(learner.id, null, { status: 'cancelled', kind: 'plan' }, [[1900, 0]]);
    await app.database.db
      .insert(refundDue)
      .values({ purchaseId: id, userId: learner.id, amountCents: 1900, currency: 'usd', plan: { items: [] } });
    const res = await get(app, '/api/admin/refunds-due', { cookie: admin.cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refunds).toContainEqual(
      expect.objectContaining({ purchaseId: id, userId: learner.id, userName: 'Rhea Refundee', userEmail: learner.email }),
    );
  });
});
