import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { startRealtimeSocket } from '@web/lib/realtime-socket';
import { useRealtimeStatus } from '@web/lib/realtime';
import { meQuery, useMe } from '@web/lib/viewer';

/**
 * Starts the tab's realtime socket while someone is signed in, and stops it on sign-out
 * (a different user signing in gets a new socket). When the server closes it because the
 * session ended, the viewer is re-read: the sign-in guard takes it from there.
 */
export function RealtimeConnection() {
  const userId = useMe().data?.id;
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!userId) return;
    return startRealtimeSocket({ onSessionEnded: () => void queryClient.invalidateQueries({ queryKey: meQuery.queryKey }) });
  }, [userId, queryClient]);
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
  return (
    <div role="status" aria-live="polite" className="pointer-events-none fixed bottom-4 left-4 z-40">
      {shown && status === 'reconnecting' && (
        <span className="inline-flex items-center gap-2 rounded-full bg-slate-900/90 px-3 py-1.5 text-xs font-medium text-white shadow">
          <span className="h-2 w-2 animate-pulse rounded-full bg-amber-400" aria-hidden="true" />
          Reconnecting…
        </span>
      )}
    </div>
  );
}
