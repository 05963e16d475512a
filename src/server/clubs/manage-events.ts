import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { eventInput, eventUpdate } from '../../shared/clubs-schemas.js';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { clubEvent, clubRsvp } from '../db/schema/clubs.js';
import { AppError } from '../http/errors.js';
import { managedClub, managedEvent } from './access.js';
import {
  attendeeIds,
  fillFromWaitlist,
  lockEvent,
  refreshNextEvent,
  scheduleReminders,
  unscheduleAllReminders,
  unscheduleReminders,
} from './attendance.js';
import { localToUtc, occurrences } from './event-times.js';

type EventFields = z.output<typeof eventUpdate>;

function checkTimes(startsAt: Date, rsvpDeadline: Date | null) {
  if (startsAt.getTime() < Date.now()) throw AppError.badRequest('The event starts in the past', { startsAt: 'Choose a future time' });
  if (rsvpDeadline && rsvpDeadline.getTime() < Date.now())
    throw AppError.badRequest('The RSVP deadline is in the past', { rsvpDeadline: 'Choose a future time, or none' });
}

const placeAndText = (input: EventFields) => ({
  title: input.title,
  description: input.description,
  timeZone: input.timeZone,
  onlineUrl: input.onlineUrl,
  address: input.address,
  capacity: input.capacity,
});

/**
 * Creates an event, or every event of a repeat as separate rows of one series (each can be
 * changed or cancelled on its own), organisers only; all or nothing.
 */
export async function createEvents(
  app: AppServices,
  viewer: Viewer,
  clubId: string,
  input: z.output<typeof eventInput>,
): Promise<string[]> {
  const times = occurrences(input.startsAt, input.endsAt, input.timeZone, input.repeat);
  const deadline = input.rsvpDeadline ? localToUtc(input.rsvpDeadline, input.timeZone) : null;
  checkTimes(times[0].startsAt, deadline);
  const seriesId = times.length > 1 ? randomUUID() : null;
  const { value } = await app.clubEvents.transaction(app.database.db, async (tx, announce) => {
    await managedClub(tx, clubId, viewer);
    const rows = await tx
      .insert(clubEvent)
      .values(
        times.map((t) => ({
          clubId,
          seriesId,
          ...placeAndText(input),
          ...t,
          // The deadline moves with each event of the repeat (as long before its start).
          rsvpDeadline: deadline ? new Date(deadline.getTime() + (t.startsAt.getTime() - times[0].startsAt.getTime())) : null,
          createdBy: viewer.user.id,
        })),
      )
      .returning({ id: clubEvent.id });
    await refreshNextEvent(app, tx, clubId);
    const ids = rows.map((r) => r.id);
    await announce('club-event.created', { clubId, eventIds: ids, createdBy: viewer.user.id });
    return ids;
  });
  return value;
}

/**
 * Changes one event (organisers). Capacity cannot go below the members already going; more
 * places go to the waitlist; a new time moves every reminder (and they may fire again).
 */
export async function updateEvent(app: AppServices, viewer: Viewer, clubId: string, eventId: string, input: EventFields) {
  const startsAt = localToUtc(input.startsAt, input.timeZone);
  const endsAt = localToUtc(input.endsAt, input.timeZone);
  const rsvpDeadline = input.rsvpDeadline ? localToUtc(input.rsvpDeadline, input.timeZone) : null;
  await app.clubEvents.transaction(app.database.db, async (tx, announce) => {
    await managedEvent(tx, clubId, eventId, viewer);
    const event = await lockEvent(tx, eventId);
    if (event.status === 'cancelled') throw AppError.badRequest('This event is cancelled');
    const moved = startsAt.getTime() !== event.startsAt.getTime();
    if (moved || endsAt.getTime() !== event.endsAt.getTime()) checkTimes(startsAt, null);
    if (rsvpDeadline && rsvpDeadline.getTime() !== event.rsvpDeadline?.getTime()) checkTimes(startsAt, rsvpDeadline);
    if (input.capacity !== null && input.capacity < event.goingCount)
      throw AppError.badRequest(`Capacity cannot be below the ${event.goingCount} members already going`, {
        capacity: `At least ${event.goingCount}`,
      });
    const changed =
      moved ||
      endsAt.getTime() !== event.endsAt.getTime() ||
      input.address !== event.address ||
      input.onlineUrl !== event.onlineUrl ||
      input.title !== event.title;
    await tx
      .update(clubEvent)
      .set({ ...placeAndText(input), startsAt, endsAt, rsvpDeadline, updatedAt: new Date() })
      .where(eq(clubEvent.id, eventId));
    Object.assign(event, { startsAt, endsAt, capacity: input.capacity });
    if (moved) {
      const going = await tx
        .update(clubRsvp)
        .set({ reminded: sql`'{}'::text[]` })
        .where(and(eq(clubRsvp.eventId, eventId), eq(clubRsvp.status, 'going')))
        .returning({ userId: clubRsvp.userId });
      for (const g of going) {
        await unscheduleReminders(app, tx, event, g.userId);
        await scheduleReminders(app, tx, event, g.userId);
      }
    }
    const promoted = await fillFromWaitlist(app, tx, event);
    if (promoted.length) await announce('rsvp.promoted', { clubId, eventId, userIds: promoted });
    await refreshNextEvent(app, tx, clubId);
    if (changed) await announce('club-event.changed', { clubId, eventId, attendeeIds: await attendeeIds(tx, eventId) });
  });
}

/** Cancels one event (organisers): its reminders are dropped and its attendees told. */
export async function cancelEvent(app: AppServices, viewer: Viewer, clubId: string, eventId: string) {
  await app.clubEvents.transaction(app.database.db, async (tx, announce) => {
    await managedEvent(tx, clubId, eventId, viewer);
    const event = await lockEvent(tx, eventId);
    if (event.status === 'cancelled') return;
    await tx.update(clubEvent).set({ status: 'cancelled', updatedAt: new Date() }).where(eq(clubEvent.id, eventId));
    await unscheduleAllReminders(tx, clubId, eventId);
    await refreshNextEvent(app, tx, clubId);
    await announce('club-event.cancelled', { clubId, eventId, attendeeIds: await attendeeIds(tx, eventId) });
  });
}
