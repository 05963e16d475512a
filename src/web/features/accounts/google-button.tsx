import { lazy, Suspense } from 'react';
import { useGoogleLogin } from '@web/lib/app-info';

// The button's code loads only where the server has Google configured (most pages of a
// first visit never need it).
const GoogleButton = lazy(() => import('./google-login-button'));

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
      <Suspense fallback={<div className="h-10" aria-hidden="true" />}>
        <GoogleButton next={next} />
      </Suspense>
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
