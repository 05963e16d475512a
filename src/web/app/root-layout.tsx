import { lazy, Suspense, useCallback, useEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { setUnauthorizedHandler } from '@web/lib/api';
import { onSignInEvent } from '@web/lib/sign-in-channel';
import { paths } from '@web/lib/paths';
import { isPublicPath } from '@shared/routes';
import { meQuery } from '@web/lib/viewer';
import { useAfterPaint } from '@web/lib/use-after-paint';
import { forgetSignedInQueries, quietSignedInState } from '@web/features/accounts/api/sign-in';

// A chunk that cannot load (a deploy removed it) leaves these out rather than failing the page.
const AfterFirstPaint = lazy(() => import('./after-first-paint').catch(() => ({ default: () => null })));

/** Wraps every page: sign-in events from other tabs, 401 handling, deploy detection. */
export function RootLayout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Set once this browser signed out, until someone signs in again: the page's queries still
  // in flight then answer 401, which must not turn "signed out" into "session expired".
  const signedOutHere = useRef(false);
  const afterPaint = useAfterPaint();
  const meId = useQuery({ ...meQuery, enabled: false }).data?.id;
  useEffect(() => {
    if (meId) signedOutHere.current = false;
  }, [meId]);
  // This browser signed out (another tab said so, or the server closed our socket as signed out).
  const signedOut = useCallback(() => {
    signedOutHere.current = true;
    // Quiet first (the session is already gone), then leave; the signed-in queries go once
    // their screens have (removed while shown, they would refetch and 401).
    void quietSignedInState(queryClient);
    queryClient.setQueryData(meQuery.queryKey, null);
    void Promise.resolve(navigate(paths.login(undefined, 'signed-out'), { replace: true })).then(() => forgetSignedInQueries(queryClient));
  }, [navigate, queryClient]);

  useEffect(() => {
    setUnauthorizedHandler(() => {
      queryClient.setQueryData(meQuery.queryKey, null);
      if (signedOutHere.current) return;
      const here = window.location.pathname + window.location.search;
      if (!isPublicPath(window.location.pathname)) navigate(paths.login(here, 'session-expired'), { replace: true });
    });
    return onSignInEvent((event) => {
      if (event === 'signed-out') signedOut();
      else void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
    });
  }, [navigate, queryClient, signedOut]);

  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <Outlet />
      {afterPaint && (
        <Suspense fallback={null}>
          <AfterFirstPaint onSignedOut={signedOut} />
        </Suspense>
      )}
      <ScrollRestoration />
    </>
  );
}
