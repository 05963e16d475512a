import { eq } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { formatPrice } from '../../shared/courses.js';
import { planById, type PlanId } from '../../shared/payments.js';
import type { CheckoutResult } from '../../shared/payments-schemas.js';
import type { Viewer } from '../accounts/viewer.js';
import { requireEducator } from '../educators/require-educator.js';
import { payoutAccount } from '../db/schema/payments.js';
import { AppError } from '../http/errors.js';
import { ensurePlanProduct } from './products.js';
import { assertOwnCustomer } from './customers.js';
import { openCheckout, returnUrl } from './open-checkout.js';

/**
 * POST /api/stripe/create-embedded-checkout-session: a platform plan (Educator Pro) for
 * an educator, a monthly subscription to the platform. Decision: the plan lowers the fee
 * on the educator's payout account, so payouts must be set up first (400 otherwise).
 */
export async function createPlanCheckout(
  app: AppServices,
  viewer: Viewer,
  input: { customer: string; product: PlanId; price: number },
  clientKey?: string,
): Promise<CheckoutResult> {
  requireEducator(viewer);
  const customer = await assertOwnCustomer(app, viewer.user, input.customer);
  const plan = planById(input.product)!;
  if (input.price !== plan.priceCents) {
    const now = formatPrice(plan.priceCents, plan.currency);
    throw new AppError(400, 'price_changed', `The price has changed: it is now ${now} a month. Check the new price and try again.`, {
      fields: { price: `The price is now ${now}` },
    });
  }
  const db = app.database.db;
  const [acct] = await db.select().from(payoutAccount).where(eq(payoutAccount.userId, viewer.user.id)).limit(1);
  if (!acct)
    throw new AppError(400, 'payouts_required', 'Set up payouts before choosing a plan', {
      fields: { payouts: 'Set up payouts first', next: '/educator/onboard?step=payouts' },
    });
  if (acct.plan === 'pro' && acct.planSubscriptionId) throw new AppError(409, 'plan_active', `You already have ${plan.name}`);
  return openCheckout(
    app,
    {
      userId: viewer.user.id,
      kind: 'plan',
      planId: plan.id,
      amountCents: plan.priceCents,
      currency: plan.currency,
      feePercent: 0,
    },
    clientKey,
    async (purchaseId) => {
      const product = await ensurePlanProduct(app.stripe(), plan.id);
      const metadata = { purchase_id: purchaseId, kind: 'plan', plan: plan.id, user: viewer.user.id };
      return {
        ui_mode: 'embedded_page',
        mode: 'subscription',
        customer,
        metadata,
        client_reference_id: purchaseId,
        return_url: returnUrl(app, '/pricing'),
        line_items: [
          {
            quantity: 1,
            price_data: { currency: plan.currency, unit_amount: plan.priceCents, product, recurring: { interval: plan.interval } },
          },
        ],
        subscription_data: { metadata },
      };
    },
  );
}
