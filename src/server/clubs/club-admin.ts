import { and, asc, count, desc, eq, gt, ilike, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { person } from '../accounts/people.js';
import type { AppServices } from '../app-services.js';
import { club, clubEvent, clubMembership } from '../db/schema/clubs.js';
import { likePattern } from '../db/like-pattern.js';
import type { Conn, Tx } from '../db/transaction.js';
import { AppError } from '../http/errors.js';
import { removeClub } from './delete-club.js';

/**
 * What clubs publish for the admin console (ADR 0035: the owner reads its tables, admin asks
 * here): the clubs with their owner and counts, one club in more detail, and the deletion an
 * admin makes (the same as the owner's, in a transaction the caller adds its audit row to).
 */

const owner = alias(clubMembership, 'owner');

/** Events of the club (every status, past and to come) and those still to come. */
const eventCount = sql<number>`(select count(*)::int from club_event e where e.club_id = ${club.id})`;
const upcomingCount = sql<number>`(select count(*)::int from club_event e where e.club_id = ${club.id} and e.status = 'scheduled' and e.starts_at > now())`;

const rowColumns = {
  id: club.id,
  name: club.name,
  category: club.category,
  city: club.city,
  online: club.online,
  visibility: club.visibility,
  memberCount: club.memberCount,
  eventCount,
  upcomingEventCount: upcomingCount,
  createdAt: club.createdAt,
  ownerId: person.id,
  ownerFirstName: person.firstName,
  ownerLastName: person.lastName,
  ownerEmail: person.email,
};

type OwnerColumns = { ownerId: string | null; ownerFirstName: string | null; ownerLastName: string | null; ownerEmail: string | null };

/** The owner as one field (null: a club whose owner's row is gone). */
function withOwner<T extends OwnerColumns>({ ownerId, ownerFirstName, ownerLastName, ownerEmail, ...r }: T) {
  const owner = ownerId ? { id: ownerId, name: [ownerFirstName, ownerLastName].filter(Boolean).join(' '), email: ownerEmail ?? '' } : null;
  return { ...(r as Omit<T, keyof OwnerColumns>), owner };
}

/**
 * A page of clubs, newest first: `q` matches the club's name or its owner's name or email
 * (the one who answers for it). The owner is the active `owner` membership.
 */
export async function listClubsForAdmin(conn: Conn, query: { q?: string; page: number; pageSize: number }) {
  const ownerJoin = and(eq(owner.clubId, club.id), eq(owner.role, 'owner'), eq(owner.state, 'active'));
  let cond: SQL | undefined;
  if (query.q) {
    const p = likePattern(query.q);
    cond = or(ilike(club.name, p), ilike(person.email, p), ilike(sql`${person.firstName} || ' ' || ${person.lastName}`, p));
  }
  const [{ total }] = await conn
    .select({ total: count() })
    .from(club)
    .leftJoin(owner, ownerJoin)
    .leftJoin(person, eq(person.id, owner.userId))
    .where(cond);
  const rows = await conn
    .select(rowColumns)
    .from(club)
    .leftJoin(owner, ownerJoin)
    .leftJoin(person, eq(person.id, owner.userId))
    .where(cond)
    .orderBy(desc(club.createdAt), club.id)
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return { rows: rows.map(withOwner), total };
}

/** One club as the console shows it: the list's row, its card's line (the description as plain text) and rules, organisers, events to come; null for no such club. */
export async function clubForAdmin(conn: Conn, clubId: string) {
  const [row] = await conn
    .select({ ...rowColumns, summary: club.summary, rules: club.rules, joinQuestion: club.joinQuestion })
    .from(club)
    .leftJoin(owner, and(eq(owner.clubId, club.id), eq(owner.role, 'owner'), eq(owner.state, 'active')))
    .leftJoin(person, eq(person.id, owner.userId))
    .where(eq(club.id, clubId));
  if (!row) return null;
  const [organisers, upcoming] = await Promise.all([
    conn
      .select({ id: person.id, firstName: person.firstName, lastName: person.lastName, email: person.email })
      .from(clubMembership)
      .innerJoin(person, eq(person.id, clubMembership.userId))
      .where(and(eq(clubMembership.clubId, clubId), eq(clubMembership.role, 'organiser'), eq(clubMembership.state, 'active')))
      .orderBy(asc(clubMembership.createdAt), asc(clubMembership.userId))
      .limit(50),
    conn
      .select({
        id: clubEvent.id,
        title: clubEvent.title,
        startsAt: clubEvent.startsAt,
        goingCount: clubEvent.goingCount,
        capacity: clubEvent.capacity,
      })
      .from(clubEvent)
      .where(and(eq(clubEvent.clubId, clubId), eq(clubEvent.status, 'scheduled'), gt(clubEvent.startsAt, new Date())))
      .orderBy(asc(clubEvent.startsAt), asc(clubEvent.id))
      .limit(20),
  ]);
  return {
    ...withOwner(row),
    organisers: organisers.map((o) => ({ id: o.id, name: [o.firstName, o.lastName].filter(Boolean).join(' '), email: o.email })),
    upcomingEvents: upcoming,
  };
}

/**
 * An admin deletes a club (typing its name to confirm), as its owner can: events still to
 * come cancelled and their attendees told (club.deleted), the club's rows gone. `record` runs
 * in the same transaction (the admin's audit row); answers what the club was.
 */
export async function deleteClubAsAdmin(
  app: AppServices,
  clubId: string,
  confirmName: string,
  record: (tx: Tx, deleted: { name: string; ownerId: string | null }) => Promise<void>,
) {
  await app.clubEvents.transaction(app.database.db, async (tx, announce) => {
    // The club row first: the lock every membership change takes.
    const [c] = await tx.select({ id: club.id, name: club.name }).from(club).where(eq(club.id, clubId)).for('update');
    if (!c) throw AppError.notFound('No such club');
    if (confirmName.trim() !== c.name)
      throw AppError.badRequest('Type the club name exactly to confirm', { confirmName: 'Type the club name exactly' });
    const [o] = await tx
      .select({ userId: clubMembership.userId })
      .from(clubMembership)
      .where(and(eq(clubMembership.clubId, clubId), eq(clubMembership.role, 'owner')));
    await removeClub(app, tx, announce, c);
    await record(tx, { name: c.name, ownerId: o?.userId ?? null });
  });
}
