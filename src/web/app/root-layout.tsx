import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { setUnauthorizedHandler } from '@web/lib/api';
import { onSignInEvent } from '@web/lib/sign-in-channel';
import { paths } from '@web/lib/paths';
import { isPublicPath } from '@shared/routes';
import { meQuery } from '@web/lib/viewer';
import { VersionBanner } from './version-banner';
import { RealtimeConnection, ReconnectingIndicator } from './realtime-connection';
import { forgetSignedInQueries, quietSignedInState } from '@web/features/accounts/api/sign-in';

/** Wraps every page: sign-in events from other tabs, 401 handling, deploy detection. */
export function RootLayout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    setUnauthorizedHandler(() => {
      queryClient.setQueryData(meQuery.queryKey, null);
      const here = window.location.pathname + window.location.search;
      if (!isPublicPath(window.location.pathname)) navigate(paths.login(here, 'session-expired'), { replace: true });
    });
    return onSignInEvent((event) => {
      if (event === 'signed-out') {
        // Quiet first (the session is already gone), then leave; the signed-in queries go
        // once their screens have (removed while shown, they would refetch and 401).
        void quietSignedInState(queryClient);
        queryClient.setQueryData(meQuery.queryKey, null);
        void Promise.resolve(navigate(paths.login(undefined, 'signed-out'), { replace: true })).then(() =>
          forgetSignedInQueries(queryClient),
        );
      } else {
        void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
      }
    });
  }, [navigate, queryClient]);

  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <Outlet />
      <VersionBanner />
      <RealtimeConnection />
      <ReconnectingIndicator />
      <ScrollRestoration />
    </>
  );
}
