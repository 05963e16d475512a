import { useEffect } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { MESSAGES } from '@shared/accounts';
import { homeAfterSignIn, safeNext } from '@shared/routes';
import { paths } from '@web/lib/paths';
import { broadcastSignIn } from '@web/lib/sign-in-channel';
import { Alert } from '@web/components/ui/alert';
import { PageLoading } from '@web/components/ui/spinner';
import { meQuery } from '@web/lib/viewer';
import { AuthCard } from './auth-card';

/** Where the Google redirect flow comes back: the session cookie is already set. */
export default function GoogleLoginPage() {
  const [params] = useSearchParams();
  const failed = params.get('error');
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    if (failed) return;
    let cancelled = false;
    queryClient.fetchQuery({ ...meQuery, staleTime: 0 }).then(
      (me) => {
        if (cancelled) return;
        if (!me) return navigate(paths.googleLogin('no-session'), { replace: true });
        broadcastSignIn('signed-in');
        const next = safeNext(sessionStorage.getItem('agora:next'), homeAfterSignIn(me));
        sessionStorage.removeItem('agora:next');
        navigate(next, { replace: true });
      },
      () => navigate(paths.googleLogin('failed'), { replace: true }),
    );
    return () => {
      cancelled = true;
    };
  }, [failed, navigate, queryClient]);

  if (failed) {
    return (
      <AuthCard title="Log in with Google">
        <Alert tone="error" title={MESSAGES.googleAuthError}>
          We could not log you in with Google. Try again, or use your email and password.
        </Alert>
        <Link to={paths.login()} className="mt-4 block text-center text-sm font-semibold text-brand-700 hover:underline">
          Back to log in
        </Link>
      </AuthCard>
    );
  }
  return <PageLoading label="Signing you in with Google…" />;
}
