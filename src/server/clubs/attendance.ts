import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { clubEvent, clubRsvp } from '../db/schema/clubs.js';
import { rowsOf, type Tx } from '../db/transaction.js';
import type { Announce } from '../events/domain-events.js';
import { unscheduleByKeyPrefix } from '../jobs/queue.js';
import type { ClubEventMap } from './events.js';

/**
 * The steps every RSVP change shares, inside the caller's transaction, under the event's
 * row lock (FOR NO KEY UPDATE): going_count never exceeds capacity however many answers
 * arrive at once, and the waitlist is served in the order the answers took the lock.
 * Reminders are keyed jobs stored in the same transaction (docs/decisions/0020-clubs-model.md).
 */
export type EventRow = typeof clubEvent.$inferSelect;
export const REMINDER_JOB = 'club.event-reminder';
export const NEXT_EVENT_JOB = 'club.next-event';
const BEFORE = { '24h': 24 * 3600_000, '1h': 3600_000 } as const;
export type Before = keyof typeof BEFORE;

export const reminderKey = (clubId: string, eventId: string, userId: string, before: Before) =>
  `club-reminder:${clubId}:${eventId}:${userId}:${before}`;

export async function lockEvent(tx: Tx, eventId: string): Promise<EventRow> {
  const [e] = await tx.select().from(clubEvent).where(eq(clubEvent.id, eventId)).for('no key update');
  return e;
}

/** Reminders 24 h and 1 h before the event for one member going (those already past are skipped). */
export async function scheduleReminders(app: AppServices, tx: Tx, event: EventRow, userId: string) {
  for (const before of Object.keys(BEFORE) as Before[]) {
    const runAt = new Date(event.startsAt.getTime() - BEFORE[before]);
    if (runAt.getTime() <= Date.now()) continue;
    await app.jobs.schedule(
      REMINDER_JOB,
      { clubId: event.clubId, eventId: event.id, userId, before },
      { runAt, key: reminderKey(event.clubId, event.id, userId, before), conn: tx },
    );
  }
}

export async function unscheduleReminders(app: AppServices, tx: Tx, event: EventRow, userId: string) {
  for (const before of Object.keys(BEFORE) as Before[]) await app.jobs.unschedule(reminderKey(event.clubId, event.id, userId, before), tx);
}

/** Every queued reminder of an event (cancelled), or of a whole club (deleted). */
export async function unscheduleAllReminders(tx: Tx, clubId: string, eventId?: string) {
  const prefix = eventId ? `club-reminder:${clubId}:${eventId}:` : `club-reminder:${clubId}:`;
  await unscheduleByKeyPrefix(tx, REMINDER_JOB, prefix);
}

/**
 * Fills free places from the waitlist, first come first served, while the event is still
 * to come and scheduled. Answers the promoted members (their reminders are scheduled).
 */
export async function fillFromWaitlist(app: AppServices, tx: Tx, event: EventRow): Promise<string[]> {
  if (event.status !== 'scheduled' || event.startsAt.getTime() <= Date.now()) return [];
  const free = event.capacity === null ? Number.MAX_SAFE_INTEGER : event.capacity - event.goingCount;
  if (free <= 0) return [];
  const next = await tx
    .select({ userId: clubRsvp.userId })
    .from(clubRsvp)
    .where(and(eq(clubRsvp.eventId, event.id), eq(clubRsvp.status, 'waitlisted')))
    .orderBy(asc(clubRsvp.queueOrder))
    .limit(Math.min(free, 10_000));
  if (!next.length) return [];
  const ids = next.map((r) => r.userId);
  await tx
    .update(clubRsvp)
    .set({ status: 'going', queueOrder: null })
    .where(and(eq(clubRsvp.eventId, event.id), inArray(clubRsvp.userId, ids)));
  await tx
    .update(clubEvent)
    .set({ goingCount: sql`${clubEvent.goingCount} + ${ids.length}` })
    .where(eq(clubEvent.id, event.id));
  event.goingCount += ids.length;
  for (const id of ids) await scheduleReminders(app, tx, event, id);
  return ids;
}

/**
 * Sets a member's answer on a locked event: going (a place, or the end of the waitlist)
 * or not going (a place freed goes to the first waitlisted, announced as rsvp.promoted).
 */
