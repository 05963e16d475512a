import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { MailCheck } from 'lucide-react';
import { ApiError } from '@web/lib/api';
import { paths } from '@web/lib/paths';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { resendVerification } from './api/sign-in';
import { AuthCard } from './auth-card';

const COOLDOWN = 60;

export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [wait, setWait] = useState(COOLDOWN);

  useEffect(() => {
    if (wait <= 0) return;
    const t = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(t);
  }, [wait]);

  return (
    <AuthCard title="Check your email">
      <div className="flex flex-col items-center text-center">
        <MailCheck className="h-12 w-12 text-brand-700" aria-hidden="true" />
        <p className="mt-4 text-slate-700">
          We sent a verification link to {email ? <strong className="break-all">{email}</strong> : 'your email address'}. Open it to
          activate your account, then log in.
        </p>
        <p className="mt-2 text-sm text-slate-600">Nothing there? Check your spam folder, or send the link again.</p>
      </div>
      <div className="mt-6 space-y-3">
        {status && <Alert tone={status.tone}>{status.text}</Alert>}
        <Button
          type="button"
          variant="secondary"
          className="w-full"
          disabled={!email || wait > 0}
          loading={busy}
          onClick={async () => {
            setBusy(true);
            try {
              const r = await resendVerification(email);
              setStatus({ tone: 'success', text: r.message });
              setWait(COOLDOWN);
            } catch (err) {
              setStatus({ tone: 'error', text: err instanceof ApiError ? err.message : 'Could not send the link' });
            } finally {
              setBusy(false);
            }
          }}
        >
          {wait > 0 ? `Resend (available in ${wait} s)` : 'Resend'}
        </Button>
        <Link to={paths.login()} className="block text-center text-sm font-semibold text-brand-700 hover:underline">
          Back to log in
        </Link>
      </div>
    </AuthCard>
  );
}
