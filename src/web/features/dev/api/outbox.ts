import { queryOptions } from '@tanstack/react-query';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** GET /api/dev/outbox: the emails the app "sent" in development, newest first. */
export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  created_at: string;
}

export const getOutbox = () => api<OutboxMessage[]>('/api/dev/outbox');
export const outboxQuery = queryOptions({ queryKey: queryKeys.devOutbox, queryFn: getOutbox, refetchInterval: 3000 });
