import { queryOptions } from '@tanstack/react-query';
import type { CardUpdate, MyInstallments } from '@shared/payments-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** GET /api/payments/installments: the viewer's installment plans still running. */
export const myInstallmentsQuery = queryOptions({
  queryKey: queryKeys.myInstallments,
  queryFn: () => api<MyInstallments>('/api/payments/installments'),
});

/** POST /api/payments/card-update: the provider's page to change the card. */
export const startCardUpdate = () => api<CardUpdate>('/api/payments/card-update', { method: 'POST' });
