import { eq, sql } from 'drizzle-orm';
import { account, signInSession, twoFactor, user, verification } from '../db/schema/accounts.js';
import type { Conn } from '../db/transaction.js';
import { eraseEducatorProfile } from './educator-profile.js';

/**
 * An account erased (admin/users.ts eraseUser, in its transaction): personal data gone,
 * sign-in impossible, the row kept under a pseudonym for the payment records that reference
 * it. Accounts' own rows only (ADR 0035); the caller announces `user.erased` for the rest.
 * Answers the email the account had.
 */
export async function eraseAccount(conn: Conn, userId: string, banReason: string): Promise<{ email: string }> {
  const [before] = await conn.select({ email: user.email }).from(user).where(eq(user.id, userId)).limit(1);
  await conn
    .update(user)
    .set({
      email: `deleted-${userId}@invalid`,
      name: 'Deleted user',
      firstName: 'Deleted',
      lastName: 'user',
      city: null,
      image: null,
      birthdate: null,
      emailVerified: false,
      role: 'user',
      banned: true,
      banReason,
      twoFactorEnabled: false,
      updatedAt: new Date(),
    })
    .where(eq(user.id, userId));
  await conn.delete(signInSession).where(eq(signInSession.userId, userId));
  await conn.delete(account).where(eq(account.userId, userId));
  await conn.delete(twoFactor).where(eq(twoFactor.userId, userId));
  // Pending reset links (the library stores the user id as their value), email changes too.
  await conn.delete(verification).where(eq(verification.value, userId));
  await conn.execute(sql`delete from verification where identifier like 'email-change:%' and value like ${`%"userId":"${userId}"%`}`);
  // An educator's public profile is personal data too.
  await eraseEducatorProfile(conn, userId);
  return { email: before?.email ?? '' };
}
