import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { requireEducator } from '../educators/require-educator.js';
import { connectAccountIdOf, keepConnectAccountId } from '../accounts/provider-ids.js';
import { payoutAccount } from '../db/schema/payments.js';
import { AppError } from '../http/errors.js';
import { ACCOUNT_FAILURE, provider } from './provider-calls.js';
import { refreshPayoutAccount } from './payout-accounts.js';

/** The caller's own Connect account id, or 403 (spec: the account must be the caller's). */
export async function ownAccount(app: AppServices, viewer: Viewer, accountId: string): Promise<string> {
  requireEducator(viewer);
  const id = await connectAccountIdOf(app.database.db, viewer.user.id);
  if (!id || id !== accountId) throw new AppError(403, 'not_your_account', 'This payout account is not yours');
  return id;
}

/**
 * POST /api/stripe/create-stripe-account: the educator's Connect Express account
 * (onboarding step 2). Idempotent: an educator who has one gets it back.
 */
export async function createConnectAccount(
  app: AppServices,
  viewer: Viewer,
  input: { email: string; user_id: string },
): Promise<{ stripe_connect_account_id: string }> {
  if (input.user_id !== viewer.user.id) throw new AppError(403, 'not_yourself', 'You can only set up payouts for yourself');
  requireEducator(viewer);
  const db = app.database.db;
  let accountId = await connectAccountIdOf(db, viewer.user.id);
  if (!accountId) {
    const account = await provider(app.log, ACCOUNT_FAILURE, 'accounts.create', () =>
      app.stripe().accounts.create(
        {
          type: 'express',
          email: input.email,
          capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
          business_profile: {
            url: `${app.config.publicUrl}/educator/${viewer.user.id}`,
            product_description: 'Live courses taught on Agora',
          },
          metadata: { user_id: viewer.user.id },
        },
        { idempotencyKey: `account-${viewer.user.id}` },
      ),
    );
    accountId = await keepConnectAccountId(db, viewer.user.id, account.id);
  }
  await db.insert(payoutAccount).values({ userId: viewer.user.id, accountId }).onConflictDoNothing();
  return { stripe_connect_account_id: accountId };
}

/** POST /api/stripe/create-educator-account-link: onboarding at the provider. */
export async function createAccountLink(
  app: AppServices,
  viewer: Viewer,
  accountId: string,
  idempotencyKey?: string,
): Promise<{ url: string }> {
  const id = await ownAccount(app, viewer, accountId);
  const base = app.config.publicUrl;
  const link = await provider(app.log, ACCOUNT_FAILURE, 'accountLinks.create', () =>
    app.stripe().accountLinks.create(
      {
        account: id,
        refresh_url: `${base}/educator/onboard?step=payouts`,
        return_url: `${base}/educator/onboard-success`,
        type: 'account_onboarding',
      },
      { idempotencyKey: `account-link-${id}-${idempotencyKey ?? randomUUID()}` },
    ),
  );
  return { url: link.url };
}

/** POST /api/stripe/create-stripe-login-link: the educator's Express dashboard. */
export async function createLoginLink(
  app: AppServices,
  viewer: Viewer,
  accountId: string,
  idempotencyKey?: string,
): Promise<{ url: string }> {
  const id = await ownAccount(app, viewer, accountId);
  const link = await provider(app.log, ACCOUNT_FAILURE, 'accounts.createLoginLink', () =>
    app.stripe().accounts.createLoginLink(id, {}, { idempotencyKey: `login-link-${id}-${idempotencyKey ?? randomUUID()}` }),
  );
  return { url: link.url };
}

/** Re-reads the caller's payout account from the provider (onboard-success, ?refresh=1). */
export async function refreshOwnAccount(app: AppServices, viewer: Viewer) {
  const [row] = await app.database.db.select().from(payoutAccount).where(eq(payoutAccount.userId, viewer.user.id)).limit(1);
  if (!row) return null;
  return provider(app.log, ACCOUNT_FAILURE, 'accounts.retrieve', () => refreshPayoutAccount(app, row.accountId));
}
