import { queryOptions } from '@tanstack/react-query';
import type { AdminClubDetail, ClubList } from '@shared/admin-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** Clubs in the admin console (/api/admin/clubs*): the list, one club, and deleting it. */
export interface ClubFilter {
  q: string;
  page: number;
}

export const CLUBS_PAGE_SIZE = 25;

export const clubsQuery = (f: ClubFilter) =>
  queryOptions({
    queryKey: queryKeys.adminClubs(f),
    queryFn: () => {
      const params = new URLSearchParams({ page: String(f.page), pageSize: String(CLUBS_PAGE_SIZE) });
      if (f.q.trim()) params.set('q', f.q.trim());
      return api<ClubList>(`/api/admin/clubs?${params}`);
    },
  });

export const clubQuery = (id: string) =>
  queryOptions({ queryKey: queryKeys.adminClub(id), queryFn: () => api<AdminClubDetail>(`/api/admin/clubs/${id}`) });

export const deleteClub = (id: string, body: { confirmName: string; reason: string }) =>
  api<{ ok: true }>(`/api/admin/clubs/${id}/delete`, { method: 'POST', body });
