import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { paymentHistory } from '@shared/payments-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** GET /api/payments: the viewer's payments, with receipts. */
export type PaymentHistory = z.infer<typeof paymentHistory>;
export type PaymentHistoryRow = PaymentHistory['payments'][number];

export const getPaymentHistory = () => api<PaymentHistory>('/api/payments');
export const paymentHistoryQuery = queryOptions({ queryKey: queryKeys.paymentHistory, queryFn: getPaymentHistory });
