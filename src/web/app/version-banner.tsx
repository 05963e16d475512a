import { useEffect, useState } from 'react';
import { RefreshCw } from 'lucide-react';

declare const __BUILD_ID__: string;
const POLL_MS = 60_000;

/** Polls the server's build id; when a new build is deployed, offers a reload. */
export function VersionBanner() {
  const [stale, setStale] = useState(false);
  useEffect(() => {
    if (__BUILD_ID__ === 'dev') return;
    let stopped = false;
    const check = async () => {
      try {
        const r = await fetch('/api/version', { cache: 'no-store' });
        if (!r.ok) return;
        const { buildId } = (await r.json()) as { buildId: string };
        if (!stopped && buildId !== 'dev' && buildId !== __BUILD_ID__) setStale(true);
      } catch {
        /* offline: try again later */
      }
    };
    const timer = setInterval(check, POLL_MS);
    const onVisible = () => document.visibilityState === 'visible' && check();
    document.addEventListener('visibilitychange', onVisible);
    void check();
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);
  if (!stale) return null;
  return (
    <div
      role="status"
      className="fixed inset-x-0 bottom-4 z-50 mx-auto flex w-fit max-w-[calc(100%-2rem)] items-center gap-3 rounded-xl bg-slate-900 px-4 py-3 text-sm text-white shadow-lg"
    >
      <span>A new version is available</span>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="inline-flex items-center gap-1 rounded-lg bg-white px-3 py-1.5 font-semibold text-slate-900 hover:bg-slate-100"
      >
        <RefreshCw className="h-4 w-4" aria-hidden="true" /> Reload
      </button>
    </div>
  );
}
