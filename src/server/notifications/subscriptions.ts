import { and, eq, inArray } from 'drizzle-orm';
import type { NotificationType } from '../../shared/notifications-schemas.js';
import type { AppServices } from '../app-services.js';
import { user } from '../db/schema/accounts.js';
import { course, enrolment } from '../db/schema/courses.js';
import { message } from '../db/schema/mailbox.js';
import type { Tx } from '../db/transaction.js';
import { notify, type Notified } from './notify.js';
import type { NotificationData } from './render.js';

/**
 * What notifications hear (subscribed at start-up; courses, payments and the mailbox never
 * import this). Every listener runs inside the announcing transaction and notifies there,
 * so a notification exists exactly when its cause committed; the live push and the email
 * start in the follow-up, after the commit.
 */
export function subscribeNotifications(app: AppServices) {
  const courses = app.courseEvents;
  courses.inTransaction('enrolment.created', async (tx, e) => {
    const c = await courseOf(tx, e.courseId);
    const learnerName = await nameOf(tx, e.learnerId);
    const base = { courseId: e.courseId, courseTitle: c.title, sessionId: e.courseSessionId, status: e.status };
    return send(app, tx, [
      [e.learnerId, 'enrolled', { ...base, enrolmentId: e.enrolmentId }],
      [c.educatorId, 'learner_enrolled', { ...base, learnerId: e.learnerId, learnerName }],
    ]);
  });
  courses.inTransaction('waitlist.promoted', async (tx, e) => {
    const c = await courseOf(tx, e.courseId);
    return send(
      app,
      tx,
      e.learnerIds.map((id) => [id, 'waitlist_promoted', { courseId: e.courseId, courseTitle: c.title, sessionId: e.courseSessionId }]),
    );
  });
  courses.inTransaction('course-session.cancelled', async (tx, e) => {
    const c = await courseOf(tx, e.courseId);
    const data = { courseId: e.courseId, courseTitle: c.title, sessionId: e.courseSessionId, change: 'cancelled' };
    return send(
      app,
      tx,
      e.droppedLearnerIds.map((id) => [id, 'session_changed', data]),
    );
  });
  courses.inTransaction('course-session.changed', async (tx, e) => {
    const c = await courseOf(tx, e.courseId);
    const learners = await tx
      .select({ id: enrolment.learnerId })
      .from(enrolment)
      .where(and(eq(enrolment.sessionId, e.courseSessionId), inArray(enrolment.status, ['active', 'waitlisted', 'past_due'])));
    const data = { courseId: e.courseId, courseTitle: c.title, sessionId: e.courseSessionId, change: e.change };
    return send(
      app,
      tx,
      learners.map((l) => [l.id, 'session_changed', data]),
    );
  });
  courses.inTransaction('review.posted', async (tx, e) => {
    if (!e.created) return;
    const c = await courseOf(tx, e.courseId);
    const learnerName = await nameOf(tx, e.learnerId);
    return send(app, tx, [
      [c.educatorId, 'new_review', { courseId: e.courseId, courseTitle: c.title, reviewId: e.reviewId, rating: e.rating, learnerName }],
    ]);
  });

  const payments = app.paymentEvents;
  payments.inTransaction('payment.received', async (tx, e) => {
    const list: Recipient[] = [[e.userId, 'payment_receipt', { ...e }]];
    if (e.kind === 'enrolled' && e.courseId) {
      const c = await courseOf(tx, e.courseId);
      list.push([
        c.educatorId,
        'learner_enrolled',
        { courseId: e.courseId, courseTitle: c.title, learnerId: e.userId, learnerName: await nameOf(tx, e.userId), status: 'active' },
      ]);
    }
    return send(app, tx, list);
  });
  payments.inTransaction('installment.failed', (tx, e) => send(app, tx, [[e.userId, 'installment_failed', { ...e }]]));
  payments.inTransaction('refund.issued', (tx, e) => send(app, tx, [[e.userId, 'refund_issued', { ...e }]]));

  app.mailboxEvents.inTransaction('message.sent', async (tx, e) => {
    const senderName = await nameOf(tx, e.senderId);
    const id = Number(e.messageId);
    const [m] = Number.isSafeInteger(id) ? await tx.select({ body: message.body }).from(message).where(eq(message.id, id)).limit(1) : [];
    const preview = m ? (m.body.length > 140 ? `${m.body.slice(0, 139)}…` : m.body) : undefined;
    return send(app, tx, [[e.recipientId, 'new_message', { senderId: e.senderId, senderName, messageId: e.messageId, preview }]]);
  });
}

type Recipient = [userId: string, type: NotificationType, data: NotificationData];

/** Notifies each recipient in the transaction; answers the follow-up that pushes and emails after the commit. */
async function send(app: AppServices, tx: Tx, recipients: Recipient[]) {
  const done: Notified[] = [];
  for (const [userId, type, data] of recipients) done.push(await notify(app, userId, type, data, { conn: tx }));
  return async () => {
    for (const n of done) await n.afterCommit();
  };
}

async function courseOf(tx: Tx, courseId: string) {
  const [c] = await tx.select({ title: course.title, educatorId: course.educatorId }).from(course).where(eq(course.id, courseId)).limit(1);
  return c;
}

async function nameOf(tx: Tx, userId: string) {
  const [u] = await tx.select({ firstName: user.firstName, lastName: user.lastName }).from(user).where(eq(user.id, userId)).limit(1);
  return u ? `${u.firstName} ${u.lastName}`.trim() : 'A learner';
}
