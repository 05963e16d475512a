import { eq, or, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { contactMessage } from '../db/schema/contact.js';

/**
 * A deleted account's contact-form messages carry a name and an email: erased with the
 * account, in its transaction (those sent signed in, and those sent from its address).
 */
export function subscribeContactErasure(app: AppServices) {
  app.accountEvents.inTransaction('user.erased', async (tx, { userId, email }) => {
    await tx.delete(contactMessage).where(or(eq(contactMessage.userId, userId), sql`lower(${contactMessage.email}) = lower(${email})`));
  });
}
