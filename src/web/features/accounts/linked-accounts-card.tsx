import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { LinkedProvider } from '@shared/accounts-security-schemas';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { Field } from '@web/components/ui/field';
import { Spinner } from '@web/components/ui/spinner';
import { confirmWithCode, linkGoogle, linkedAccountsQuery, setPassword, unlinkAccount } from './api/two-factor';
import { StepUpForm } from './two-factor-card';

const LABEL: Record<LinkedProvider, string> = { password: 'Email and password', google: 'Google' };

/** Settings: the ways to log in (password, Google); link, unlink, set a password. */
export function LinkedAccountsCard() {
  const queryClient = useQueryClient();
  const { data, isPending, isError } = useQuery(linkedAccountsQuery);
  const [error, setError] = useState<ApiError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [retry, setRetry] = useState<(() => Promise<void>) | null>(null);
  const linked = new Set(data?.accounts.map((a) => a.provider));
  // The Google linking flow comes back here with ?error=... when it failed.
  const [params] = useSearchParams();
  const linkError = params.get('error');

  async function run(key: string, action: () => Promise<void>) {
    setBusy(key);
    setError(null);
    setNotice(null);
    try {
      await action();
      await queryClient.invalidateQueries({ queryKey: linkedAccountsQuery.queryKey });
    } catch (err) {
      const e = err instanceof ApiError ? err : new ApiError(500, 'Something went wrong', 'error');
      if (e.code === 'second_factor_required') setRetry(() => action);
      setError(e);
    } finally {
      setBusy(null);
    }
  }

  const onSetPassword = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const password = String(new FormData(e.currentTarget).get('password') ?? '');
    void run('password', async () => setNotice((await setPassword(password)).message));
  };

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Ways to log in</h2>
      <p className="mb-4 text-sm text-slate-600">
        {data && !data.googleAvailable ? 'How you log in to Agora.' : 'Link Google to log in with one click, or set a password.'}
      </p>
      {isPending && <Spinner label="Loading…" />}
      {isError && <Alert tone="error">Could not load the ways to log in.</Alert>}
      {error && !retry && (
        <div className="mb-3">
          <Alert tone="error">{error.message}</Alert>
        </div>
      )}
      {notice && (
        <div className="mb-3">
          <Alert tone="success">{notice}</Alert>
        </div>
      )}
      {linkError && !error && !notice && (
        <div className="mb-3">
          <Alert tone="error">
            {linkError === 'account_already_linked_to_different_user'
              ? 'This Google account already belongs to another Agora account.'
              : 'Google could not be linked. Try again.'}
          </Alert>
        </div>
      )}
      {retry && (
        <div className="mb-3">
          <StepUpForm
            busy={busy === 'step-up'}
            error={error}
            onCancel={() => {
              setRetry(null);
              setError(null);
            }}
            onCode={(code) =>
              run('step-up', async () => {
                await confirmWithCode(code);
                setRetry(null);
                await retry();
              })
            }
          />
        </div>
      )}
      {data && (
        <ul className="divide-y divide-slate-100" aria-label="Ways to log in">
          {(['password', 'google'] as const)
            .filter((p) => p === 'password' || data.googleAvailable || linked.has(p))
            .map((p) => (
              <li key={p} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div>
                  <p className="text-sm font-medium text-slate-900">{LABEL[p]}</p>
                  <p className="text-xs text-slate-600">{linked.has(p) ? 'Linked' : 'Not linked'}</p>
                </div>
                {linked.has(p) && linked.size === 1 ? (
                  // The last way in cannot be removed (the server refuses it): nothing to offer.
                  <p className="text-xs text-slate-600">Your only way to log in</p>
                ) : linked.has(p) ? (
                  <Button
                    variant="ghost"
                    className="text-red-700"
                    loading={busy === p}
                    onClick={() => run(p, async () => setNotice((await unlinkAccount(p)).message))}
                  >
                    {p === 'google' ? 'Unlink Google' : 'Remove password'}
                  </Button>
                ) : p === 'google' ? (
                  <Button
                    variant="secondary"
                    loading={busy === p}
                    onClick={() =>
                      run(p, async () => {
                        window.location.assign((await linkGoogle()).url);
                      })
                    }
                  >
                    Link Google
                  </Button>
                ) : null}
              </li>
            ))}
        </ul>
      )}
      {data && !linked.has('password') && (
        <form className="mt-4 space-y-3" onSubmit={onSetPassword} noValidate>
          <Field
            label="Set a password"
            name="password"
            type="password"
            autoComplete="new-password"
            error={error?.fields.password}
            hint="At least 8 characters, with letters and something else."
          />
          <Button type="submit" loading={busy === 'password'}>
            Set password
          </Button>
        </form>
      )}
    </Card>
  );
}
