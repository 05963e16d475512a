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
      const me = await api<CurrentUser>('/api/me', { allowUnauthorized: true });
      if (me && me.timeZone === null) rememberTimeZone(me.id);
      return me;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return null;
      throw err;
    }
  },
  staleTime: 60_000,
});

/**
 * A user with no time zone yet gets this browser's (their daily digest goes at the end of
 * their own day). In the background (the server checks the name); a failure leaves them on UTC for now.
 */
function rememberTimeZone(userId: string) {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone) return;
  api(`/api/users/${userId}`, { method: 'PATCH', body: { timeZone: zone } }).catch(() => {});
}

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
