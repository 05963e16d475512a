import { queryOptions } from '@tanstack/react-query';
import type { EducatorPromoCodeInput, EducatorPromoCodes, PromoCodeView } from '@shared/promo-codes';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** The educator's promo codes (ADR 0070) and the paid courses a code can be for. */
export const educatorPromoCodesQuery = queryOptions({
  queryKey: queryKeys.educatorPromoCodes,
  queryFn: () => api<EducatorPromoCodes>('/api/educator/promo-codes'),
});

type NewCode = Omit<EducatorPromoCodeInput, 'startsAt' | 'endsAt'> & { startsAt: string; endsAt: string };

export const createEducatorCode = (body: NewCode) => api<PromoCodeView>('/api/educator/promo-codes', { method: 'POST', body });

export const endEducatorCode = (id: string) =>
  api<PromoCodeView>(`/api/educator/promo-codes/${encodeURIComponent(id)}/end`, { method: 'POST', body: {} });
