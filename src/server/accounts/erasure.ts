import type { AppServices } from '../app-services.js';
import { eq, sql } from 'drizzle-orm';
import { account, signInSession, twoFactor, user, verification } from '../db/schema/accounts.js';
import type { Conn, Tx } from '../db/transaction.js';
import { eraseEducatorProfile } from './educator-profile.js';
import { eraseLearnerProfiles } from './learner-profile-service.js';

/**
 * Erases an account in one transaction (an admin's delete, or the owner's from settings):
 * `erase` removes its personal data and answers the address it had, then accounts announce
 * the user renamed ("Deleted user") and erased, so every domain holding its rows erases them
 * in the same transaction (docs/decisions/0024-erasure-reaches-every-domain.md). Accounts own
 * these events: another domain asks for them here, never on accounts' bus (ADR 0036).
 */
export async function eraseAccount(
  app: Pick<AppServices, 'database' | 'accountEvents'>,
  userId: string,
  erase: (tx: Tx) => Promise<{ email: string }>,
): Promise<void> {
  await app.accountEvents.transaction(app.database.db, async (tx, announce) => {
    const { email } = await erase(tx);
    await announce('user.renamed', { userId, name: 'Deleted user' });
    // Every domain holding the user's rows erases them here (ADR 0024): messages' text, club
    // memberships and answers, places in courses, notifications, contact messages.
    await announce('user.erased', { userId, email });
    // The account's learner profiles go last: past enrolments may still name one (ADR 0074).
    await eraseLearnerProfiles(tx, userId);
  });
}

/**
 * An account's own rows erased (inside eraseAccount's `erase`): personal data gone,
 * sign-in impossible, the row kept under a pseudonym for the payment records that reference
 * it. Accounts' own rows only (ADR 0035); eraseAccount announces `user.erased` for the rest.
 * Answers the email the account had.
 */
export async function eraseAccountRows(conn: Conn, userId: string, banReason: string): Promise<{ email: string }> {
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
