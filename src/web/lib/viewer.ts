import { useState } from 'react';
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

/**
 * The signed-in user on pages behind the sign-in guard (never null there). While signing
 * out, the viewer is cleared before the browser leaves the page: the screen still shown
 * keeps the user it had for that moment instead of failing.
 */
export function useViewer(): CurrentUser {
  const { data } = useQuery(meQuery);
  const [last, setLast] = useState(data);
  if (data && data !== last) setLast(data);
  const viewer = data ?? last;
  if (!viewer) throw new Error('useViewer used outside the sign-in guard');
  return viewer;
}
