import { queryOptions } from '@tanstack/react-query';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** GET /api/admin/me: whether the viewer may use the admin console (docs/decisions/0014-admin-console.md). */
export const adminMeQuery = queryOptions({
  queryKey: queryKeys.adminMe,
  queryFn: () => api<{ admin: boolean }>('/api/admin/me'),
});
