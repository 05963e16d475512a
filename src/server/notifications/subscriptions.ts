import { and, eq, inArray } from 'drizzle-orm';
import type { NotificationType } from '../../shared/notifications-schemas.js';
import type { AppServices } from '../app-services.js';
import { user } from '../db/schema/accounts.js';
import { clubEvent } from '../db/schema/clubs.js';
import { course, enrolment } from '../db/schema/courses.js';
import { waitlistMovesOf } from '../courses/seats.js';
import type { Tx } from '../db/transaction.js';
import { clubNameOf, eventData, scheduleFanOut, send, type Recipient } from './fan-out.js';
import { preview } from '../mailbox/unread-notices.js';
import { eraseFromNotifications } from './erasure.js';
import { unreadNotifications } from './notification-service.js';
import type { NotificationData } from './render.js';

/**
 * Everything notifications hear, subscribed once at start-up by composition
 * (src/server/composition/), after every other domain (so that, erasing an account, what the
 * others announce to the erased user is erased too); courses, payments, clubs and the mailbox
 * never import this. Every listener runs inside the announcing transaction and notifies there,
 * so a notification exists exactly when its cause committed; the live push and the email
 * start in the follow-up, after the commit. Telling a whole club (a new event, a deleted club)
 * is the exception: the transaction stores one job that tells them in batches after the
 * commit (fan-out.ts). Clubs (docs/decisions/0015-notifications.md):
 * event times are written in the event's own zone, named, and stored in the notification,
 * so it still reads right once the event or its club is gone.
 */
