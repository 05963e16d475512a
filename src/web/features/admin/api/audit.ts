import { queryOptions } from '@tanstack/react-query';
import type { AuditLog } from '@shared/admin-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** The audit log of admin actions, newest first (/api/admin/audit). */
export const auditQuery = queryOptions({ queryKey: queryKeys.adminAudit, queryFn: () => api<AuditLog>('/api/admin/audit') });
