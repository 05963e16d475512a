import { and, asc, desc, eq, gt, inArray, lte, or, sql } from 'drizzle-orm';
import type { ClubView, EventCard, MembersResult } from '../../shared/clubs-schemas.js';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { person, personFullName } from '../accounts/people.js';
import { club, clubEvent, clubMembership, clubRsvp } from '../db/schema/clubs.js';
import type { Conn } from '../db/transaction.js';
import { AppError } from '../http/errors.js';
import { clubWithMembership, isOrganiser, seesInside } from './access.js';

export const personName = personFullName;

/**
 * Event cards with the viewer's answer and place in the waitlist. The caller has checked
 * that the viewer may see these events.
 */
export async function eventCards(
  db: Conn,
  viewerId: string,
  where: ReturnType<typeof and>,
  order: 'asc' | 'desc',
  limit: number,
): Promise<EventCard[]> {
  const rows = await db
    .select({
      id: clubEvent.id,
      clubId: clubEvent.clubId,
      clubName: club.name,
      seriesId: clubEvent.seriesId,
      title: clubEvent.title,
      startsAt: clubEvent.startsAt,
      endsAt: clubEvent.endsAt,
      timeZone: clubEvent.timeZone,
      onlineUrl: clubEvent.onlineUrl,
      address: clubEvent.address,
      status: clubEvent.status,
      goingCount: clubEvent.goingCount,
      capacity: clubEvent.capacity,
      rsvp: clubRsvp.status,
      position: sql<number | null>`case when ${clubRsvp.status} = 'waitlisted' then (
        select count(*)::int from club_rsvp w where w.event_id = ${clubEvent.id} and w.status = 'waitlisted' and w.queue_order <= ${clubRsvp.queueOrder}) end`,
    })
    .from(clubEvent)
    .innerJoin(club, eq(club.id, clubEvent.clubId))
    .leftJoin(clubRsvp, and(eq(clubRsvp.eventId, clubEvent.id), eq(clubRsvp.userId, viewerId)))
    .where(where)
    .orderBy(order === 'asc' ? asc(clubEvent.startsAt) : desc(clubEvent.startsAt), asc(clubEvent.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    clubId: r.clubId,
    clubName: r.clubName,
    seriesId: r.seriesId,
    title: r.title,
    startsAt: r.startsAt.toISOString(),
    endsAt: r.endsAt.toISOString(),
    timeZone: r.timeZone,
    online: !!r.onlineUrl,
    address: r.address,
    status: r.status as EventCard['status'],
    goingCount: r.goingCount,
    capacity: r.capacity,
    myRsvp: r.rsvp ? { status: r.rsvp as 'going', waitlistPosition: r.position } : null,
  }));
}

async function people(db: Conn, clubId: string, roles: string[], limit: number) {
  const rows = await db
    .select({ id: person.id, name: personName, image: person.image })
    .from(clubMembership)
    .innerJoin(person, eq(person.id, clubMembership.userId))
    .where(and(eq(clubMembership.clubId, clubId), eq(clubMembership.state, 'active'), inArray(clubMembership.role, roles)))
    .orderBy(sql`case ${clubMembership.role} when 'owner' then 0 when 'organiser' then 1 else 2 end`, asc(clubMembership.createdAt))
    .limit(limit);
  return rows;
}

/**
 * The club page. A non-member of an approval club sees its public part only (name,
 * description, rules, member count): no members, organisers or events.
 */
export async function getClub(app: AppServices, viewer: Viewer, clubId: string): Promise<ClubView> {
  const db = app.database.db;
  const { club: c, membership: m } = await clubWithMembership(db, clubId, viewer);
  const inside = seesInside(c, m);
  const now = new Date();
  const [organisers, memberPreview, upcomingEvents, pastEvents] = inside
    ? await Promise.all([
        people(db, clubId, ['owner', 'organiser'], 20),
        people(db, clubId, ['owner', 'organiser', 'member'], 12),
        eventCards(db, viewer.user.id, and(eq(clubEvent.clubId, clubId), gt(clubEvent.endsAt, now)), 'asc', 50),
        eventCards(db, viewer.user.id, and(eq(clubEvent.clubId, clubId), lte(clubEvent.endsAt, now)), 'desc', 12),
      ])
    : [[], [], [], []];
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    category: c.category,
    city: c.city,
    online: c.online,
    coverImage: c.coverImage,
    visibility: c.visibility as ClubView['visibility'],
    joinQuestion: c.joinQuestion,
    rules: c.rules,
    memberCount: c.memberCount,
    createdAt: c.createdAt.toISOString(),
    myMembership: m && (m.state === 'active' || m.state === 'pending') ? { role: m.role as 'member', state: m.state as 'active' } : null,
    membersVisible: inside,
    canManage: isOrganiser(m),
    isOwner: isOrganiser(m) && m?.role === 'owner',
    organisers,
    memberPreview,
    upcomingEvents,
    pastEvents,
  };
}

/** The members list (whoever sees inside); with the pending requests for organisers. */
export async function listMembers(app: AppServices, viewer: Viewer, clubId: string): Promise<MembersResult> {
  const db = app.database.db;
  const { club: c, membership: m } = await clubWithMembership(db, clubId, viewer);
  if (!seesInside(c, m)) throw AppError.forbidden('Only members see the members of this club');
  const rows = await db
    .select({
      id: person.id,
      name: personName,
      image: person.image,
      role: clubMembership.role,
      state: clubMembership.state,
      answer: clubMembership.joinAnswer,
      at: clubMembership.createdAt,
    })
    .from(clubMembership)
    .innerJoin(person, eq(person.id, clubMembership.userId))
    .where(
      and(
        eq(clubMembership.clubId, clubId),
        isOrganiser(m) ? or(eq(clubMembership.state, 'active'), eq(clubMembership.state, 'pending')) : eq(clubMembership.state, 'active'),
      ),
    )
    .orderBy(sql`case ${clubMembership.role} when 'owner' then 0 when 'organiser' then 1 else 2 end`, asc(clubMembership.createdAt))
    .limit(5000);
  return {
    members: rows
      .filter((r) => r.state === 'active')
      .map((r) => ({ id: r.id, name: r.name, image: r.image, role: r.role as 'member', joinedAt: r.at.toISOString() })),
    requests: rows
      .filter((r) => r.state === 'pending')
      .map((r) => ({ id: r.id, name: r.name, image: r.image, answer: r.answer, requestedAt: r.at.toISOString() })),
  };
}
