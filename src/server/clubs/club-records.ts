import { and, asc, eq, gt, inArray, ne } from 'drizzle-orm';
import { club, clubEvent, clubMembership } from '../db/schema/clubs.js';
import type { Conn } from '../db/transaction.js';

/**
 * What clubs publish of their records for the other domains' reads (ADR 0035): notifications'
 * recipients and what a club event's notification says. Each reader is the one statement the
 * caller wrote before on clubs' tables.
 */

/** A club event's row. */
export type ClubEventRow = typeof clubEvent.$inferSelect;

/** The club's name; null for no such club. */
export async function clubNameOf(conn: Conn, clubId: string): Promise<string | null> {
  const [c] = await conn.select({ name: club.name }).from(club).where(eq(club.id, clubId)).limit(1);
  return c?.name ?? null;
}

/** A club event; null for no such event. */
export async function clubEventOf(conn: Conn, eventId: string): Promise<ClubEventRow | null> {
  const [ev] = await conn.select().from(clubEvent).where(eq(clubEvent.id, eventId)).limit(1);
  return ev ?? null;
}

/** The first to start of the club's events `eventIds` (a repeat's first date); null for none. */
export async function firstEventOf(conn: Conn, clubId: string, eventIds: string[]): Promise<ClubEventRow | null> {
  const [first] = await conn
    .select()
    .from(clubEvent)
    .where(and(eq(clubEvent.clubId, clubId), inArray(clubEvent.id, eventIds)))
    .orderBy(asc(clubEvent.startsAt))
    .limit(1);
  return first ?? null;
}

/** A page of the club's active members in id order: those after `after` (null: from the first), `except` left out. */
export async function activeMemberIdsOf(
  conn: Conn,
  clubId: string,
  page: { except: string; after: string | null; limit: number },
): Promise<string[]> {
  const members = await conn
    .select({ id: clubMembership.userId })
    .from(clubMembership)
    .where(
      and(
        eq(clubMembership.clubId, clubId),
        eq(clubMembership.state, 'active'),
        ne(clubMembership.userId, page.except),
        page.after !== null ? gt(clubMembership.userId, page.after) : undefined,
      ),
    )
    .orderBy(asc(clubMembership.userId))
    .limit(page.limit);
  return members.map((m) => m.id);
}
