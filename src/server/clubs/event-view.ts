import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { EventView } from '../../shared/clubs-schemas.js';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { user } from '../db/schema/accounts.js';
import { clubRsvp } from '../db/schema/clubs.js';
import { isActive, isOrganiser, visibleEvent } from './access.js';
import { personName } from './club-view.js';
import { utcToLocal } from './event-times.js';
import { waitlistPosition } from './rsvp-event.js';

/**
 * The event page: anyone who sees the club's inside; the online link and the attendee list
 * are for members.
 */
export async function getEvent(app: AppServices, viewer: Viewer, clubId: string, eventId: string): Promise<EventView> {
  const db = app.database.db;
  const { club: c, membership: m, event: e } = await visibleEvent(db, clubId, eventId, viewer);
  const member = isActive(m);
  const [attendees, counts, mine, position] = await Promise.all([
    member
      ? db
          .select({ id: user.id, name: personName, image: user.image, status: clubRsvp.status })
          .from(clubRsvp)
          .innerJoin(user, eq(user.id, clubRsvp.userId))
          .where(and(eq(clubRsvp.eventId, eventId), inArray(clubRsvp.status, ['going', 'waitlisted'])))
          .orderBy(sql`case ${clubRsvp.status} when 'going' then 0 else 1 end`, asc(clubRsvp.queueOrder), asc(clubRsvp.answeredAt))
          .limit(2000)
      : [],
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(clubRsvp)
      .where(and(eq(clubRsvp.eventId, eventId), eq(clubRsvp.status, 'waitlisted'))),
    db
      .select({ status: clubRsvp.status })
      .from(clubRsvp)
      .where(and(eq(clubRsvp.eventId, eventId), eq(clubRsvp.userId, viewer.user.id))),
    waitlistPosition(db, eventId, viewer.user.id),
  ]);
  return {
    id: e.id,
    clubId: c.id,
    clubName: c.name,
    seriesId: e.seriesId,
    title: e.title,
    description: e.description,
    startsAt: e.startsAt.toISOString(),
    endsAt: e.endsAt.toISOString(),
    timeZone: e.timeZone,
    online: !!e.onlineUrl,
    onlineUrl: member ? e.onlineUrl : null,
    address: e.address,
    capacity: e.capacity,
    rsvpDeadline: e.rsvpDeadline?.toISOString() ?? null,
    status: e.status as EventView['status'],
    goingCount: e.goingCount,
    waitlistCount: counts[0].n,
    myRsvp: mine[0] ? { status: mine[0].status as 'going', waitlistPosition: position } : null,
    isMember: member,
    canManage: isOrganiser(m),
    attendees: attendees.map((a) => ({ ...a, status: a.status as 'going' })),
    local: {
      startsAt: utcToLocal(e.startsAt, e.timeZone),
      endsAt: utcToLocal(e.endsAt, e.timeZone),
      rsvpDeadline: e.rsvpDeadline ? utcToLocal(e.rsvpDeadline, e.timeZone) : null,
    },
  };
}
