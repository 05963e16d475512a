import { eq } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { payoutAccount } from '../db/schema/payments.js';

/** account.updated: the payout account as the provider has it now. */
export async function refreshPayoutAccount(app: AppServices, accountId: string) {
  const acct = await app.stripe().accounts.retrieve(accountId);
  const due = [...new Set([...(acct.requirements?.currently_due ?? []), ...(acct.requirements?.past_due ?? [])])];
  const [row] = await app.database.db
    .update(payoutAccount)
    .set({
      chargesEnabled: !!acct.charges_enabled,
      payoutsEnabled: !!acct.payouts_enabled,
      detailsSubmitted: !!acct.details_submitted,
      requirementsDue: due,
      updatedAt: new Date(),
    })
    .where(eq(payoutAccount.accountId, accountId))
    .returning();
  return row ?? null;
}
