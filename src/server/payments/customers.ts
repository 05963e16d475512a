import type { FastifyInstance } from 'fastify';
import { customerOwnerOf, keepStripeCustomerId, stripeCustomerIdOf } from '../accounts/provider-ids.js';
import type { Viewer } from '../accounts/viewer.js';
import type { AppServices } from '../app-services.js';
import { AppError } from '../http/errors.js';
import { CUSTOMER_FAILURE, provider, providerReachable, shortHash } from './provider-calls.js';

/** What ensureCustomer needs of the user (a viewer's user has it). */
export interface CustomerOwner {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  stripeCustomerId: string | null;
}

/**
 * The user's payment customer: the stored one, or a new one at the provider (idempotency
 * key per user, so two concurrent calls create one customer; the first stored wins).
 * Failure: 500 "Error creating stripe customer".
 */
export async function ensureCustomer(app: AppServices, owner: CustomerOwner, name?: string): Promise<string> {
  if (owner.stripeCustomerId) return owner.stripeCustomerId;
  const db = app.database.db;
  const fresh = await stripeCustomerIdOf(db, owner.id);
  if (fresh) return fresh;
  const displayName = (name ?? `${owner.firstName} ${owner.lastName}`).trim() || owner.email;
  const customer = await provider(app.log, CUSTOMER_FAILURE, 'customers.create', () =>
    app
      .stripe()
      .customers.create(
        { email: owner.email, name: displayName, metadata: { user_id: owner.id } },
        { idempotencyKey: `customer-${owner.id}-${shortHash(owner.email, displayName)}` },
      ),
  );
  return keepStripeCustomerId(db, owner.id, customer.id);
}

/** POST /api/stripe/create-stripe-customer: the caller's customer (created once); the email must be theirs. */
export async function createCustomer(app: AppServices, viewer: Viewer, input: { email: string; name?: string }): Promise<string> {
  if (input.email.toLowerCase() !== viewer.user.email.toLowerCase())
    throw new AppError(403, 'not_your_email', 'You can only create a payment customer for your own email');
  return ensureCustomer(app, viewer.user, input.name);
}

/** GET /api/stripe/config: what the checkout page needs (mode, publishable key, the caller's customer). */
export async function checkoutConfig(app: AppServices, viewer: Viewer) {
  let customer: string | null = viewer.user.stripeCustomerId;
  try {
    customer = await ensureCustomer(app, viewer.user);
  } catch {
    // Shown as null; the checkout call creates it on demand (or says "Error creating stripe customer").
  }
  return { mode: app.config.payments.mode, publishableKey: app.config.payments.publishableKey, customer };
}

/** The caller's customer (created on demand); a payload customer must be this one (403). */
export async function assertOwnCustomer(app: AppServices, owner: CustomerOwner, customer: string): Promise<string> {
  const mine = await ensureCustomer(app, owner);
  if (customer !== mine) throw new AppError(403, 'not_your_customer', 'This payment customer is not yours');
  return mine;
}

/**
 * At sign-up, after a first Google login, or at a log-in of a user who still has none:
 * create the customer in the background. Never fails the caller: when the provider is
 * down (or, in the sandbox, the server is not listening yet) the customer is created
 * later, on demand, by the first payments call.
 */
export function ensureCustomerInBackground(app: FastifyInstance, userId: string): void {
  if (!providerReachable(app)) return;
  setImmediate(() => {
    void (async () => {
      const row = await customerOwnerOf(app.database.db, userId);
      if (!row || row.stripeCustomerId) return;
      await ensureCustomer(app, row);
    })().catch((err) =>
      app.log.warn(
        { err: err instanceof Error ? err.message : err, userId },
        'payments: customer not created now; it will be created on demand',
      ),
    );
  });
}
