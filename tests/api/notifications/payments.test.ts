import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TestApp } from '../../support/app.js';
import { drop, makeLearner, makePublishedCourse, queryRows, type Educator } from '../../support/courses.js';
import { call, get } from '../../support/http.js';
import { buildPaymentsApp, buy, makePayoutEducator, paidSeat, waitFor, waitForPurchase } from '../../support/payments.js';

/**
 * Payments' moments reach people through notifications, from their real causes on the
 * payments sandbox: a paid enrolment (the learner's receipt, the educator's "a learner
 * enrolled"), a drop with a refund, and the preference that turns the receipt email off.
 */
let app: TestApp;
let educator: Educator & { accountId: string };

beforeAll(async () => {
  app = await buildPaymentsApp();
  educator = await makePayoutEducator(app, { firstName: 'Frida', lastName: 'Kahlo' });
});
afterAll(async () => {
  await app?.close();
});

type Row = { type: string; title: string; read: boolean; link: string };
const notificationsOf = async (who: { cookie: string }) =>
  (await get(app, '/api/notifications', { cookie: who.cookie })).json().notifications as Row[];
const subjects = async (to: string) =>
  (await queryRows<{ subject: string }>(app, sql`select subject from email_outbox where "to" = ${to} order by created_at desc`)).map(
    (r) => r.subject,
  );

describe('payments notify', () => {
  it('a paid enrolment: the receipt (in the app and by email, with its unsubscribe headers); the educator hears of the learner', async () => {
    const { courseId, learner } = await paidSeat(app, educator, { priceCents: 4900, title: 'Ceramics at the wheel' });
    const receipt = await waitFor(
      async () => (await notificationsOf(learner)).find((n) => n.type === 'payment_receipt'),
      'receipt notification',
    );
    expect(receipt).toMatchObject({ title: "You're enrolled in Ceramics at the wheel", link: `/course/${courseId}`, read: false });
    // The email goes out through a background job after the notification: wait for it.
    const mail = await waitFor(
      async () =>
        (
          await queryRows<{ subject: string; headers: Record<string, string> }>(
            app,
            sql`select subject, headers from email_outbox where "to" = ${learner.email} and subject like 'You''re enrolled%'`,
          )
        )[0],
      'receipt email',
    );
    expect(mail.subject).toBe("You're enrolled in Ceramics at the wheel");
    expect(mail.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    // One "you're enrolled" for a paid seat (the receipt), not a second one from the enrolment.
    expect((await notificationsOf(learner)).filter((n) => /You're enrolled/.test(n.title))).toHaveLength(1);
    const forEducator = await notificationsOf(educator);
    expect(forEducator.find((n) => n.type === 'learner_enrolled' && n.link === `/course/${courseId}`)?.title).toMatch(
      / enrolled in Ceramics at the wheel$/,
    );
  });

  it('a drop with a refund: refund issued, in the app and by email', async () => {
    const { courseId, sessionId, learner } = await paidSeat(app, educator, {
      priceCents: 6000,
      refundPolicy: 'moderate',
      title: 'Linocut',
    });
    const res = await drop(app, learner, courseId, sessionId);
    expect(res.statusCode, res.body).toBe(200);
    const refund = (await notificationsOf(learner)).find((n) => n.type === 'refund_issued');
    expect(refund).toMatchObject({ title: 'Refund for Linocut', link: `/course/${courseId}` });
    expect(await subjects(learner.email)).toContain('Refund for Linocut');
  });

  it('receipts email off: the receipt stays in the app, no email', async () => {
    const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: 2500, title: 'Quiet receipts' } });
    const learner = await makeLearner(app);
    const off = await call(
      app,
      'PUT',
      '/api/notifications/preferences',
      { preferences: { payment_receipt: { email: 'off' } } },
      { cookie: learner.cookie },
    );
    expect(off.statusCode, off.body).toBe(200);
    await waitForPurchase(app, await buy(app, learner, courseId, sessionId, 2500));
    await waitFor(async () => (await notificationsOf(learner)).find((n) => n.type === 'payment_receipt'), 'receipt notification');
    await app.jobs.runDue();
    // No receipt by email; the paid seat's calendar invitation (its own setting) still comes (ADR 0068).
    // The app's own job worker may hold the invitation's job while runDue runs: wait for its email.
    await waitFor(async () => (await subjects(learner.email)).includes('Invitation: Quiet receipts'), 'invitation email');
    expect((await subjects(learner.email)).filter((s) => /Quiet receipts/.test(s))).toEqual(['Invitation: Quiet receipts']);
    const [invite] = await queryRows<{ ical_event: { method: string; content: string } }>(
      app,
      sql`select ical_event from email_outbox where "to" = ${learner.email} and ical_event is not null`,
    );
    expect(invite.ical_event.method).toBe('REQUEST');
    expect(invite.ical_event.content).toMatch(/^BEGIN:VCALENDAR\r\n[\s\S]*METHOD:REQUEST[\s\S]*BEGIN:VEVENT/);
  });
});
