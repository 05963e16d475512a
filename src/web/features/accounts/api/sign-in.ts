import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { CurrentUser, SignInBody, SignUpBody } from '@shared/accounts';
import type { TwoFactorSignInBody } from '@shared/accounts-security-schemas';
import { api } from '@web/lib/api';
import { meQuery } from '@web/lib/viewer';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';
import { broadcastSignIn } from '@web/lib/sign-in-channel';
import { stopRealtimeSocket } from '@web/lib/realtime-socket';
import { forgetBootstrapAnswers } from '@web/lib/bootstrap';

/** Signing up, in (password or Google) and out, email verification and password reset. */
export const signUp = (body: SignUpBody) => api<{ email: string }>('/api/accounts/sign-up', { method: 'POST', body });
/** The signed-in user, or { twoFactorRequired } when a code is asked next (signInWithCode). */
export const signIn = (body: SignInBody) =>
  api<CurrentUser | { twoFactorRequired: true }>('/api/accounts/sign-in', { method: 'POST', body, allowUnauthorized: true });
export const signInWithCode = (body: TwoFactorSignInBody) =>
  api<CurrentUser>('/api/accounts/sign-in/two-factor', { method: 'POST', body, allowUnauthorized: true });
export const resendVerification = (email: string) =>
  api<{ message: string }>('/api/accounts/resend-verification', { method: 'POST', body: { email } });
export const requestPasswordReset = (email: string) =>
  api<{ message: string }>('/api/accounts/password-reset', { method: 'POST', body: { email } });
export const resetPassword = (token: string, password: string) =>
  api<{ message: string }>('/api/accounts/reset-password', { method: 'POST', body: { token, password } });
export const startGoogleLogin = () =>
  api<{ url: string; redirect: boolean }>('/api/auth/sign-in/oauth2', {
    method: 'POST',
    body: {
      providerId: 'google',
      callbackURL: paths.googleLogin(),
      errorCallbackURL: paths.googleLogin('google'),
      newUserCallbackURL: paths.googleLogin(),
    },
  });

/**
 * Quiets this tab's signed-in state before (or as) its session ends: the realtime socket
 * stops (no reconnect, no refetch on `unread.changed` or reconnect) and running queries are
 * cancelled, so nothing asks the API without a session (each 401 logs a console error).
 */
export async function quietSignedInState(queryClient: QueryClient) {
  stopRealtimeSocket();
  forgetBootstrapAnswers();
  await queryClient.cancelQueries();
}

/** Removes every cached query but the viewer's; call once no screen shows them (removing a shown query refetches it). */
export function forgetSignedInQueries(queryClient: QueryClient) {
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.me[0] });
}

/**
 * Signs out here and in every other tab of this browser. The tab is quieted first, then
 * the session ends and the page reloads on /login, which drops the whole cache: the
 * signed-in queries are not removed before (the screens still shown would refetch them).
 * `reason`: what /login says (after "Sign out everywhere": 'signed-out-everywhere').
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  return async (reason?: 'signed-out-everywhere') => {
    await quietSignedInState(queryClient);
    try {
      await api('/api/accounts/sign-out', { method: 'POST', allowUnauthorized: true });
    } finally {
      queryClient.setQueryData(meQuery.queryKey, null);
      broadcastSignIn('signed-out');
      window.location.assign(paths.login(undefined, reason));
    }
  };
}
