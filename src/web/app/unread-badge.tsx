import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent, useRealtimeReconnect } from '@web/lib/realtime';
import { unreadQuery } from '@web/lib/unread';
import { useAfterPaint } from '@web/lib/use-after-paint';

const PREFIX = /^\(\d+\+?\) /;

/** "(3) Agora": the count before whatever title the page has (kept when the page changes it). */
function useTitleCount(total: number) {
  useEffect(() => {
    const apply = () => {
      const base = document.title.replace(PREFIX, '');
      const wanted = total > 0 ? `(${total > 99 ? '99+' : total}) ${base}` : base;
      if (document.title !== wanted) document.title = wanted;
    };
    apply();
    const title = document.querySelector('title');
    if (!title) return;
    const observer = new MutationObserver(apply);
    observer.observe(title, { childList: true, characterData: true, subtree: true });
    return () => {
      observer.disconnect();
      document.title = document.title.replace(PREFIX, '');
    };
  }, [total]);
}

/**
 * The signed-in user's unread total (messages + notifications ...), live: re-read when a
 * counter announces `unread.changed` and after every reconnect; the document title shows it.
 */
export function useUnreadTotal(): number {
  const queryClient = useQueryClient();
  // Asked once the page is on screen: the badge is not what a first view waits for.
  const total = useQuery({ ...unreadQuery, enabled: useAfterPaint() }).data?.total ?? 0;
  const refresh = () => void queryClient.invalidateQueries({ queryKey: unreadQuery.queryKey });
  useRealtimeEvent('unread.changed', refresh);
  useRealtimeReconnect(refresh);
  useTitleCount(total);
  return total;
}

/** The count on a nav item; the name a screen reader hears comes with it. */
export function UnreadBadge({ total }: { total: number }) {
  if (total <= 0) return null;
  return (
    <>
      <span
        aria-hidden="true"
        data-testid="unread-badge"
        className="ml-1.5 inline-flex min-w-5 items-center justify-center rounded-full bg-brand-700 px-1.5 py-0.5 text-[11px] font-semibold leading-none text-white"
      >
        {total > 99 ? '99+' : total}
      </span>
      <span className="sr-only">, {total} unread</span>
    </>
  );
}
