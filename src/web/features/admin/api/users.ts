import { queryOptions } from '@tanstack/react-query';
import type { AdminUserDetail, UserList } from '@shared/admin-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** Users in the admin console (/api/admin/users*): the list, one user, and the actions on them. */
export interface UserFilter {
  q: string;
  role: '' | 'user' | 'admin';
  banned: '' | 'true' | 'false';
  page: number;
}

export const PAGE_SIZE = 25;

export const usersQuery = (f: UserFilter) =>
  queryOptions({
    queryKey: queryKeys.adminUsers(f),
    queryFn: () => {
      const params = new URLSearchParams({ page: String(f.page), pageSize: String(PAGE_SIZE) });
      if (f.q.trim()) params.set('q', f.q.trim());
      if (f.role) params.set('role', f.role);
      if (f.banned) params.set('banned', f.banned);
      return api<UserList>(`/api/admin/users?${params}`);
    },
  });

export const userQuery = (id: string) =>
  queryOptions({ queryKey: queryKeys.adminUser(id), queryFn: () => api<AdminUserDetail>(`/api/admin/users/${id}`) });

const act = (path: string, body: unknown = {}, method: 'POST' | 'PUT' = 'POST') => api<{ ok: true }>(path, { method, body });
export const banUser = (id: string, reason: string) => act(`/api/admin/users/${id}/ban`, { reason });
export const unbanUser = (id: string) => act(`/api/admin/users/${id}/unban`);
export const resetTwoFactor = (id: string) => act(`/api/admin/users/${id}/reset-two-factor`);
export const setRole = (id: string, role: 'user' | 'admin') => act(`/api/admin/users/${id}/role`, { role }, 'PUT');
export const deleteUser = (id: string, confirmEmail: string) => act(`/api/admin/users/${id}/delete`, { confirmEmail });
export const inviteUser = (body: { email: string; firstName: string; lastName: string }) =>
  api<{ id: string }>('/api/admin/users', { method: 'POST', body });
