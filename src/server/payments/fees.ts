import { PLANS, planById } from '../../shared/payments.js';
import type { Pricing } from '../../shared/payments-schemas.js';
import type { AppServices } from '../app-services.js';

/**
 * The platform's fees, decided here only (docs/decisions/0037-fees-from-config-and-featured-shelf.md):
 * the standard fee is the server's PLATFORM_FEE_PERCENT, a plan's is its own. Checkouts,
 * the payouts answer and GET /api/pricing (what the web app shows) all ask this module.
 */
type WithConfig = Pick<AppServices, 'config'>;

/** The fee percent of a payout account's plan ('standard', 'pro'; no account: standard). */
export function feePercentOfPlan(app: WithConfig, plan: string | null | undefined): number {
  const p = plan ? planById(plan === 'pro' ? 'educator-pro' : plan) : null;
  return p?.feePercent ?? app.config.payments.platformFeePercent;
}

/** GET /api/pricing: the standard fee and the plans on sale, each with its fee in words. */
export function pricingFor(app: WithConfig): Pricing {
  const standard = app.config.payments.platformFeePercent;
  return {
    standard: { feePercent: standard },
    plans: PLANS.map(({ perks, ...plan }) => ({
      ...plan,
      features: [`Platform fee of ${plan.feePercent}% instead of ${standard}%`, ...perks],
    })),
  };
}
