import { useQueryClient } from '@tanstack/react-query';
import type { CurrentUser, SignInBody, SignUpBody } from '@shared/accounts';
import type { TwoFactorSignInBody } from '@shared/accounts-security-schemas';
import { api } from '@web/lib/api';
import { meQuery } from '@web/lib/viewer';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';
import { broadcastSignIn } from '@web/lib/sign-in-channel';

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
