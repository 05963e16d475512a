import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FeeLine, Pricing } from '@shared/payments-schemas';
import { api } from './api';
import { queryKeys } from './query-keys';

/**
 * GET /api/pricing: the platform's fees as the server charges them (the standard one is its
 * PLATFORM_FEE_PERCENT). The one source of every fee the web app shows (decision 0037), in
 * lib because several features show fees and none may import another.
 */
export const pricingQuery = queryOptions({
  queryKey: queryKeys.pricing,
  queryFn: () => api<Pricing>('/api/pricing'),
  staleTime: 5 * 60_000,
});

export type PlanOnSale = Pricing['plans'][number];

/**
 * The standard fee (on a sale paid at once), every standard fee line, and the plan on sale
 * (Educator Pro, with its own lines), or undefined while they load. Pages list the lines as
 * the server writes them: a fee that differs by kind of sale shows up without a change here.
 */
export function usePricing(): { standardFeePercent: number; standardFees: FeeLine[]; pro: PlanOnSale } | undefined {
  const { data } = useQuery(pricingQuery);
  const pro = data?.plans.find((p) => p.id === 'educator-pro');
  return data && pro ? { standardFeePercent: data.standard.feePercent, standardFees: data.standard.fees, pro } : undefined;
}
