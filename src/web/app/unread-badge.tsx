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

export interface UnreadCounts {
  /** The Mailbox badge: conversations with an unread message (and any other counter but notifications). */
  mailbox: number;
  /** The bell: unread notifications (a new message is on the Mailbox badge, not here). */
  notifications: number;
  /** Both: the document title and the phone menu's button. */
  total: number;
}

/**
 * The signed-in user's unread counts, live: re-read when a counter announces
 * `unread.changed` and after every reconnect; the document title shows their total.
 */
export function useUnreadCounts(): UnreadCounts {
  const queryClient = useQueryClient();
  // Asked once the page is on screen: the badge is not what a first view waits for.
  const data = useQuery({ ...unreadQuery, enabled: useAfterPaint() }).data;
  const total = data?.total ?? 0;
  const notifications = data?.counts.notifications ?? 0;
  const refresh = () => void queryClient.invalidateQueries({ queryKey: unreadQuery.queryKey });
  useRealtimeEvent('unread.changed', refresh);
  useRealtimeReconnect(refresh);
  useTitleCount(total);
  return { mailbox: Math.max(0, total - notifications), notifications, total };
}

const shown = (n: number) => (n > 99 ? '99+' : String(n));

/** The count on a nav item; the name a screen reader hears comes with it. */
export function UnreadBadge({ total, testId = 'unread-badge' }: { total: number; testId?: string }) {
  if (total <= 0) return null;
  return (
    <>
      <span
        aria-hidden="true"
        data-testid={testId}
        className="ml-1.5 inline-flex min-w-5 items-center justify-center rounded-full bg-brand-700 px-1.5 py-0.5 text-[11px] font-semibold leading-none text-white"
      >
        {shown(total)}
      </span>
      <span className="sr-only">, {total} unread</span>
    </>
  );
}

/** The bell's count, on the icon's corner (the link's name says it: "Notifications, 3 unread"). */
export function BellCount({ total }: { total: number }) {
  if (total <= 0) return null;
  return (
    <span
      aria-hidden="true"
      data-testid="notifications-badge"
      className="absolute -right-0.5 -top-0.5 inline-flex min-w-[18px] items-center justify-center rounded-full bg-brand-700 px-1 py-0.5 text-[10px] font-semibold leading-none text-white ring-2 ring-white"
    >
      {shown(total)}
    </span>
  );
}
