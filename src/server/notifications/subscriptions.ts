import type { NotificationType } from '../../shared/notifications-schemas.js';
import type { AppServices } from '../app-services.js';
import { learnerNamesOf } from '../accounts/learner-profiles.js';
import { fullNameOf } from '../accounts/people.js';
import { clubEventOf } from '../clubs/club-records.js';
import { seatLearnersIn, seatedSessionsOf, sessionCalendarOf } from '../courses/class-reminders.js';
import { courseBriefOf, learnerIdsOfSession } from '../courses/course-records.js';
import { waitlistMovesOf } from '../courses/seats.js';
import type { Tx } from '../db/transaction.js';
import { learnersPhrase, scheduleInvites, venueOf, mapUrlOf, type InviteJob } from './calendar-invites.js';
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
    // A free session's seat is given at once; a paid one's is offered (held until expiresAt, ADR 0067).
    const moves = await waitlistMovesOf(tx, e.courseSessionId, e.enrolmentIds);
    // A seat for one of the account's learners says whose it is (ADR 0074): a parent of two is told which child.
    const names = await learnerNamesOf(
      tx,
      moves.flatMap((m) => (m.learnerProfileId ? [m.learnerProfileId] : [])),
    );
    const base = { courseId: e.courseId, courseTitle: c.title, sessionId: e.courseSessionId };
    return send(
      app,
      tx,
      moves.map((m): Recipient => {
        const forLearner = m.learnerProfileId ? names.get(m.learnerProfileId) : undefined;
        const data = { ...base, ...(forLearner && { forLearner }) };
        return m.status === 'offered'
          ? [m.learnerId, 'waitlist_offer', { ...data, enrolmentId: m.enrolmentId, expiresAt: m.offerExpiresAt?.toISOString() ?? null }]
          : [m.learnerId, 'waitlist_promoted', data];
      }),
    );
  });
  app.courseEvents.inTransaction('waitlist.offer-lapsed', async (tx, e) => {
    const c = await courseOf(tx, e.courseId);
    const forLearner = e.learnerProfileId ? (await learnerNamesOf(tx, [e.learnerProfileId])).get(e.learnerProfileId) : undefined;
    return send(app, tx, [
      [
        e.learnerId,
        'waitlist_offer',
        { courseId: e.courseId, courseTitle: c.title, sessionId: e.courseSessionId, lapsed: true, ...(forLearner && { forLearner }) },
      ],
    ]);
  });
  app.courseEvents.inTransaction('course-session.cancelled', async (tx, e) => {
    const c = await courseOf(tx, e.courseId);
    const data = { courseId: e.courseId, courseTitle: c.title, sessionId: e.courseSessionId, change: 'cancelled' };
    return send(
      app,
      tx,
      [...new Set(e.droppedLearnerIds)].map((id) => [id, 'session_changed', data]),
    );
  });
  app.courseEvents.inTransaction('course-session.changed', async (tx, e) => {
    const c = await courseOf(tx, e.courseId);
    // Each account once, however many of its learners hold seats (ADR 0074).
    const learners = [...new Set(await learnerIdsOfSession(tx, e.courseSessionId, ['active', 'waitlisted', 'offered', 'past_due']))];
    const data = { courseId: e.courseId, courseTitle: c.title, sessionId: e.courseSessionId, change: e.change };
    return send(
      app,
      tx,
      learners.map((id) => [id, 'session_changed', data]),
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

  subscribeClasses(app);
  // A new post or reply in a classroom: the members the classroom names (ADR 0072).
  // A reply tells a few in the transaction; a post, the whole class: a background job after the commit (fan-out.ts).
  app.classroomEvents.inTransaction('classroom.posted', async (tx, e) => {
    if (!e.recipientIds.length) return;
    const data = {
      kind: e.kind,
      courseId: e.courseId,
      courseTitle: e.courseTitle,
      sessionId: e.sessionId,
      postId: e.postId,
      authorName: e.authorName,
      preview: e.preview,
    };
    if (e.kind === 'reply' && e.recipientIds.length <= 5)
      return send(
        app,
        tx,
        e.recipientIds.map((id) => [id, 'classroom_post', data]),
      );
    return scheduleFanOut(app, tx, `classroom-${e.kind}:${e.itemId}`, { source: 'classroom-post', recipientIds: e.recipientIds, data });
  });

  subscribeClubs(app);

  // A deleted account's notifications, preferences and queued emails (ADR 0024): last of all domains.
  app.accountEvents.inTransaction('user.erased', (tx, e) => eraseFromNotifications(tx, e));
}

/**
 * Class reminders and calendar invitations (ADR 0068): courses announce the reminder when it
 * is due and every change of who sits in a session or when its classes are; here they become
 * `class_reminder` notifications and invitation emails (.ics, calendar-invites.ts), stored in
 * the announcing transaction.
 */
function subscribeClasses(app: AppServices) {
  const invite = (tx: Tx, jobs: InviteJob[]) => scheduleInvites(app, tx, jobs);
  // Each account once, however many of its learners hold seats (ADR 0074): one invitation, one notice.
  const accounts = async (tx: Tx, sessionId: string, statuses: string[]) => [
    ...new Set(await learnerIdsOfSession(tx, sessionId, statuses)),
  ];
  const seated = (tx: Tx, sessionId: string) => accounts(tx, sessionId, ['active', 'past_due']);

  app.courseEvents.inTransaction('enrolment.created', async (tx, e) => {
    if (e.status !== 'active') return;
    return invite(tx, [{ userId: e.learnerId, sessionId: e.courseSessionId, method: 'REQUEST', reason: 'enrolled', classTimeIds: null }]);
  });

  app.courseEvents.inTransaction('waitlist.promoted', async (tx, e) => {
    const moves = await waitlistMovesOf(tx, e.courseSessionId, e.enrolmentIds);
    const promoted = [...new Map(moves.filter((m) => m.status === 'active').map((m) => [m.learnerId, m])).values()];
    return invite(
      tx,
      promoted.map((m) => ({
        userId: m.learnerId,
        sessionId: e.courseSessionId,
        method: 'REQUEST',
        reason: 'enrolled',
        classTimeIds: null,
      })),
    );
  });
  // A paid seat (payments announce the payment, not the session: the learner's seats in the course).
  app.paymentEvents.inTransaction('payment.received', async (tx, e) => {
    if (e.kind !== 'enrolled' || !e.courseId) return;
    const sessions = await seatedSessionsOf(tx, e.courseId, e.userId);
    return invite(
      tx,
      sessions.map((sessionId) => ({ userId: e.userId, sessionId, method: 'REQUEST', reason: 'enrolled', classTimeIds: null })),
    );
  });
  app.courseEvents.inTransaction('course-session.changed', async (tx, e) => {
    const learners = await seated(tx, e.courseSessionId);
    if (e.change === 'class-times-added' && e.addedIds?.length) {
      const ids = e.addedIds;
      return invite(
        tx,
        learners.map((userId) => ({ userId, sessionId: e.courseSessionId, method: 'REQUEST', reason: 'added', classTimeIds: ids })),
      );
    }
    if (e.change === 'class-time-removed' && e.removed) {
      const removed = e.removed;
      return invite(
        tx,
        learners.map((userId) => ({
          userId,
          sessionId: e.courseSessionId,
          method: 'CANCEL',
          reason: 'removed',
          classTimeIds: null,
          removed,
        })),
      );
    }
  });
  app.courseEvents.inTransaction('class-time.moved', async (tx, e) => {
    const cal = await sessionCalendarOf(tx, e.courseSessionId);
    const t = cal?.classTimes.find((x) => x.id === e.classTimeId);
    if (!cal || !t) return;
    const told = await accounts(tx, e.courseSessionId, ['active', 'waitlisted', 'offered', 'past_due']);
    const data = {
      courseId: e.courseId,
      courseTitle: cal.courseTitle,
      sessionId: e.courseSessionId,
      change: 'class-time-moved',
      classTimeId: t.id,
      startsAt: t.startsAt.toISOString(),
      endsAt: t.endsAt.toISOString(),
      timeZone: cal.timeZone,
    };
    const notified = await send(
      app,
      tx,
      told.map((id) => [id, 'session_changed', data]),
    );
    const invited = await invite(
      tx,
      (await seated(tx, e.courseSessionId)).map((userId) => ({
        userId,
        sessionId: e.courseSessionId,
        method: 'REQUEST',
        reason: 'moved',
        classTimeIds: [t.id],
      })),
    );
    return async () => {
      await notified();
      await invited();
    };
  });
  app.courseEvents.inTransaction('enrolment.dropped', async (tx, e) => {
    if (!e.seated) return;
    const startInvites = await invite(tx, [
      { userId: e.learner.id, sessionId: e.courseSessionId, method: 'CANCEL', reason: 'dropped', classTimeIds: null },
    ]);
    // No reply: what the learner is told of the drop is payments' (refunds).
    return async () => {
      await startInvites();
    };
  });
  app.courseEvents.inTransaction('course-session.cancelled', (tx, e) =>
    invite(
      tx,
      [...new Set(e.seatedLearnerIds ?? [])].map((userId) => ({
        userId,
        sessionId: e.courseSessionId,
        method: 'CANCEL',
        reason: 'session-cancelled',
        classTimeIds: null,
      })),
    ),
  );
  app.courseEvents.inTransaction('class.reminder-due', async (tx, e) => {
    const cal = await sessionCalendarOf(tx, e.courseSessionId);
    const t = cal?.classTimes.find((x) => x.id === e.classTimeId);
    if (!cal || !t) return;
    const venue = venueOf(cal, t);
    const data = {
      courseId: e.courseId,
      courseTitle: cal.courseTitle,
      sessionId: e.courseSessionId,
      classTimeId: t.id,
      before: e.before,
      startsAt: t.startsAt.toISOString(),
      endsAt: t.endsAt.toISOString(),
      timeZone: cal.timeZone,
      meetingUrl: t.meetingUrl,
      venue,
      mapUrl: venue ? mapUrlOf(venue) : null,
    };
    // Whom each account's seats are for (ADR 0074): its learner profiles by first name, "you" for its own seat.
    const seats = await seatLearnersIn(tx, e.courseSessionId, { accountIds: e.userIds });
    const forWhom = (id: string) => {
      const seat = seats.get(id);
      return seat && seat.names.length ? learnersPhrase([...(seat.self ? ['you'] : []), ...seat.names]) : null;
    };
    return send(
      app,
      tx,
      e.userIds.map((id): Recipient => [
        id,
        'class_reminder',
        { ...data, role: id === e.educatorId ? 'educator' : 'learner', learners: id === e.educatorId ? null : forWhom(id) },
      ]),
    );
  });
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
  const ev = await clubEventOf(tx, eventId);
  if (!ev) return;
  const data = { ...(await eventData(tx, ev)), ...extra };
  return send(
    app,
    tx,
    userIds.map((id) => [id, type, data]),
  );
}

async function courseOf(tx: Tx, courseId: string) {
  const c = await courseBriefOf(tx, courseId);
  return c!;
}

async function nameOf(tx: Tx, userId: string) {
  return (await fullNameOf(tx, userId)) ?? 'A learner';
}
