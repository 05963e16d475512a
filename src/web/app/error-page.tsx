import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ServerCrash } from 'lucide-react';
import NotFoundPage from '@web/components/not-found-page';

/** Shown when a route fails unexpectedly. No technical detail reaches the user. */
export default function ErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  if (import.meta.env.DEV) console.error(error);
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center px-4 text-center">
      <ServerCrash className="h-14 w-14 text-red-700" aria-hidden="true" />
      <p className="mt-4 text-sm font-semibold text-red-700">500</p>
      <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900">Internal Server Error</h1>
      <p className="mt-2 max-w-md text-slate-600">Something went wrong on our side. Please try again in a moment.</p>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="mt-6 rounded-lg bg-brand-700 px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-800"
      >
        Reload the page
      </button>
    </div>
  );
}
