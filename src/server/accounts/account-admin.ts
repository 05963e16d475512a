import { and, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { signInSession, twoFactor, user } from '../db/schema/accounts.js';
import type { Conn, Tx } from '../db/transaction.js';
import { likePattern } from '../db/like-pattern.js';

/**
 * The account records behind the admin console's account management (ADR 0035: accounts own
 * `user`, `session` and `two_factor`). admin/users.ts keeps the use cases (who may act, the
 * last admin, the audit log); these are the reads and writes on accounts' tables, each the
 * statement admin wrote before, run on the caller's connection or transaction.
 */

const rowColumns = {
  id: user.id,
  email: user.email,
  firstName: user.firstName,
  lastName: user.lastName,
  role: user.role,
  banned: user.banned,
  banReason: user.banReason,
  verified: user.emailVerified,
  twoFactorEnabled: user.twoFactorEnabled,
  createdAt: user.createdAt,
  lastSignInAt: user.lastSignInAt,
};

/** A page of accounts, newest first, and how many match: `q` in the email or name, by role, by ban. */
export async function listAccounts(
  conn: Conn,
  query: { q?: string; role?: string; banned?: 'true' | 'false'; page: number; pageSize: number },
) {
  const where: SQL[] = [];
  if (query.q) {
    const p = likePattern(query.q);
    where.push(or(ilike(user.email, p), ilike(user.name, p))!);
  }
  if (query.role) where.push(eq(user.role, query.role));
  if (query.banned) where.push(eq(user.banned, query.banned === 'true'));
  const cond = where.length ? and(...where) : undefined;
  const [{ total }] = await conn.select({ total: count() }).from(user).where(cond);
  const rows = await conn
    .select(rowColumns)
    .from(user)
    .where(cond)
    .orderBy(desc(user.createdAt), user.id)
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return { rows, total };
}

/** One account as the console shows it (with city and picture); null for no such account. */
export async function accountRecordOf(conn: Conn, userId: string) {
  const [row] = await conn
    .select({ ...rowColumns, city: user.city, image: user.image })
    .from(user)
    .where(eq(user.id, userId));
  return row ?? null;
}

/** The account's sign-in sessions not yet expired, most recently used first. */
export async function liveSignInSessionsOf(conn: Conn, userId: string) {
  return conn
    .select({
      id: signInSession.id,
      ipAddress: signInSession.ipAddress,
      userAgent: signInSession.userAgent,
      createdAt: signInSession.createdAt,
      updatedAt: signInSession.updatedAt,
    })
    .from(signInSession)
    .where(and(eq(signInSession.userId, userId), sql`${signInSession.expiresAt} > now()`))
    .orderBy(desc(signInSession.updatedAt));
}

/** Locks the active admins' rows (in id order, so two callers queue instead of deadlocking) and answers their ids. */
export async function lockActiveAdmins(tx: Tx): Promise<Set<string>> {
  const admins = await tx
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.role, 'admin'), eq(user.banned, false)))
    .orderBy(user.id)
    .for('no key update');
  return new Set(admins.map((a) => a.id));
}

/** Bans the account and ends every sign-in session of theirs (in the caller's transaction). */
export async function banAccount(tx: Tx, userId: string, reason: string) {
  await tx.update(user).set({ banned: true, banReason: reason, banExpires: null, updatedAt: new Date() }).where(eq(user.id, userId));
  await tx.delete(signInSession).where(eq(signInSession.userId, userId));
}

export async function unbanAccount(tx: Tx, userId: string) {
  await tx.update(user).set({ banned: false, banReason: null, banExpires: null, updatedAt: new Date() }).where(eq(user.id, userId));
}

/** The authenticator and backup codes gone: the password alone signs in. */
export async function resetAccountTwoFactor(tx: Tx, userId: string) {
  await tx.delete(twoFactor).where(eq(twoFactor.userId, userId));
  await tx.update(user).set({ twoFactorEnabled: false, updatedAt: new Date() }).where(eq(user.id, userId));
}

export async function setAccountRole(tx: Tx, userId: string, role: 'user' | 'admin') {
  await tx.update(user).set({ role, updatedAt: new Date() }).where(eq(user.id, userId));
}

/** Makes admins of the accounts with these (lower-case) emails that are plain users. */
export async function promoteAdminsByEmail(conn: Conn, emails: string[]) {
  await conn
    .update(user)
    .set({ role: 'admin' })
    .where(and(inArray(sql`lower(${user.email})`, emails), eq(user.role, 'user')));
}

/** An invited account: unverified, no password. Answers its id; null when the email has an account already. */
export async function createInvitedAccount(tx: Tx, input: { email: string; firstName: string; lastName: string }): Promise<string | null> {
  const [created] = await tx
    .insert(user)
    .values({
      email: input.email,
      name: [input.firstName, input.lastName].filter(Boolean).join(' '),
      firstName: input.firstName,
      lastName: input.lastName,
      emailVerified: false,
    })
    .onConflictDoNothing()
    .returning({ id: user.id });
  return created?.id ?? null;
}
