import { eq, inArray, isNotNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { educator, user } from '../db/schema/accounts.js';
import { course } from '../db/schema/courses.js';
import { payoutAccount } from '../db/schema/payments.js';
import { DEMO_USERS } from './demo-users.js';
import { DEMO_EDUCATORS } from './demo-catalogue-data.js';
import { isMissing } from '../payments/provider-calls.js';
import { selfBaseUrl } from '../payments/stripe-client.js';
import { ensureCustomer, type CustomerOwner } from '../payments/customers.js';
import { refreshPayoutAccount } from '../payments/payout-accounts.js';

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
  await forgetLostProviderIds(app);
  const emails = [...DEMO_USERS.map((u) => u.email), ...DEMO_EDUCATORS.map((e) => e.email)];
  const users = await db
    .select({
      id: user.id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      stripeCustomerId: user.stripeCustomerId,
      educatorId: educator.userId,
      accountId: educator.stripeConnectAccountId,
    })
    .from(user)
    .leftJoin(educator, eq(educator.userId, user.id))
    .where(inArray(user.email, emails));
  // Each user on its own (independent calls to the sandbox), all at once: first start stays fast.
  await Promise.all(users.map((u) => readyForPayments(app, u)));
  app.log.info('demo payments ready: demo educators can take payments in the sandbox');
}

async function readyForPayments(
  app: FastifyInstance,
  u: CustomerOwner & { educatorId: string | null; accountId: string | null },
): Promise<void> {
  const db = app.database.db;
  if (!u.stripeCustomerId) await ensureCustomer(app, u);
  if (!u.educatorId) return;
  const [acct] = await db.select().from(payoutAccount).where(eq(payoutAccount.userId, u.id)).limit(1);
  if (acct?.chargesEnabled) return;
  let accountId = acct?.accountId ?? u.accountId;
  if (!accountId) {
    const created = await app.stripe().accounts.create(
      {
        type: 'express',
        email: u.email,
        capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
        metadata: { user_id: u.id, demo: 'true' },
      },
      { idempotencyKey: `account-${u.id}` },
    );
    accountId = created.id;
    await db.update(educator).set({ stripeConnectAccountId: accountId }).where(eq(educator.userId, u.id));
  }
  await db.insert(payoutAccount).values({ userId: u.id, accountId }).onConflictDoNothing();
  // The onboarding form the account link opens, submitted as the educator would.
  const link = await app.stripe().accountLinks.create({
    account: accountId,
    type: 'account_onboarding',
    refresh_url: `${app.config.publicUrl}/educator/onboard?step=payouts`,
    return_url: `${app.config.publicUrl}/educator/onboard-success`,
  });
  // Reached on this server, where the sandbox is mounted: PUBLIC_URL may be a proxy
  // (Vite's in `npm run dev`) that is not up yet.
  const page = new URL(link.url);
  const res = await fetch(`${selfBaseUrl(app)}${page.pathname}${page.search}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ legal_name: `${u.firstName} ${u.lastName}`, country: 'US' }).toString(),
    redirect: 'manual',
  });
  if (res.status >= 400) throw new Error(`sandbox onboarding answered ${res.status}`);
  await refreshPayoutAccount(app, accountId);
}

/**
 * The sandbox keeps its own state (packages/stripe-sandbox). When that state is gone (a
 * development database from before the sandbox had its own schema, docs/decisions/0009),
 * the provider ids stored here point at nothing. Asked through the API, as of any
 * provider: when a stored customer is unknown, every provider id is forgotten, and
 * customers, course products and (below) the demo Connect accounts are made again.
 */
async function forgetLostProviderIds(app: FastifyInstance): Promise<void> {
  const db = app.database.db;
  const [known] = await db.select({ id: user.stripeCustomerId }).from(user).where(isNotNull(user.stripeCustomerId)).limit(1);
  if (!known?.id) return;
  try {
    await app.stripe().customers.retrieve(known.id);
    return;
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
  await db.transaction(async (tx) => {
    await tx.update(user).set({ stripeCustomerId: null }).where(isNotNull(user.stripeCustomerId));
    await tx.update(educator).set({ stripeConnectAccountId: null }).where(isNotNull(educator.stripeConnectAccountId));
    await tx.update(course).set({ stripeProductId: null }).where(isNotNull(course.stripeProductId));
    await tx.delete(payoutAccount);
  });
  app.log.warn(
    'the payments sandbox has no record of the payment ids in this database (its state was reset): they were cleared and are made again',
  );
}
