import { and, eq, isNull } from 'drizzle-orm';
import { educator, user } from '../db/schema/accounts.js';
import type { Conn } from '../db/transaction.js';

/**
 * The payment provider's ids kept on an account (ADR 0035): the customer id on the user, the
 * Connect (payout) account id on the educator record. Payments read and store them here.
 */

/** The educator's payout (Connect) account id, if any. */
export async function connectAccountIdOf(conn: Conn, userId: string): Promise<string | null> {
  const [row] = await conn.select({ id: educator.stripeConnectAccountId }).from(educator).where(eq(educator.userId, userId)).limit(1);
  return row?.id ?? null;
}

/** Stores the Connect account id unless one is stored already; answers the one stored. */
export async function keepConnectAccountId(conn: Conn, userId: string, accountId: string): Promise<string> {
  await conn
    .update(educator)
    .set({ stripeConnectAccountId: accountId })
    .where(and(eq(educator.userId, userId), isNull(educator.stripeConnectAccountId)));
  return (await connectAccountIdOf(conn, userId)) ?? accountId;
}

/** The user's payment-provider customer id, if any (payments keep it on the account). */
export async function stripeCustomerIdOf(conn: Conn, userId: string): Promise<string | null> {
  const [row] = await conn.select({ id: user.stripeCustomerId }).from(user).where(eq(user.id, userId)).limit(1);
  return row?.id ?? null;
}

/** Stores the customer id unless one is stored already; answers the one stored. */
export async function keepStripeCustomerId(conn: Conn, userId: string, customerId: string): Promise<string> {
  await conn
    .update(user)
    .set({ stripeCustomerId: customerId })
    .where(and(eq(user.id, userId), isNull(user.stripeCustomerId)));
  return (await stripeCustomerIdOf(conn, userId)) ?? customerId;
}

/** What payments need of a user to make their provider customer: id, email, name and the stored customer id; null for no such user. */
export async function customerOwnerOf(
  conn: Conn,
  userId: string,
): Promise<{ id: string; email: string; firstName: string; lastName: string; stripeCustomerId: string | null } | null> {
  const [row] = await conn
    .select({ id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, stripeCustomerId: user.stripeCustomerId })
    .from(user)
    .where(eq(user.id, userId))
    .limit(1);
  return row ?? null;
}