export async function answerRsvp(
  app: AppServices,
  tx: Tx,
  announce: Announce<ClubEventMap>,
  event: EventRow,
  userId: string,
  answer: 'going' | 'not_going',
): Promise<'going' | 'waitlisted' | 'not_going'> {
  const [current] = await tx
    .select()
    .from(clubRsvp)
    .where(and(eq(clubRsvp.eventId, event.id), eq(clubRsvp.userId, userId)))
    .limit(1);
  const was = current?.status ?? null;
  if (answer === 'going') {
    if (was === 'going' || was === 'waitlisted') return was;
    const hasPlace = event.capacity === null || event.goingCount < event.capacity;
    const status = hasPlace ? 'going' : 'waitlisted';
    const values = {
      status,
      answeredAt: new Date(),
      queueOrder: hasPlace ? null : sql`nextval('club_rsvp_order_seq')`,
    } as const;
    await tx
      .insert(clubRsvp)
      .values({ eventId: event.id, userId, ...values })
      .onConflictDoUpdate({ target: [clubRsvp.eventId, clubRsvp.userId], set: values });
    if (hasPlace) {
      await tx
        .update(clubEvent)
        .set({ goingCount: sql`${clubEvent.goingCount} + 1` })
        .where(eq(clubEvent.id, event.id));
      event.goingCount += 1;
      await scheduleReminders(app, tx, event, userId);
    }
    return status;
  }
  // not going
  const values = { status: 'not_going', answeredAt: new Date(), queueOrder: null } as const;
  await tx
    .insert(clubRsvp)
    .values({ eventId: event.id, userId, ...values })
    .onConflictDoUpdate({ target: [clubRsvp.eventId, clubRsvp.userId], set: values });
  if (was === 'going') {
    await tx
      .update(clubEvent)
      .set({ goingCount: sql`${clubEvent.goingCount} - 1` })
      .where(eq(clubEvent.id, event.id));
    event.goingCount -= 1;
    await unscheduleReminders(app, tx, event, userId);
    const promoted = await fillFromWaitlist(app, tx, event);
    if (promoted.length) await announce('rsvp.promoted', { clubId: event.clubId, eventId: event.id, userIds: promoted });
  }
  return 'not_going';
}

/** A member leaves (or is removed): their answers to the club's events still to come become "not going". */
export async function releaseMemberRsvps(app: AppServices, tx: Tx, announce: Announce<ClubEventMap>, clubId: string, userId: string) {
  const rows = await tx
    .select({ eventId: clubRsvp.eventId })
    .from(clubRsvp)
    .innerJoin(clubEvent, eq(clubEvent.id, clubRsvp.eventId))
    .where(
      and(
        eq(clubEvent.clubId, clubId),
        eq(clubRsvp.userId, userId),
        inArray(clubRsvp.status, ['going', 'waitlisted']),
        gt(clubEvent.startsAt, new Date()),
      ),
    )
    .orderBy(asc(clubRsvp.eventId));
  for (const { eventId } of rows) {
    const event = await lockEvent(tx, eventId);
    await answerRsvp(app, tx, announce, event, userId, 'not_going');
  }
  return rows.length;
}

/** The members going to or waitlisted for an event (those to tell of a change). */
export async function attendeeIds(tx: Tx, eventId: string): Promise<string[]> {
  const rows = await tx
    .select({ userId: clubRsvp.userId })
    .from(clubRsvp)
    .where(and(eq(clubRsvp.eventId, eventId), inArray(clubRsvp.status, ['going', 'waitlisted'])));
  return rows.map((r) => r.userId);
}

/**
 * The club's next scheduled event start (club.next_event_at, for search), and a keyed job
 * that refreshes it when that event starts.
 */
export async function refreshNextEvent(app: AppServices, tx: Tx, clubId: string) {
  const [row] = await rowsOf<{ next_event_at: string | null }>(
    tx,
    sql`
    update club set next_event_at = (
      select min(starts_at) from club_event where club_id = ${clubId} and status = 'scheduled' and starts_at > now()
    ) where id = ${clubId} returning next_event_at`,
  );
  const key = `club-next-event:${clubId}`;
  await app.jobs.unschedule(key, tx);
  if (row?.next_event_at) await app.jobs.schedule(NEXT_EVENT_JOB, { clubId }, { runAt: new Date(row.next_event_at), key, conn: tx });
}
