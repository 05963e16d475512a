import { queryOptions } from '@tanstack/react-query';
import type { Dashboard } from '@shared/dashboard-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** GET /api/dashboard: the week ahead, courses, waitlists and taught courses. */
export const getDashboard = () => api<Dashboard>('/api/dashboard');
/** Fresh for 10 s: the page mounting right after its route prefetched it does not ask again (writes invalidate it). */
export const dashboardQuery = queryOptions({ queryKey: queryKeys.dashboard, queryFn: getDashboard, staleTime: 10_000 });
