import { queryOptions } from '@tanstack/react-query';
import type { UnreadCounts } from '@shared/realtime-schemas';
import { api } from './api';
import { queryKeys } from './query-keys';

/** The signed-in user's unread counts (GET /api/me/unread), kept live by the app shell. */
export const unreadQuery = queryOptions({
  queryKey: queryKeys.unread,
  queryFn: () => api<UnreadCounts>('/api/me/unread'),
  staleTime: 60_000,
});
