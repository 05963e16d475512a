import { eq, inArray, sql } from 'drizzle-orm';
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
