import { queryOptions } from '@tanstack/react-query';
import type { FailedJobs } from '@shared/admin-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** Background jobs that failed for good (/api/admin/jobs), and queueing one again. */
export const jobsQuery = queryOptions({ queryKey: queryKeys.adminJobs, queryFn: () => api<FailedJobs>('/api/admin/jobs') });
export const retryJob = (id: string) => api<{ ok: true }>(`/api/admin/jobs/${id}/retry`, { method: 'POST', body: {} });
