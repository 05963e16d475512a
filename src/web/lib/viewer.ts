import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '@shared/accounts';
import { api, ApiError } from './api';
import { queryKeys } from './query-keys';

/** The viewer: the signed-in user, or null without a sign-in session. */
export const meQuery = queryOptions({
  queryKey: queryKeys.me,
  queryFn: async (): Promise<CurrentUser | null> => {
    try {
      return await api<CurrentUser>('/api/me', { allowUnauthorized: true });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return null;
      throw err;
    }
  },
  staleTime: 60_000,
});

export function useMe() {
  return useQuery(meQuery);
}

/** The signed-in user on pages behind the sign-in guard (never null there). */
export function useViewer(): CurrentUser {
  const { data } = useQuery(meQuery);
  if (!data) throw new Error('useViewer used outside the sign-in guard');
  return data;
}
