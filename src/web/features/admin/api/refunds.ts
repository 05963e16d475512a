import { queryOptions } from '@tanstack/react-query';
import type { RefundsDue } from '@shared/admin-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** Refunds the payment provider has not made yet (/api/admin/refunds-due). */
export const refundsQuery = queryOptions({ queryKey: queryKeys.adminRefunds, queryFn: () => api<RefundsDue>('/api/admin/refunds-due') });
