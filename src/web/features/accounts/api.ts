import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CurrentUser, SessionInfo, SignInBody, SignUpBody, UpdateProfileBody } from '../../../shared/accounts';
import { api, ApiError } from '../../lib/api';
import { broadcastSession } from '../../lib/session-channel';

/** The signed-in user, or null without a session. */
export const meQuery = queryOptions({
  queryKey: ['me'],
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

/** The signed-in user on pages behind the session guard (never null there). */
export function useViewer(): CurrentUser {
  const { data } = useQuery(meQuery);
  if (!data) throw new Error('useViewer used outside the session guard');
  return data;
}

export const signUp = (body: SignUpBody) => api<{ email: string }>('/api/accounts/sign-up', { method: 'POST', body });
export const signIn = (body: SignInBody) => api<CurrentUser>('/api/accounts/sign-in', { method: 'POST', body, allowUnauthorized: true });
export const resendVerification = (email: string) =>
  api<{ message: string }>('/api/accounts/resend-verification', { method: 'POST', body: { email } });
export const requestPasswordReset = (email: string) =>
  api<{ message: string }>('/api/accounts/password-reset', { method: 'POST', body: { email } });
export const resetPassword = (token: string, password: string) =>
  api<{ message: string }>('/api/accounts/reset-password', { method: 'POST', body: { token, password } });
export const updateProfile = (userId: string, body: UpdateProfileBody) =>
  api<CurrentUser>(`/api/users/${userId}`, { method: 'PATCH', body });
export const uploadAvatar = (userId: string, file: File) => {
  const form = new FormData();
  form.append('file', file);
  return api<CurrentUser>(`/api/users/${userId}/avatar`, { method: 'POST', body: form });
};
export const startGoogleLogin = () =>
  api<{ url: string; redirect: boolean }>('/api/auth/sign-in/oauth2', {
    method: 'POST',
    body: { providerId: 'google', callbackURL: '/google-login', errorCallbackURL: '/google-login?error=google', newUserCallbackURL: '/google-login' },
  });

export const sessionsQuery = queryOptions({
  queryKey: ['me', 'sessions'],
  queryFn: () => api<{ sessions: SessionInfo[] }>('/api/accounts/sessions'),
});
export const revokeSession = (id: string) => api<{ message: string }>(`/api/accounts/sessions/${id}`, { method: 'DELETE' });
export const revokeOtherSessions = () =>
  api<{ message: string; revoked: number }>('/api/accounts/sessions/revoke-others', { method: 'POST' });
export const currentSessionQuery = queryOptions({
  queryKey: ['me', 'session'],
  queryFn: () => api<{ user: CurrentUser; session: SessionInfo }>('/api/accounts/session'),
});

/** Signs out here and in every other tab of this browser. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return async () => {
    try {
      await api('/api/accounts/sign-out', { method: 'POST', allowUnauthorized: true });
    } finally {
      queryClient.setQueryData(meQuery.queryKey, null);
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'me' });
      broadcastSession('signed-out');
      window.location.assign('/login');
    }
  };
}
