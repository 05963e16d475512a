import { useState } from 'react';
import { MESSAGES } from '@shared/accounts';
import { GoogleIcon } from '@web/components/brand';
import { Button } from '@web/components/ui/button';
import { useGoogleLogin } from '@web/lib/app-info';
import { startGoogleLogin } from './api/sign-in';

/** "Continue with Google": the server starts the redirect flow (PKCE) and returns the URL. */
export function GoogleButton({ next }: { next?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <div>
      <Button
        type="button"
        variant="secondary"
        className="w-full"
        loading={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            if (next) sessionStorage.setItem('agora:next', next);
            const { url } = await startGoogleLogin();
            window.location.assign(url);
          } catch {
            setError(MESSAGES.googleAuthError);
            setBusy(false);
          }
        }}
      >
        {!busy && <GoogleIcon />}
        Continue with Google
      </Button>
      {error && (
        <p role="alert" className="mt-2 text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * "or" and the Google button, below the password form: shown only when the server has
 * Google configured (GET /api/version), and appended below the form so that its arrival
 * moves nothing already on screen.
 */
export function GoogleOption({ next }: { next?: string }) {
  if (!useGoogleLogin()) return null;
  return (
    <>
      <OrDivider />
      <GoogleButton next={next} />
    </>
  );
}

export function OrDivider() {
  return (
    <div className="my-5 flex items-center gap-3 text-xs uppercase tracking-wide text-slate-500">
      <span className="h-px flex-1 bg-slate-200" />
      or
      <span className="h-px flex-1 bg-slate-200" />
    </div>
  );
}
