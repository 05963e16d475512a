import { and, eq, gt, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { clubEvent, clubMembership, clubRsvp } from '../db/schema/clubs.js';
import { NEXT_EVENT_JOB, REMINDER_JOB, refreshNextEvent, type Before } from './attendance.js';

/**
 * The background work of clubs (registered at start-up in app.ts). Jobs are delivered at
 * least once, so each re-checks: a reminder is announced only while the event is scheduled
 * and to come and the member is still an active member going, and only once per answer
 * (club_rsvp.reminded is set in the announcing transaction).
 */
export function registerClubJobs(app: AppServices & { jobs: AppServices['jobs'] }) {
  app.jobs.register(REMINDER_JOB, async (payload) => {
    const { clubId, eventId, userId, before } = payload as { clubId: string; eventId: string; userId: string; before: Before };
    await sendReminder(app, { clubId, eventId, userId, before });
  });
  app.jobs.register(NEXT_EVENT_JOB, async (payload) => {
    const { clubId } = payload as { clubId: string };
    await app.database.db.transaction((tx) => refreshNextEvent(app, tx, clubId));
  });
}

/** Announces event.reminder-due if it still holds; answers whether it did. */
export async function sendReminder(app: AppServices, r: { clubId: string; eventId: string; userId: string; before: Before }) {
  const { value } = await app.clubEvents.transaction(app.database.db, async (tx, announce) => {
    const marked = await tx
      .update(clubRsvp)
      .set({ reminded: sql`array_append(${clubRsvp.reminded}, ${r.before})` })
      .where(
        and(
          eq(clubRsvp.eventId, r.eventId),
          eq(clubRsvp.userId, r.userId),
          eq(clubRsvp.status, 'going'),
          sql`not (${r.before} = any(${clubRsvp.reminded}))`,
          sql`exists (select 1 from ${clubEvent} where ${clubEvent.id} = ${r.eventId} and ${clubEvent.status} = 'scheduled' and ${gt(clubEvent.startsAt, new Date())})`,
          sql`exists (select 1 from ${clubMembership} where ${clubMembership.clubId} = ${r.clubId} and ${clubMembership.userId} = ${r.userId} and ${clubMembership.state} = 'active')`,
        ),
      )
      .returning({ userId: clubRsvp.userId });
    if (!marked.length) return false;
    await announce('event.reminder-due', r);
    return true;
  });
  return value;
}
