import { and, eq, inArray } from 'drizzle-orm';
import type { Conn } from '../db/transaction.js';
import { club, clubEvent, clubMembership } from '../db/schema/clubs.js';
import { AppError } from '../http/errors.js';
import type { Viewer } from '../accounts/viewer.js';

/**
 * Who may do what in a club. Every club and event use case goes through here:
 * - anyone signed in sees a club's public part (name, description, member count);
 * - members and events of an approval club: its active members only;
 * - settings, members and events: organisers (and the owner); ownership and deletion: the owner.
 */
export type ClubRow = typeof club.$inferSelect;
export type MembershipRow = typeof clubMembership.$inferSelect;

export const isActive = (m: MembershipRow | null | undefined): m is MembershipRow => m?.state === 'active';
export const isOrganiser = (m: MembershipRow | null | undefined) => isActive(m) && (m.role === 'owner' || m.role === 'organiser');

/** Whether the user organises (or owns) any club now: who hears about requests to join one. */
export async function organisesAClub(db: Conn, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ clubId: clubMembership.clubId })
    .from(clubMembership)
    .where(and(eq(clubMembership.userId, userId), eq(clubMembership.state, 'active'), inArray(clubMembership.role, ['owner', 'organiser'])))
    .limit(1);
  return Boolean(row);
}

/** Members and events are visible: a public club, or an active member of an approval club. */
export const seesInside = (c: ClubRow, m: MembershipRow | null | undefined) => c.visibility === 'public' || isActive(m);

export async function clubWithMembership(db: Conn, clubId: string, viewer: Viewer, lock = false) {
  const q = db.select().from(club).where(eq(club.id, clubId)).limit(1);
  const [c] = lock ? await q.for('no key update') : await q;
  if (!c) throw AppError.notFound('This club does not exist');
  const [m] = await db
    .select()
    .from(clubMembership)
    .where(and(eq(clubMembership.clubId, clubId), eq(clubMembership.userId, viewer.user.id)))
    .limit(1);
  return { club: c, membership: m ?? null };
}

/** A club whose organisers (or owner) the viewer is one of. */
export async function managedClub(db: Conn, clubId: string, viewer: Viewer, lock = false) {
  const r = await clubWithMembership(db, clubId, viewer, lock);
  if (!seesInside(r.club, r.membership)) throw AppError.notFound('This club does not exist');
  if (!isOrganiser(r.membership)) throw AppError.forbidden('Only the organisers of this club can do this');
  return r;
}

/** A club the viewer owns. */
export async function ownedClub(db: Conn, clubId: string, viewer: Viewer, lock = false) {
  const r = await managedClub(db, clubId, viewer, lock);
  if (r.membership?.role !== 'owner') throw AppError.forbidden('Only the owner of this club can do this');
  return r;
}

/** An event of a club whose inside the viewer may see (404 otherwise: it is not shown to them). */
export async function visibleEvent(db: Conn, clubId: string, eventId: string, viewer: Viewer) {
  const r = await clubWithMembership(db, clubId, viewer);
  if (!seesInside(r.club, r.membership)) throw AppError.notFound('This event does not exist');
  const [e] = await db
    .select()
    .from(clubEvent)
    .where(and(eq(clubEvent.id, eventId), eq(clubEvent.clubId, clubId)))
    .limit(1);
  if (!e) throw AppError.notFound('This event does not exist');
  return { ...r, event: e };
}

/** An event of a club the viewer organises. */
export async function managedEvent(db: Conn, clubId: string, eventId: string, viewer: Viewer) {
  const r = await visibleEvent(db, clubId, eventId, viewer);
  if (!isOrganiser(r.membership)) throw AppError.forbidden('Only the organisers of this club can do this');
  return r;
}
