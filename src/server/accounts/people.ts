import { eq, inArray, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { user } from '../db/schema/accounts.js';
import type { Conn } from '../db/transaction.js';

/**
 * The accounts' people as a relation the other domains may name in their own SQL (ADR 0035):
 * a user's public face (name, picture, city) and standing (banned, role), and the email and
 * time zone of whom they write to. Use it with an alias: `join ${people} u on u.id = ...`.
 * A plain subquery, so PostgreSQL inlines it: the plan is that of a join on "user" itself.
 * Accounts own `user`; a domain that needs another column asks here, not in its own SQL.
 */
export const people = sql`(select id, name, first_name, last_name, profile_image, city, banned, role, email, time_zone from "user")`;

/** The educator records (an account's educator profile) as a relation, like `people`: `join ${educatorProfiles} e on e.user_id = ...`. */
export const educatorProfiles = sql`(select user_id, headline, bio, profile_image, subjects, links, stripe_connect_account_id from educator)`;

/** The user's role, read fresh (a revoked admin role stops at once); null for no such user. */
export async function roleOf(conn: Conn, userId: string): Promise<string | null> {
  const [row] = await conn.select({ role: user.role }).from(user).where(eq(user.id, userId));
  return row?.role ?? null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who some accounts are, for lists that name people (an admin's audit log): id -> name and email. Unknown ids are left out. */
export async function contactsOf(conn: Conn, ids: Iterable<string>): Promise<Map<string, { name: string; email: string }>> {
  const wanted = [...new Set(ids)].filter((id) => UUID.test(id));
  if (wanted.length === 0) return new Map();
  const rows = await conn
    .select({ id: user.id, firstName: user.firstName, lastName: user.lastName, email: user.email })
    .from(user)
    .where(inArray(user.id, wanted));
  return new Map(rows.map((r) => [r.id, { name: [r.firstName, r.lastName].filter(Boolean).join(' '), email: r.email }]));
}

/**
 * `people` for Drizzle's query builder (ADR 0035): the same public columns as a subquery to
 * join like a table, `.innerJoin(person, eq(person.id, x.userId))`, and read as
 * `person.firstName`. A plain subquery, so PostgreSQL inlines it (the plan of a join on "user").
 */
export const person = new QueryBuilder()
  .select({
    id: user.id,
    name: user.name,
    firstName: user.firstName,
    lastName: user.lastName,
    image: user.image,
    city: user.city,
    email: user.email,
    timeZone: user.timeZone,
    banned: user.banned,
  })
  .from(user)
  .as('person');

/** "First Last" of `person` (as the clubs show a member). */
export const personFullName = sql<string>`${person.firstName} || ' ' || ${person.lastName}`;

/** Whether the account exists (an erased one does: its row stays under a pseudonym). */
export async function accountExists(conn: Conn, userId: string): Promise<boolean> {
  const [row] = await conn.select({ id: user.id }).from(user).where(eq(user.id, userId)).limit(1);
  return !!row;
}

/** The user's time zone (null: none set, or no such user: UTC). */
export async function timeZoneOf(conn: Conn, userId: string): Promise<string | null> {
  const [row] = await conn.select({ timeZone: user.timeZone }).from(user).where(eq(user.id, userId)).limit(1);
  return row?.timeZone ?? null;
}

/** The user's city as they typed it (null: none, or no such user). */
export async function cityOf(conn: Conn, userId: string): Promise<string | null> {
  const [row] = await conn.select({ city: user.city }).from(user).where(eq(user.id, userId));
  return row?.city ?? null;
}

/** "First Last" of a user, trimmed; null for no such user. */
export async function fullNameOf(conn: Conn, userId: string): Promise<string | null> {
  const [u] = await conn.select({ firstName: user.firstName, lastName: user.lastName }).from(user).where(eq(user.id, userId)).limit(1);
  return u ? `${u.firstName} ${u.lastName}`.trim() : null;
}

/** Whom an email goes to: address, first name, time zone and whether banned; null for no such user. */
export async function mailContactOf(
  conn: Conn,
  userId: string,
): Promise<{ email: string; firstName: string; timeZone: string | null; banned: boolean } | null> {
  const [u] = await conn
    .select({ email: user.email, firstName: user.firstName, timeZone: user.timeZone, banned: user.banned })
    .from(user)
    .where(eq(user.id, userId))
    .limit(1);
  return u ?? null;
}
