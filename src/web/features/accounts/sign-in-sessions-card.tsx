import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Laptop } from 'lucide-react';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { ConfirmDialog } from '@web/components/ui/dialog';
import { Spinner } from '@web/components/ui/spinner';
import { revokeOtherSignInSessions, revokeSignInSession, signInSessionsQuery } from './api/sign-in-sessions';
import { useSignOut } from './api/sign-in';
import { signOutEverywhere } from './api/two-factor';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function SignInSessionsCard() {
  const queryClient = useQueryClient();
  const { data, isPending, isError } = useQuery(signInSessionsQuery);
  const [busy, setBusy] = useState<string | null>(null);
  const signOut = useSignOut();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  // "Sign out everywhere" ends this session too: asked first, then /login says what happened.
  const [confirming, setConfirming] = useState(false);
  const [everywhereError, setEverywhereError] = useState<string | null>(null);
  const others = data?.sessions.filter((s) => !s.current) ?? [];

  async function signOutHereAndEverywhere() {
    setBusy('everywhere');
    setEverywhereError(null);
    try {
      await signOutEverywhere();
      await signOut('signed-out-everywhere');
    } catch (err) {
      setEverywhereError(err instanceof ApiError ? err.message : 'Something went wrong');
      setBusy(null);
    }
  }

  async function run(key: string, action: () => Promise<{ message: string }>) {
    setBusy(key);
    setMessage(null);
    try {
      setMessage({ tone: 'success', text: (await action()).message });
      await queryClient.invalidateQueries({ queryKey: signInSessionsQuery.queryKey });
    } catch (err) {
      setMessage({ tone: 'error', text: err instanceof ApiError ? err.message : 'Something went wrong' });
    } finally {
      setBusy(null);
    }
  }

  return (
    <Card>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">Where you are signed in</h2>
          <p className="text-sm text-slate-600">Sign out of devices you no longer use.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            disabled={others.length === 0}
            loading={busy === 'others'}
            onClick={() => run('others', revokeOtherSignInSessions)}
          >
            Sign out other devices
          </Button>
          <Button
            variant="secondary"
            className="text-red-700"
            onClick={() => {
              setEverywhereError(null);
              setConfirming(true);
            }}
          >
            Sign out everywhere
          </Button>
        </div>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Sign out everywhere?"
        confirmLabel="Sign out everywhere"
        cancelLabel="Stay signed in"
        busy={busy === 'everywhere'}
        error={everywhereError}
        onClose={() => setConfirming(false)}
        onConfirm={() => void signOutHereAndEverywhere()}
      >
        <p>
          Every device signed in to your account is signed out, this one included
          {others.length > 0 ? ` (${others.length + 1} in all)` : ''}. You will need to log in again.
        </p>
      </ConfirmDialog>
      {message && (
        <div className="mb-3">
          <Alert tone={message.tone}>{message.text}</Alert>
        </div>
      )}
      {isPending && <Spinner label="Loading your sessions…" />}
      {isError && <Alert tone="error">Could not load your sessions.</Alert>}
      <ul className="divide-y divide-slate-100" aria-label="Active sessions">
        {data?.sessions.map((s) => (
          <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div className="flex items-center gap-3">
              <Laptop className="h-5 w-5 text-slate-500" aria-hidden="true" />
              <div>
                <p className="text-sm font-medium text-slate-900">
                  {s.device}
                  {s.current && (
                    <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">This device</span>
                  )}
                </p>
                <p className="text-xs text-slate-600">
                  Last seen {when(s.lastSeenAt)}
                  {s.ipAddress ? ` · ${s.ipAddress}` : ''}
                </p>
              </div>
            </div>
            {!s.current && (
              <Button
                variant="ghost"
                className="text-red-700"
                loading={busy === s.id}
                onClick={() => run(s.id, () => revokeSignInSession(s.id))}
              >
                Sign out
              </Button>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}
