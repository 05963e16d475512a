import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { user } from '../db/schema/accounts.js';
import { educator } from '../db/schema/educators.js';
import { payoutAccount } from '../db/schema/payments.js';
import { DEMO_USERS } from '../seed/demo-users.js';
import { selfBaseUrl } from './stripe-client.js';
import { ensureCustomer } from './customers.js';
import { refreshPayoutAccount } from './payout-accounts.js';

/**
 * Demo data for payments (sandbox mode only, after the server listens: the SDK reaches
 * the sandbox over HTTP): every demo user gets a payment customer, and every demo
 * educator a Connect account that has finished the sandbox's onboarding, so demo paid
 * courses can be published and bought at once. Idempotent: runs at every start and only
 * fills what is missing.
 */
export async function seedDemoPayments(app: FastifyInstance): Promise<void> {
  if (app.config.payments.mode !== 'sandbox') return;
  const db = app.database.db;
  const emails = DEMO_USERS.map((u) => u.email);
  const users = await db.select({ id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, stripeCustomerId: user.stripeCustomerId, educatorId: educator.userId, accountId: educator.stripeConnectAccountId })
    .from(user).leftJoin(educator, eq(educator.userId, user.id)).where(inArray(user.email, emails));
  for (const u of users) {
    if (!u.stripeCustomerId) await ensureCustomer(app, u);
    if (!u.educatorId) continue;
    const [acct] = await db.select().from(payoutAccount).where(eq(payoutAccount.userId, u.id)).limit(1);
    if (acct?.chargesEnabled) continue;
    let accountId = acct?.accountId ?? u.accountId;
    if (!accountId) {
      const created = await app.stripe().accounts.create(
        { type: 'express', email: u.email, capabilities: { card_payments: { requested: true }, transfers: { requested: true } }, metadata: { user_id: u.id, demo: 'true' } },
        { idempotencyKey: `account-${u.id}` },
      );
      accountId = created.id;
      await db.update(educator).set({ stripeConnectAccountId: accountId }).where(eq(educator.userId, u.id));
    }
    await db.insert(payoutAccount).values({ userId: u.id, accountId }).onConflictDoNothing();
    // The sandbox's onboarding form, submitted as the educator would.
    const res = await fetch(`${selfBaseUrl(app)}/sandbox/connect/onboard/${accountId}?return_url=${encodeURIComponent('/educator/onboard-success')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ legal_name: `${u.firstName} ${u.lastName}`, country: 'US' }).toString(),
      redirect: 'manual',
    });
    if (res.status >= 400) throw new Error(`sandbox onboarding answered ${res.status}`);
    await refreshPayoutAccount(app, accountId);
  }
  app.log.info('demo payments ready: demo educators can take payments in the sandbox');
}
