import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { NotificationType } from '../../shared/notifications-schemas.js';
import { formatClassTime } from '../../shared/time.js';
import type { AppServices } from '../app-services.js';
import { user } from '../db/schema/accounts.js';
import { club, clubEvent, clubMembership } from '../db/schema/clubs.js';
import { course, enrolment } from '../db/schema/courses.js';
import { notification } from '../db/schema/notifications.js';
import type { Tx } from '../db/transaction.js';
import { createNewMessageNotices } from './new-message-notices.js';
import { notify, type Notified } from './notify.js';
import type { NotificationData } from './render.js';

/**
 * What notifications hear (subscribed at start-up; courses, payments and the mailbox never
 * import this). Every listener runs inside the announcing transaction and notifies there,
 * so a notification exists exactly when its cause committed; the live push and the email
 * start in the follow-up, after the commit. Clubs (docs/decisions/0015-notifications.md):
 * event times are written in the event's own zone, named, and stored in the notification,
 * so it still reads right once the event or its club is gone.
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

  // Reading the conversation reads its "new message" notice too (the list and the badge agree with the mailbox).
  app.mailboxEvents.inTransaction('conversation.read', async (tx, e) => {
    const read = await tx
      .update(notification)
      .set({ readAt: new Date() })
      .where(
        and(
          eq(notification.userId, e.readerId),
          eq(notification.type, 'new_message'),
          isNull(notification.readAt),
          sql`${notification.data}->>'senderId' = ${e.otherId}`,
        ),
      )
      .returning({ id: notification.id });
    if (read.length) return () => app.realtime.publish(e.readerId, { type: 'unread.changed', counter: 'notifications' });
  });
  // New messages: the notices are written in batches after the sends committed, without
  // holding the send's answer (new-message-notices.ts).
  const notices = createNewMessageNotices(app);
  app.mailboxEvents.afterCommit('message.sent', async (e) => {
    void notices.add(e);
  });

  subscribeClubs(app);
}

function subscribeClubs(app: AppServices) {
  const clubs = app.clubEvents;
  clubs.inTransaction('club.join-requested', async (tx, e) => {
    const data = {
      clubId: e.clubId,
      clubName: await clubNameOf(tx, e.clubId),
      userId: e.userId,
      requesterName: await nameOf(tx, e.userId),
    };
    return send(
      app,
      tx,
      e.organiserIds.map((id) => [id, 'club_join_request', data]),
    );
  });
  clubs.inTransaction('club.request-approved', async (tx, e) =>
    send(app, tx, [[e.userId, 'club_request_approved', { clubId: e.clubId, clubName: await clubNameOf(tx, e.clubId) }]]),
  );
  clubs.inTransaction('club-event.created', async (tx, e) => {
    if (!e.eventIds.length) return;
    // A repeat is one notification (its first occurrence, and how many there are), never one per occurrence.
    const [first] = await tx
      .select()
      .from(clubEvent)
      .where(and(eq(clubEvent.clubId, e.clubId), inArray(clubEvent.id, e.eventIds)))
      .orderBy(asc(clubEvent.startsAt))
      .limit(1);
    if (!first) return;
    const members = await tx
      .select({ id: clubMembership.userId })
      .from(clubMembership)
      .where(and(eq(clubMembership.clubId, e.clubId), eq(clubMembership.state, 'active'), ne(clubMembership.userId, e.createdBy)));
    const data = { ...(await eventData(tx, first)), occurrences: e.eventIds.length };
    return send(
      app,
      tx,
      members.map((m) => [m.id, 'club_new_event', data]),
    );
  });
  clubs.inTransaction('club-event.changed', (tx, e) =>
    toEventPeople(app, tx, e.eventId, e.attendeeIds, 'club_event_changed', { change: 'changed' }),
  );
  clubs.inTransaction('club-event.cancelled', (tx, e) =>
    toEventPeople(app, tx, e.eventId, e.attendeeIds, 'club_event_changed', { change: 'cancelled' }),
  );
  clubs.inTransaction('rsvp.promoted', (tx, e) => toEventPeople(app, tx, e.eventId, e.userIds, 'club_waitlist_promoted', {}));
  clubs.inTransaction('event.reminder-due', (tx, e) =>
    toEventPeople(app, tx, e.eventId, [e.userId], 'club_event_reminder', { before: e.before }),
  );
  clubs.inTransaction('club.deleted', (tx, e) => {
    const list: Recipient[] = [];
    for (const ev of e.cancelledEvents) {
      const data = {
        clubId: e.clubId,
        clubName: e.name,
        eventId: ev.eventId,
        title: ev.title,
        when: formatClassTime(ev.startsAt, ev.endsAt, ev.timeZone),
        change: 'club-deleted',
      };
      for (const id of ev.attendeeIds) list.push([id, 'club_event_changed', data]);
    }
    return send(app, tx, list);
  });
}

type ClubEventRow = typeof clubEvent.$inferSelect;

/** What a club event's notifications keep: ids, title, club name, and the time in the event's zone. */
async function eventData(tx: Tx, ev: ClubEventRow) {
  return {
    clubId: ev.clubId,
    clubName: await clubNameOf(tx, ev.clubId),
    eventId: ev.id,
    title: ev.title,
    when: formatClassTime(ev.startsAt.toISOString(), ev.endsAt.toISOString(), ev.timeZone),
  };
}

async function toEventPeople(
  app: AppServices,
  tx: Tx,
  eventId: string,
  userIds: string[],
  type: NotificationType,
  extra: NotificationData,
) {
  if (!userIds.length) return;
  const [ev] = await tx.select().from(clubEvent).where(eq(clubEvent.id, eventId)).limit(1);
  if (!ev) return;
  const data = { ...(await eventData(tx, ev)), ...extra };
  return send(
    app,
    tx,
    userIds.map((id) => [id, type, data]),
  );
}

async function clubNameOf(tx: Tx, clubId: string) {
  const [c] = await tx.select({ name: club.name }).from(club).where(eq(club.id, clubId)).limit(1);
  return c?.name ?? 'your club';
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
