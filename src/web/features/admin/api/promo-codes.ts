import { queryOptions } from '@tanstack/react-query';
import type { PromoCodeView } from '@shared/promo-codes';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** Platform promo codes (ADR 0070): any course, the platform bears the discount. */
export const adminPromoCodesQuery = queryOptions({
  queryKey: queryKeys.adminPromoCodes,
  queryFn: () => api<{ codes: PromoCodeView[] }>('/api/admin/promo-codes'),
});

export const createPlatformCode = (body: Record<string, unknown>) => api<PromoCodeView>('/api/admin/promo-codes', { method: 'POST', body });

export const endPlatformCode = (id: string) =>
  api<PromoCodeView>(`/api/admin/promo-codes/${encodeURIComponent(id)}/end`, { method: 'POST', body: {} });
