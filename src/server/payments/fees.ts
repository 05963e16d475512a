import { PLANS, planById } from '../../shared/payments.js';
import type { FeeLine, Pricing } from '../../shared/payments-schemas.js';
import type { AppServices } from '../app-services.js';

/**
 * The platform's fees, decided here only (docs/decisions/0037-fees-from-config-and-featured-shelf.md):
 * one rule, `feePercentOf`, from the educator's plan and what is sold (the purchase's kind).
 * Checkouts, the payouts answer and GET /api/pricing (what the web app shows) all ask it, and
 * the pricing answer's fee lines are read from it: a fee that differs by kind shows as its own
 * line on every page, with no other file to change.
 */
type WithConfig = Pick<AppServices, 'config'>;

/** What a seat is sold as, for its fee: the purchase's kind (paid at once, or in installments). */
export const FEE_KINDS = ['course_payment', 'course_installments'] as const;
export type FeeKind = (typeof FEE_KINDS)[number];

/** How a fee line names its kind, when kinds' fees differ. */
const KIND_WORDS: Record<FeeKind, string> = {
  course_payment: 'per sale paid at once',
  course_installments: 'per sale paid in installments',
};

/**
 * The fee rule: the percent the platform keeps of a sale of `kind` by an educator on `plan`
 * (a payout account's plan: 'standard', 'pro'; no account: standard). Every kind costs the
 * same today; a fee of its own for a kind is written here, and the pages list it.
 */
export function feePercentOf(app: WithConfig, plan: string | null | undefined, _kind: FeeKind): number {
  const p = plan ? planById(plan === 'pro' ? 'educator-pro' : plan) : null;
  return p?.feePercent ?? app.config.payments.platformFeePercent;
}

/** A plan's fees as the pages say them: one "per sale" line while every kind costs the same, else one line per kind. */
function feeLinesOf(app: WithConfig, plan: string | null): FeeLine[] {
  const lines = FEE_KINDS.map((kind) => ({ label: KIND_WORDS[kind], feePercent: feePercentOf(app, plan, kind) }));
  return lines.every((l) => l.feePercent === lines[0].feePercent) ? [{ label: 'per sale', feePercent: lines[0].feePercent }] : lines;
}

/** GET /api/pricing: the standard fees and the plans on sale, each with its fees in words (from the rule). */
export function pricingFor(app: WithConfig): Pricing {
  const standard = feeLinesOf(app, null);
  return {
    standard: { feePercent: feePercentOf(app, null, 'course_payment'), fees: standard },
    plans: PLANS.map(({ perks, ...plan }) => {
      const fees = feeLinesOf(app, plan.id);
      const against = (l: FeeLine) => standard.find((s) => s.label === l.label) ?? standard[0];
      const words = fees.map(
        (l) => `Platform fee of ${l.feePercent}% instead of ${against(l).feePercent}%${l.label === 'per sale' ? '' : ` ${l.label}`}`,
      );
      return { ...plan, feePercent: feePercentOf(app, plan.id, 'course_payment'), fees, features: [...words, ...perks] };
    }),
  };
}
