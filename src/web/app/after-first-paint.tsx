import type { ReactNode } from 'react';
import { VersionBanner } from './version-banner';
import { RealtimeConnection, ReconnectingIndicator } from './realtime-connection';

/**
 * What every page runs but its first view does not show: the new-version check and the
 * realtime socket (with its "Reconnecting…" note). Loaded by the root layout once the first
 * screen is painted (a chunk of its own, out of the first load's JavaScript).
 */
export default function AfterFirstPaint({ onSignedOut }: { onSignedOut: () => void }): ReactNode {
  return (
    <>
      <VersionBanner />
      <RealtimeConnection onSignedOut={onSignedOut} />
      <ReconnectingIndicator />
    </>
  );
}
