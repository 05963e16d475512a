import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { BlockList, ConversationList, MailboxMessage, ConversationPage } from '@shared/mailbox-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** The mailbox API (/api/mailbox/...): conversations, their pages, sending, blocks, reports. */

/** GET /api/mailbox/conversations: pages of the viewer's conversations (newest activity first), searched with `q`. */
export const conversationsQuery = (q: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.conversations(q),
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams();
      if (q) params.set('q', q);
      if (pageParam) params.set('cursor', pageParam);
      const s = params.toString();
      return api<ConversationList>(`/api/mailbox/conversations${s ? `?${s}` : ''}`, { signal });
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const blocksQuery = queryOptions({
  queryKey: queryKeys.mailboxBlocks,
  queryFn: () => api<BlockList>('/api/mailbox/blocks'),
});

/** A page of the conversation with `userId`: the newest, or before/after a message id. */
export function getConversation(userId: string, cursor: { before?: string; after?: string } = {}, limit = 50) {
  const q = new URLSearchParams({ limit: String(limit) });
  if (cursor.before) q.set('before', cursor.before);
  if (cursor.after) q.set('after', cursor.after);
  return api<ConversationPage>(`/api/mailbox/conversations/${userId}?${q}`);
}

export const sendMessage = (userId: string, body: string, clientId: string) =>
  // The clientId makes the send safe to retry: the client retries transient failures itself.
  api<{ message: MailboxMessage }>(`/api/mailbox/conversations/${userId}/messages`, {
    method: 'POST',
    body: { body, clientId },
    idempotencyKey: clientId,
  });

export const markRead = (userId: string) =>
  api<{ readUpTo: string; unread: number }>(`/api/mailbox/conversations/${userId}/read`, { method: 'POST' });

export const blockPerson = (userId: string) => api<{ message: string }>(`/api/mailbox/blocks/${userId}`, { method: 'PUT' });
export const unblockPerson = (userId: string) => api<{ message: string }>(`/api/mailbox/blocks/${userId}`, { method: 'DELETE' });

export const reportMessage = (messageId: string, reason: string) =>
  api<{ message: string }>(`/api/mailbox/messages/${messageId}/report`, { method: 'POST', body: { reason } });
