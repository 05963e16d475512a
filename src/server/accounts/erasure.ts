import type { AppServices } from '../app-services.js';
import type { Tx } from '../db/transaction.js';

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
  });
}
