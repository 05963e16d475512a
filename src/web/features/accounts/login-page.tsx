import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { homeAfterSignIn, safeNext } from '@shared/routes';
import { MESSAGES, type CurrentUser } from '@shared/accounts';
import { ApiError } from '@web/lib/api';
import { broadcastSignIn } from '@web/lib/sign-in-channel';
import { paths } from '@web/lib/paths';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Field } from '@web/components/ui/field';
import { meQuery } from '@web/lib/viewer';
import { resendVerification, signIn, signInWithCode } from './api/sign-in';
import { GoogleOption } from './google-button';
import { AuthCard } from './auth-card';

const REASONS: Record<string, string> = {
  'session-expired': 'Your session has ended. Please log in again.',
  'signed-out': 'You have been signed out.',
  'signed-out-everywhere': 'You have been signed out everywhere: on this device and on every other one.',
  'password-reset': 'Your password has been changed. Log in with the new one.',
  'learner-invite': 'Your account is ready, with your classes. Log in with your email and password.',
};

export default function LoginPage() {
  const [params] = useSearchParams();
  // A Google log-in that needs its second factor lands here (step=two-factor); the page it
  // was started from is where the Google button left it.
  const fromGoogle = params.get('step') === 'two-factor';
  const rawNext = params.get('next') ?? (fromGoogle ? sessionStorage.getItem('agora:next') : null);
  const next = rawNext ? safeNext(rawNext) : undefined;
  const reason = REASONS[params.get('reason') ?? ''];
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Plain inputs read on submit: no form library in the /login bundle (its first load is budgeted).
  const form = useRef<HTMLFormElement>(null);
  const [submitting, setSubmitting] = useState(false);
  const value = (name: string) => String(new FormData(form.current ?? undefined).get(name) ?? '');
  const [error, setError] = useState<ApiError | null>(null);
  const [resent, setResent] = useState<string | null>(null);
  const [askCode, setAskCode] = useState(fromGoogle);

  const signedIn = (me: CurrentUser) => {
    if (fromGoogle) sessionStorage.removeItem('agora:next');
    queryClient.setQueryData(meQuery.queryKey, me);
    broadcastSignIn('signed-in');
    navigate(safeNext(rawNext, homeAfterSignIn(me)), { replace: true });
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setError(null);
    setResent(null);
    const email = value('email').trim();
    const password = value('password').trim();
    if (!email || !password) {
      setError(
        new ApiError(400, MESSAGES.emptyFields, 'empty_fields', {
          ...(email ? {} : { email: 'Email is required' }),
          ...(password ? {} : { password: 'Password is required' }),
        }),
      );
      return;
    }
    setSubmitting(true);
    try {
      const result = await signIn({ email, password });
      if ('twoFactorRequired' in result) setAskCode(true);
      else signedIn(result);
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(500, MESSAGES.signInError, 'error'));
    } finally {
      setSubmitting(false);
    }
  };

  if (askCode) return <TwoFactorStep onSignedIn={signedIn} onRestart={() => setAskCode(false)} />;

  return (
    <AuthCard
      title="Log in to Agora"
      subtitle={
        <>
          New here?{' '}
          <Link className="font-semibold text-brand-700 hover:underline" to={paths.signup}>
            Create an account
          </Link>
        </>
      }
    >
      {reason && !error && (
        <div className="mb-4">
          <Alert tone="info">{reason}</Alert>
        </div>
      )}
      <form ref={form} onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-4">
        {error && (
          <Alert tone="error" title={error.message}>
            {error.code === 'email_not_verified' && (
              <button
                type="button"
                className="mt-1 font-semibold underline"
                onClick={async () => {
                  const r = await resendVerification(value('email').trim()).catch((e: ApiError) => ({ message: e.message }));
                  setResent(r.message);
                }}
              >
                Resend the verification email
              </button>
            )}
          </Alert>
        )}
        {resent && <Alert tone="success">{resent}</Alert>}
        <Field label="Email" name="email" type="email" autoComplete="email" error={error?.fields.email} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" error={error?.fields.password} />
        <div className="flex justify-end">
          <Link to={paths.sendPasswordReset} className="text-sm font-medium text-brand-700 hover:underline">
            Forgot your password?
          </Link>
        </div>
        <Button type="submit" className="w-full" loading={submitting}>
          Log in
        </Button>
      </form>
      <GoogleOption next={next} />
    </AuthCard>
  );
}

/** The second step when two-factor is on: a code from the app or a backup code. */
function TwoFactorStep({ onSignedIn, onRestart }: { onSignedIn: (me: CurrentUser) => void; onRestart: () => void }) {
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    setError(null);
    setSubmitting(true);
    try {
      onSignedIn(await signInWithCode({ code: String(data.get('code') ?? '').trim(), trustDevice: data.get('trustDevice') === 'on' }));
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(500, MESSAGES.signInError, 'error'));
    } finally {
      setSubmitting(false);
    }
  };
  return (
    <AuthCard title="Two-factor sign-in" subtitle="Enter the 6-digit code from your authenticator app, or one of your backup codes.">
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-4">
        {error && (
          <Alert tone="error" title={error.message}>
            {error.code === 'two_factor_expired' && (
              <button type="button" className="mt-1 font-semibold underline" onClick={onRestart}>
                Log in again
              </button>
            )}
          </Alert>
        )}
        <Field label="Code" name="code" autoComplete="one-time-code" error={error?.fields.code} />
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" name="trustDevice" className="h-4 w-4 rounded border-slate-300" />
          Trust this device for 30 days
        </label>
        <Button type="submit" className="w-full" loading={submitting}>
          Verify
        </Button>
        <button type="button" className="w-full text-sm font-medium text-brand-700 hover:underline" onClick={onRestart}>
          Back to log in
        </button>
      </form>
    </AuthCard>
  );
}
