import { queryOptions } from '@tanstack/react-query';
import type { AdminUserDetail, AuditLog, FailedJobs, MessageReports, RefundsDue, UserList } from '@shared/admin-schemas';
import type { ContactMessageList } from '@shared/contact-schemas';
import { api } from '@web/lib/api';

/** The admin console's calls (/api/admin/*, docs/decisions/0014-admin-console.md). */
export interface UserFilter {
  q: string;
  role: '' | 'user' | 'admin';
  banned: '' | 'true' | 'false';
  page: number;
}

export const PAGE_SIZE = 25;

export const adminMeQuery = queryOptions({
  queryKey: ['admin', 'me'],
  queryFn: () => api<{ admin: boolean }>('/api/admin/me'),
});

export const usersQuery = (f: UserFilter) =>
  queryOptions({
    queryKey: ['admin', 'users', f],
    queryFn: () => {
      const params = new URLSearchParams({ page: String(f.page), pageSize: String(PAGE_SIZE) });
      if (f.q.trim()) params.set('q', f.q.trim());
      if (f.role) params.set('role', f.role);
      if (f.banned) params.set('banned', f.banned);
      return api<UserList>(`/api/admin/users?${params}`);
    },
  });

export const userQuery = (id: string) =>
  queryOptions({ queryKey: ['admin', 'user', id], queryFn: () => api<AdminUserDetail>(`/api/admin/users/${id}`) });
export const jobsQuery = queryOptions({ queryKey: ['admin', 'jobs'], queryFn: () => api<FailedJobs>('/api/admin/jobs') });
export const refundsQuery = queryOptions({ queryKey: ['admin', 'refunds'], queryFn: () => api<RefundsDue>('/api/admin/refunds-due') });
export const contactMessagesQuery = (page: number) =>
  queryOptions({
    queryKey: ['admin', 'contact-messages', page],
    queryFn: () => api<ContactMessageList>(`/api/admin/contact-messages?page=${page}`),
  });

export const messageReportsQuery = queryOptions({
  queryKey: ['admin', 'message-reports'],
  queryFn: () => api<MessageReports>('/api/admin/message-reports'),
});
export const auditQuery = queryOptions({ queryKey: ['admin', 'audit'], queryFn: () => api<AuditLog>('/api/admin/audit') });

const act = (path: string, body: unknown = {}, method: 'POST' | 'PUT' = 'POST') => api<{ ok: true }>(path, { method, body });
export const banUser = (id: string, reason: string) => act(`/api/admin/users/${id}/ban`, { reason });
export const unbanUser = (id: string) => act(`/api/admin/users/${id}/unban`);
export const resetTwoFactor = (id: string) => act(`/api/admin/users/${id}/reset-two-factor`);
export const setRole = (id: string, role: 'user' | 'admin') => act(`/api/admin/users/${id}/role`, { role }, 'PUT');
export const deleteUser = (id: string, confirmEmail: string) => act(`/api/admin/users/${id}/delete`, { confirmEmail });
export const retryJob = (id: string) => act(`/api/admin/jobs/${id}/retry`);
export const inviteUser = (body: { email: string; firstName: string; lastName: string }) =>
  api<{ id: string }>('/api/admin/users', { method: 'POST', body });
