import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Pricing } from '@shared/payments-schemas';
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

/** The standard fee and the plan on sale (Educator Pro), or undefined while they load. */
export function usePricing(): { standardFeePercent: number; pro: PlanOnSale } | undefined {
  const { data } = useQuery(pricingQuery);
  const pro = data?.plans.find((p) => p.id === 'educator-pro');
  return data && pro ? { standardFeePercent: data.standard.feePercent, pro } : undefined;
}
