import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { person } from '../accounts/people.js';
import { club, clubEvent, clubMembership, clubRsvp } from '../db/schema/clubs.js';
import { icsDocument, type CalendarEntry } from '../courses/calendar.js';
import { csvCell } from '../courses/roster-service.js';
import { isActive, managedEvent, visibleEvent } from './access.js';
import { personName } from './club-view.js';

const entry = (app: AppServices, e: typeof clubEvent.$inferSelect, member: boolean): CalendarEntry => ({
  uid: `club-event-${e.id}@agora`,
  startsAt: e.startsAt,
  endsAt: e.endsAt,
  title: e.status === 'cancelled' ? `Cancelled: ${e.title}` : e.title,
  location: e.address || (member ? e.onlineUrl : null) || null,
  url: `${app.config.publicUrl}/club/${e.clubId}/event/${e.id}`,
});

/** "Add to calendar": one event as an .ics file (whoever sees the event). */
export async function eventIcs(app: AppServices, viewer: Viewer, clubId: string, eventId: string) {
  const { event, membership } = await visibleEvent(app.database.db, clubId, eventId, viewer);
  return { ics: icsDocument([entry(app, event, isActive(membership))], event.title), title: event.title };
}

/** The attendees as CSV (organisers), every cell formula-safe like the course roster. */
export async function attendeesCsv(app: AppServices, viewer: Viewer, clubId: string, eventId: string) {
  const db = app.database.db;
  const { event } = await managedEvent(db, clubId, eventId, viewer);
  const rows = await db
    .select({ name: personName, email: person.email, status: clubRsvp.status, answeredAt: clubRsvp.answeredAt })
    .from(clubRsvp)
    .innerJoin(person, eq(person.id, clubRsvp.userId))
    .where(eq(clubRsvp.eventId, eventId))
    .orderBy(
      sql`case ${clubRsvp.status} when 'going' then 0 when 'waitlisted' then 1 else 2 end`,
      asc(clubRsvp.queueOrder),
      asc(clubRsvp.answeredAt),
    );
  const header = ['Name', 'Email', 'Answer', 'Answered at'];
  const lines = rows.map((r) => [r.name, r.email, r.status.replace('_', ' '), r.answeredAt.toISOString()].map(csvCell).join(','));
  return { csv: [header.map(csvCell).join(','), ...lines].join('\r\n') + '\r\n', title: event.title };
}

/**
 * The club events a user is going to, for their calendar (the .ics download and the private
 * feed): only clubs they are an active member of, so an approval club's events never reach
 * anyone else's feed.
 */
export async function clubCalendarEntries(app: AppServices, userId: string): Promise<CalendarEntry[]> {
  const rows = await app.database.db
    .select({ e: clubEvent })
    .from(clubRsvp)
    .innerJoin(clubEvent, eq(clubEvent.id, clubRsvp.eventId))
    .innerJoin(club, eq(club.id, clubEvent.clubId))
    .innerJoin(clubMembership, and(eq(clubMembership.clubId, club.id), eq(clubMembership.userId, userId)))
    .where(
      and(
        eq(clubRsvp.userId, userId),
        eq(clubRsvp.status, 'going'),
        eq(clubMembership.state, 'active'),
        inArray(clubEvent.status, ['scheduled']),
        gte(clubEvent.endsAt, new Date(Date.now() - 90 * 86400_000)),
      ),
    )
    .orderBy(asc(clubEvent.startsAt))
    .limit(1000);
  return rows.map((r) => entry(app, r.e, true));
}