export function subscribeNotifications(app: AppServices) {
  // The app shell's badge: the realtime hub asks for the unread count (beside the mailbox's).
  app.realtime.registerUnreadCounter('notifications', (userId) => unreadNotifications(app.database.db, userId, { besideMessages: true }));

  app.courseEvents.inTransaction('enrolment.created', async (tx, e) => {
    const c = await courseOf(tx, e.courseId);
    const learnerName = await nameOf(tx, e.learnerId);
    const base = { courseId: e.courseId, courseTitle: c.title, sessionId: e.courseSessionId, status: e.status };
    return send(app, tx, [
      [e.learnerId, 'enrolled', { ...base, enrolmentId: e.enrolmentId }],
      [c.educatorId, 'learner_enrolled', { ...base, learnerId: e.learnerId, learnerName }],
    ]);
  });
  app.courseEvents.inTransaction('waitlist.promoted', async (tx, e) => {
    const c = await courseOf(tx, e.courseId);
    // A free session's seat is given at once; a paid one's is offered (held until expiresAt, ADR 0059).
    const moves = await waitlistMovesOf(tx, e.courseSessionId, e.learnerIds);
    const base = { courseId: e.courseId, courseTitle: c.title, sessionId: e.courseSessionId };
    return send(
      app,
      tx,
      moves.map((m): Recipient =>
        m.status === 'offered'
          ? [m.learnerId, 'waitlist_offer', { ...base, enrolmentId: m.enrolmentId, expiresAt: m.offerExpiresAt?.toISOString() ?? null }]
          : [m.learnerId, 'waitlist_promoted', base],
      ),
    );
  });
  app.courseEvents.inTransaction('waitlist.offer-lapsed', async (tx, e) => {
    const c = await courseOf(tx, e.courseId);
    return send(app, tx, [
      [e.learnerId, 'waitlist_offer', { courseId: e.courseId, courseTitle: c.title, sessionId: e.courseSessionId, lapsed: true }],
    ]);
  });
  app.courseEvents.inTransaction('course-session.cancelled', async (tx, e) => {
    const c = await courseOf(tx, e.courseId);
    const data = { courseId: e.courseId, courseTitle: c.title, sessionId: e.courseSessionId, change: 'cancelled' };
    return send(
      app,
      tx,
      e.droppedLearnerIds.map((id) => [id, 'session_changed', data]),
    );
  });
  app.courseEvents.inTransaction('course-session.changed', async (tx, e) => {
    const c = await courseOf(tx, e.courseId);
    const learners = await tx
      .select({ id: enrolment.learnerId })
      .from(enrolment)
      .where(and(eq(enrolment.sessionId, e.courseSessionId), inArray(enrolment.status, ['active', 'waitlisted', 'offered', 'past_due'])));
    const data = { courseId: e.courseId, courseTitle: c.title, sessionId: e.courseSessionId, change: e.change };
    return send(
      app,
      tx,
      learners.map((l) => [l.id, 'session_changed', data]),
    );
  });
  app.courseEvents.inTransaction('review.posted', async (tx, e) => {
    if (!e.created) return;
    const c = await courseOf(tx, e.courseId);
    const learnerName = await nameOf(tx, e.learnerId);
    return send(app, tx, [
      [c.educatorId, 'new_review', { courseId: e.courseId, courseTitle: c.title, reviewId: e.reviewId, rating: e.rating, learnerName }],
    ]);
  });

  app.paymentEvents.inTransaction('payment.received', async (tx, e) => {
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
  app.paymentEvents.inTransaction('installment.failed', (tx, e) => send(app, tx, [[e.userId, 'installment_failed', { ...e }]]));
  app.paymentEvents.inTransaction('refund.issued', (tx, e) => send(app, tx, [[e.userId, 'refund_issued', { ...e }]]));

  // New messages: the list's "new message" entries are the mailbox's unread state, derived
  // when read (mailbox/unread-notices.ts); what reaches here is a conversation still unread after a
  // while (once per conversation and delay), for its email or digest (ADR 0029).
  app.mailboxEvents.inTransaction('message.unread', (tx, e) =>
    send(app, tx, [
      [
        e.recipientId,
        'new_message',
        {
          senderId: e.senderId,
          senderName: e.senderName,
          messageId: e.messageId,
          preview: preview(e.body),
          ...(e.count > 1 && { count: e.count }),
        },
      ],
    ]),
  );

  subscribeClubs(app);

  // A deleted account's notifications, preferences and queued emails (ADR 0024): last of all domains.
  app.accountEvents.inTransaction('user.erased', (tx, e) => eraseFromNotifications(tx, e));
}

function subscribeClubs(app: AppServices) {
  app.clubEvents.inTransaction('club.join-requested', async (tx, e) => {
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
  app.clubEvents.inTransaction('club.owner-changed', async (tx, e) =>
    send(app, tx, [
      [
        e.ownerId,
        'club_ownership',
        {
          clubId: e.clubId,
          clubName: await clubNameOf(tx, e.clubId),
          reason: e.reason,
          // A closed account's name is not kept (ADR 0024).
          ...(e.reason === 'transferred' && { fromName: await nameOf(tx, e.previousOwnerId) }),
        },
      ],
    ]),
  );
  app.clubEvents.inTransaction('club.request-approved', async (tx, e) =>
    send(app, tx, [[e.userId, 'club_request_approved', { clubId: e.clubId, clubName: await clubNameOf(tx, e.clubId) }]]),
  );
  // Every member of the club: a background job after the commit, in batches (fan-out.ts), never in the request.
  app.clubEvents.inTransaction('club-event.created', async (tx, e) => {
    if (!e.eventIds.length) return;
    return scheduleFanOut(app, tx, `club-new-event:${e.eventIds[0]}`, {
      source: 'club-new-event',
      clubId: e.clubId,
      eventIds: e.eventIds,
      createdBy: e.createdBy,
    });
  });
  app.clubEvents.inTransaction('club-event.changed', (tx, e) =>
    toEventPeople(app, tx, e.eventId, e.attendeeIds, 'club_event_changed', { change: 'changed' }),
  );
  app.clubEvents.inTransaction('club-event.cancelled', (tx, e) =>
    toEventPeople(app, tx, e.eventId, e.attendeeIds, 'club_event_changed', { change: 'cancelled' }),
  );
  app.clubEvents.inTransaction('rsvp.promoted', (tx, e) => toEventPeople(app, tx, e.eventId, e.userIds, 'club_waitlist_promoted', {}));
  app.clubEvents.inTransaction('event.reminder-due', (tx, e) =>
    toEventPeople(app, tx, e.eventId, [e.userId], 'club_event_reminder', { before: e.before }),
  );
  // The attendees of every event still to come (the rows are gone: the event carries who): a background job too.
  app.clubEvents.inTransaction('club.deleted', async (tx, e) => {
    if (!e.cancelledEvents.some((ev) => ev.attendeeIds.length)) return;
    return scheduleFanOut(app, tx, `club-deleted:${e.clubId}`, {
      source: 'club-deleted',
      clubId: e.clubId,
      name: e.name,
      cancelledEvents: e.cancelledEvents.filter((ev) => ev.attendeeIds.length),
    });
  });
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

async function courseOf(tx: Tx, courseId: string) {
  const [c] = await tx.select({ title: course.title, educatorId: course.educatorId }).from(course).where(eq(course.id, courseId)).limit(1);
  return c;
}

async function nameOf(tx: Tx, userId: string) {
  const [u] = await tx.select({ firstName: user.firstName, lastName: user.lastName }).from(user).where(eq(user.id, userId)).limit(1);
  return u ? `${u.firstName} ${u.lastName}`.trim() : 'A learner';
}
