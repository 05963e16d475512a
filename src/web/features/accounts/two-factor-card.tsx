import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import type { TwoFactorSetup } from '@shared/accounts-security-schemas';
import { ApiError } from '@web/lib/api';
import { groupKey } from '@web/lib/format';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { Field } from '@web/components/ui/field';
import { Spinner } from '@web/components/ui/spinner';
import {
  confirmTwoFactorSetup,
  confirmWithCode,
  disableTwoFactor,
  downloadBackupCodes,
  regenerateBackupCodes,
  startTwoFactorSetup,
  twoFactorQuery,
} from './api/two-factor';

type Step =
  | { kind: 'idle' }
  | { kind: 'password'; then: 'setup' | 'codes' }
  | { kind: 'scan'; setup: TwoFactorSetup }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'disable' }
  | { kind: 'step-up'; retry: () => Promise<void> };

const formValue = (e: FormEvent<HTMLFormElement>, name: string) => String(new FormData(e.currentTarget).get(name) ?? '');

/** Settings: turn an authenticator app on (QR code, key, first code, backup codes) or off. */
export function TwoFactorCard() {
  const queryClient = useQueryClient();
  const { data, isPending, isError } = useQuery(twoFactorQuery);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [error, setError] = useState<ApiError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await action();
      await queryClient.invalidateQueries({ queryKey: twoFactorQuery.queryKey });
    } catch (err) {
      const e = err instanceof ApiError ? err : new ApiError(500, 'Something went wrong', 'error');
      // A change while this session has no recent second factor: ask for a code, then retry.
      if (e.code === 'second_factor_required') setStep({ kind: 'step-up', retry: action });
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  const onPassword = (then: 'setup' | 'codes') => (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const password = formValue(e, 'password');
    void run(async () => {
      if (then === 'setup') setStep({ kind: 'scan', setup: await startTwoFactorSetup(password) });
      else setStep({ kind: 'codes', codes: (await regenerateBackupCodes(password)).backupCodes });
    });
  };

  return (
    <Card>
      <div className="mb-4 flex items-start gap-3">
        <ShieldCheck className="mt-0.5 h-5 w-5 text-brand-700" aria-hidden="true" />
        <div>
          <h2 className="text-lg font-semibold text-slate-900">Two-factor sign-in</h2>
          <p className="text-sm text-slate-600">
            {data?.enabled
              ? 'On: logging in asks for a code from your authenticator app after your password.'
              : 'Ask for a code from an authenticator app after your password.'}
          </p>
        </div>
      </div>
      {isPending && <Spinner label="Loading…" />}
      {isError && <Alert tone="error">Could not load your two-factor settings.</Alert>}
      {error && step.kind !== 'step-up' && (
        <div className="mb-3">
          <Alert tone="error">{error.message}</Alert>
        </div>
      )}
      {notice && (
        <div className="mb-3">
          <Alert tone="success">{notice}</Alert>
        </div>
      )}

      {data && step.kind === 'idle' && (
        <div className="flex flex-wrap gap-3">
          {data.enabled ? (
            <>
              <Button variant="secondary" onClick={() => setStep({ kind: 'password', then: 'codes' })}>
                New backup codes
              </Button>
              <Button variant="secondary" className="text-red-700" onClick={() => setStep({ kind: 'disable' })}>
                Turn off
              </Button>
            </>
          ) : (
            <Button onClick={() => setStep({ kind: 'password', then: 'setup' })}>Turn on an authenticator app</Button>
          )}
        </div>
      )}

      {step.kind === 'password' && (
        <form className="space-y-3" onSubmit={onPassword(step.then)} noValidate>
          <Field
            label="Your password"
            name="password"
            type="password"
            autoComplete="current-password"
            error={error?.fields.password}
            hint="Leave it empty if you only log in with Google."
          />
          <div className="flex gap-3">
            <Button type="submit" loading={busy}>
              Continue
            </Button>
            <Button type="button" variant="ghost" onClick={() => setStep({ kind: 'idle' })}>
              Cancel
            </Button>
          </div>
        </form>
      )}

      {step.kind === 'scan' && (
        <form
          className="space-y-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const code = formValue(e, 'code').replace(/\s+/g, '');
            void run(async () => setStep({ kind: 'codes', codes: (await confirmTwoFactorSetup(code)).backupCodes }));
          }}
        >
          <p className="text-sm text-slate-700">1. Scan this QR code with your authenticator app, or type the key.</p>
          <div className="flex flex-wrap items-center gap-6">
            <img
              src={step.setup.qrCode}
              alt="QR code to add Agora to your authenticator app"
              width={176}
              height={176}
              className="rounded border border-slate-200"
            />
            <div>
              <p className="text-xs font-medium text-slate-600">Key</p>
              {/* In groups of four, as on a card: 52 characters in one block are easy to mistype. */}
              <code
                data-testid="totp-key"
                className="block max-w-[20rem] rounded bg-slate-100 px-2 py-1 font-mono text-sm leading-relaxed text-slate-900"
              >
                {groupKey(step.setup.key)}
              </code>
            </div>
          </div>
          <Field
            label="2. Enter the 6-digit code it shows"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            error={error?.fields.code}
          />
          <div className="flex gap-3">
            <Button type="submit" loading={busy}>
              Turn on
            </Button>
            <Button type="button" variant="ghost" onClick={() => setStep({ kind: 'idle' })}>
              Cancel
            </Button>
          </div>
        </form>
      )}

      {step.kind === 'codes' && (
        <div className="space-y-3">
          <Alert tone="success" title="Two-factor sign-in is on">
            Keep these backup codes somewhere safe. Each works once, if you lose your phone.
          </Alert>
          <ul
            aria-label="Backup codes"
            className="grid grid-cols-2 gap-2 rounded-lg bg-slate-50 p-3 font-mono text-sm text-slate-900 sm:grid-cols-5"
          >
            {step.codes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <div className="flex gap-3">
            <Button variant="secondary" onClick={() => downloadBackupCodes(step.codes)}>
              Download as .txt
            </Button>
            <Button onClick={() => setStep({ kind: 'idle' })}>Done</Button>
          </div>
        </div>
      )}

      {step.kind === 'disable' && (
        <form
          className="space-y-3"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const password = formValue(e, 'password');
            const code = formValue(e, 'code');
            void run(async () => {
              setNotice((await disableTwoFactor(password, code)).message);
              setStep({ kind: 'idle' });
            });
          }}
        >
          <Field label="Your password" name="password" type="password" autoComplete="current-password" error={error?.fields.password} />
          <Field label="A code from your app or a backup code" name="code" autoComplete="one-time-code" error={error?.fields.code} />
          <div className="flex gap-3">
            <Button type="submit" variant="danger" loading={busy}>
              Turn off two-factor sign-in
            </Button>
            <Button type="button" variant="ghost" onClick={() => setStep({ kind: 'idle' })}>
              Cancel
            </Button>
          </div>
        </form>
      )}

      {step.kind === 'step-up' && (
        <StepUpForm
          busy={busy}
          error={error}
          onCancel={() => setStep({ kind: 'idle' })}
          onCode={(code) =>
            run(async () => {
              await confirmWithCode(code);
              setStep({ kind: 'idle' });
              await step.retry();
            })
          }
        />
      )}
    </Card>
  );
}

/** Asks for a code before a sensitive change (the session had no recent second factor). */
export function StepUpForm({
  busy,
  error,
  onCode,
  onCancel,
}: {
  busy: boolean;
  error: ApiError | null;
  onCode: (code: string) => void;
  onCancel: () => void;
}) {
  return (
    <form
      className="space-y-3"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onCode(formValue(e, 'code'));
      }}
    >
      <Alert tone="info">Confirm it is you: enter a code from your authenticator app or a backup code.</Alert>
      <Field
        label="Code"
        name="code"
        autoComplete="one-time-code"
        error={error?.code === 'second_factor_required' ? undefined : error?.message}
      />
      <div className="flex gap-3">
        <Button type="submit" loading={busy}>
          Confirm
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
