import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { startRealtimeSocket } from '@web/lib/realtime-socket';
import { useRealtimeStatus } from '@web/lib/realtime';
import { api } from '@web/lib/api';
import { meQuery } from '@web/lib/viewer';

/**
 * Starts the tab's realtime socket while someone is signed in, and stops it on sign-out
 * (a different user signing in gets a new socket). It only watches the viewer the page
 * already asked for (the sign-in guard, a layout): on /login, after signing out, it asks
 * nothing (GET /api/me would answer 401 there).
 */
export function RealtimeConnection({ onSignedOut }: { onSignedOut: () => void }) {
  const userId = useQuery({ ...meQuery, enabled: false }).data?.id;
  const onSignedOutRef = useRef(onSignedOut);
  useEffect(() => {
    onSignedOutRef.current = onSignedOut;
  }, [onSignedOut]);
  useEffect(() => {
    if (!userId) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = startRealtimeSocket({
      // The server closed the socket because this session ended. This browser signed out (in
      // another tab): "You have been signed out", like the sign-in channel says. Otherwise
      // (expired, a revoked device) and unless this tab signed out itself (then the effect is
      // cleaned up first), one request shows the app's usual 401 path: /login, with why.
      onSessionEnded: (why) => {
        if (why === 'signed-out') return onSignedOutRef.current();
        timer = setTimeout(() => {
          if (!stopped) api('/api/me').catch(() => {});
        }, 1000);
      },
    });
    return () => {
      stopped = true;
      clearTimeout(timer);
      stop();
    };
  }, [userId]);
  return null;
}

/** A small, polite "Reconnecting…" note, shown only when the socket has been down a moment. */
export function ReconnectingIndicator() {
  const status = useRealtimeStatus();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (status !== 'reconnecting') return;
    // Brief blips (a deploy, a Wi-Fi hand-over) reconnect before anyone notices.
    const timer = setTimeout(() => setShown(true), 2000);
    return () => {
      clearTimeout(timer);
      setShown(false);
    };
  }, [status]);
  // Rendered only while shown: other status messages of the page stay the only ones.
  if (!shown || status !== 'reconnecting') return null;
  return (
    <div role="status" className="pointer-events-none fixed bottom-4 left-4 z-40">
      <span className="inline-flex items-center gap-2 rounded-full bg-slate-900/90 px-3 py-1.5 text-xs font-medium text-white shadow">
        <span className="h-2 w-2 animate-pulse rounded-full bg-amber-400" aria-hidden="true" />
        Reconnecting…
      </span>
    </div>
  );
}
