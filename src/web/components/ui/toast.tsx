import { useEffect, useEffectEvent, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { CheckCircle2, X } from 'lucide-react';

export interface Flash {
  tone?: 'success' | 'info';
  text: string;
}

/**
 * A message carried to the next page in the history state ("Course saved"), shown once as
 * a toast; it is cleared from the history entry so a reload does not show it again.
 */
export function useFlash(): [Flash | null, (f: Flash | null) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  const incoming = (location.state as { flash?: Flash } | null)?.flash ?? null;
  const [flash, setFlash] = useState<Flash | null>(incoming);
  // A new flash arriving (another navigation) replaces the shown one; moving to another
  // page takes an old one away: adjusted while rendering.
  const [seen, setSeen] = useState(incoming);
  const [page, setPage] = useState(location.pathname);
  if (incoming !== seen || location.pathname !== page) {
    setSeen(incoming);
    setPage(location.pathname);
    if (incoming || location.pathname !== page) setFlash(incoming);
  }
  useEffect(() => {
    if (incoming) navigate(location.pathname + location.search, { replace: true, state: null });
  }, [incoming, location.pathname, location.search, navigate]);
  return [flash, setFlash];
}

/** A polite toast in the corner that fades after a while (and can be closed). */
export function Toast({ flash, onClose }: { flash: Flash | null; onClose: () => void }) {
  // The latest onClose, without restarting the timer when the parent passes a new function.
  const close = useEffectEvent(onClose);
  useEffect(() => {
    if (!flash) return;
    const t = setTimeout(() => close(), 6000);
    return () => clearTimeout(t);
  }, [flash]);
  return (
    <div aria-live="polite" className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4 sm:justify-end">
      {flash && (
        <div
          role="status"
          className="pointer-events-auto flex max-w-md items-start gap-3 rounded-xl border border-emerald-200 bg-white p-4 text-sm text-slate-800 shadow-lg"
        >
          <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0 text-emerald-600" aria-hidden="true" />
          <p className="min-w-0 flex-1">{flash.text}</p>
          <button
            type="button"
            onClick={onClose}
            className="-m-1 rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
            aria-label="Dismiss"
          >
            <X className="h-4 w-4" aria-hidden="true" />
          </button>
        </div>
      )}
    </div>
  );
}
