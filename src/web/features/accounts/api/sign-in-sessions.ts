import { queryOptions } from '@tanstack/react-query';
import type { CurrentUser, SessionInfo } from '@shared/accounts';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** The user's sign-in sessions (devices): listing them, and ending one or all others. */
export const signInSessionsQuery = queryOptions({
  queryKey: queryKeys.signInSessions,
  queryFn: () => api<{ sessions: SessionInfo[] }>('/api/accounts/sessions'),
});
export const revokeSignInSession = (id: string) => api<{ message: string }>(`/api/accounts/sessions/${id}`, { method: 'DELETE' });
export const revokeOtherSignInSessions = () =>
  api<{ message: string; revoked: number }>('/api/accounts/sessions/revoke-others', { method: 'POST' });
export const currentSignInSessionQuery = queryOptions({
  queryKey: queryKeys.currentSignInSession,
  queryFn: () => api<{ user: CurrentUser; session: SessionInfo }>('/api/accounts/session'),
});
