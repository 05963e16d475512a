import { and, eq, lte, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { clubRsvp } from '../db/schema/clubs.js';
import type { Conn } from '../db/transaction.js';
import { AppError } from '../http/errors.js';
import { isActive, visibleEvent } from './access.js';
import { answerRsvp, lockEvent } from './attendance.js';

/** The place of a member in an event's waitlist (1 = next to get a place). */
export async function waitlistPosition(db: Conn, eventId: string, userId: string): Promise<number | null> {
  const [mine] = await db
    .select({ order: clubRsvp.queueOrder })
    .from(clubRsvp)
    .where(and(eq(clubRsvp.eventId, eventId), eq(clubRsvp.userId, userId), eq(clubRsvp.status, 'waitlisted')));
  if (!mine?.order) return null;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(clubRsvp)
    .where(and(eq(clubRsvp.eventId, eventId), eq(clubRsvp.status, 'waitlisted'), lte(clubRsvp.queueOrder, mine.order)));
  return row.n;
}

/**
 * A member answers going or not going. Under the event's row lock: a place while there is
 * one, else the end of the waitlist; "not going" frees a place for the first waitlisted.
 */
export async function rsvpEvent(app: AppServices, viewer: Viewer, clubId: string, eventId: string, answer: 'going' | 'not_going') {
  const { value } = await app.clubEvents.transaction(app.database.db, async (tx, announce) => {
    const { membership } = await visibleEvent(tx, clubId, eventId, viewer);
    if (!isActive(membership)) throw AppError.forbidden('Join the club to answer its events');
    const event = await lockEvent(tx, eventId);
    if (event.status !== 'scheduled') throw AppError.badRequest('This event is cancelled');
    if (event.startsAt.getTime() <= Date.now()) throw AppError.badRequest('This event has already started');
    if (answer === 'going' && event.rsvpDeadline && event.rsvpDeadline.getTime() < Date.now())
      throw AppError.badRequest('RSVPs for this event are closed');
    const status = await answerRsvp(app, tx, announce, event, viewer.user.id, answer);
    return { status, waitlistPosition: status === 'waitlisted' ? await waitlistPosition(tx, eventId, viewer.user.id) : null };
  });
  const message =
    value.status === 'going'
      ? "You're going"
      : value.status === 'waitlisted'
        ? `The event is full: you are number ${value.waitlistPosition} on the waitlist`
        : "You're not going";
  return { ...value, message };
}
