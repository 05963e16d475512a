import { queryOptions, useQueryClient } from '@tanstack/react-query';
import type { CurrentUser, SessionInfo, SignInBody, SignUpBody, UpdateProfileBody } from '@shared/accounts';
import { api, ApiError } from '@web/lib/api';
import { broadcastSignIn } from '@web/lib/sign-in-channel';
import { meQuery } from '@web/lib/auth';
import { queryKeys } from '@web/lib/query-keys';
import { paths } from '@web/lib/paths';

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
    body: { providerId: 'google', callbackURL: paths.googleLogin(), errorCallbackURL: paths.googleLogin('google'), newUserCallbackURL: paths.googleLogin() },
  });

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

/** Signs out here and in every other tab of this browser. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return async () => {
    try {
      await api('/api/accounts/sign-out', { method: 'POST', allowUnauthorized: true });
    } finally {
      queryClient.setQueryData(meQuery.queryKey, null);
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.me[0] });
      broadcastSignIn('signed-out');
      window.location.assign(paths.login());
    }
  };
}
