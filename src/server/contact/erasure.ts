import { eq, or, sql } from 'drizzle-orm';
import { contactMessage } from '../db/schema/contact.js';
import type { Tx } from '../db/transaction.js';

/**
 * A deleted account's contact-form messages carry a name and an email: erased with the
 * account, in its transaction (those sent signed in, and those sent from its address).
 */
export async function eraseFromContact(tx: Tx, { userId, email }: { userId: string; email: string }) {
  await tx.delete(contactMessage).where(or(eq(contactMessage.userId, userId), sql`lower(${contactMessage.email}) = lower(${email})`));
}
