import { useState } from 'react';
import { MESSAGES } from '@shared/accounts';
import { GoogleIcon } from '@web/components/brand';
import { Button } from '@web/components/ui/button';
import { startGoogleLogin } from './api/sign-in';

/** "Continue with Google" (loaded on demand by GoogleOption): the server starts the redirect flow (PKCE) and returns the URL. */
export default function GoogleButton({ next }: { next?: string }) {
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
