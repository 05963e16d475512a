import { useState } from 'react';
import { Link } from 'react-router';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { BellOff, CheckCheck, Settings } from 'lucide-react';
import type { NotificationView } from '@shared/notifications-schemas';
import { PageHeader } from '@web/components/ui/card';
import { Button, ButtonLink } from '@web/components/ui/button';
import { Skeleton } from '@web/components/ui/skeleton';
import { LoadError } from '@web/components/ui/load-error';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';
import { useRealtimeEvent, useRealtimeReconnect } from '@web/lib/realtime';
import { useViewer } from '@web/lib/viewer';
import { markAllNotificationsRead, markNotificationRead, notificationListQuery } from './api/notifications';
import { TypeIcon } from './type-icon';
import { fullTime, timeAgo } from './time-ago';
import { plural } from '@web/lib/format';

type Filter = 'all' | 'unread';

/** /mailbox/notifications: everything that happened, newest first, live. */
export default function NotificationsPage() {
  const me = useViewer();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<Filter>('all');
  const list = useInfiniteQuery(notificationListQuery(filter));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: queryKeys.notifications });
  useRealtimeEvent('notification.new', refresh);
  // New-message entries are the mailbox's unread state (ADR 0029): a message, or a conversation read elsewhere, changes them.
  useRealtimeEvent('message.new', refresh);
  useRealtimeEvent('unread.changed', refresh);
  useRealtimeReconnect(refresh);

  const markOne = useMutation({ mutationFn: markNotificationRead, onSuccess: refresh });
  const markAll = useMutation({ mutationFn: markAllNotificationsRead, onSuccess: refresh });

  const items = list.data?.pages.flatMap((p) => p.notifications) ?? [];
  const unread = list.data?.pages[0]?.unreadCount ?? 0;
  // The bell's count (notifications) and the Mailbox's (unread conversations), said apart as the header counts them.
  const conversations = list.data?.pages[0]?.unreadConversations ?? 0;
  const notices = unread - conversations;

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title="Notifications"
        subtitle={
          unread
            ? [notices > 0 && `${notices} unread`, conversations > 0 && `${plural(conversations, 'unread conversation')} in your Mailbox`]
                .filter(Boolean)
                .join(' · ')
            : 'You are all caught up.'
        }
        actions={
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => markAll.mutate()} disabled={!unread} loading={markAll.isPending}>
              <CheckCheck className="h-4 w-4" aria-hidden="true" />
              Mark all read
            </Button>
            <ButtonLink to={`${paths.settings}#notification-settings`} variant="ghost">
              <Settings className="h-4 w-4" aria-hidden="true" />
              Settings
            </ButtonLink>
          </div>
        }
      />
      <div role="group" aria-label="Show" className="mb-4 inline-flex rounded-lg border border-slate-300 bg-white p-1">
        {(['all', 'unread'] as const).map((f) => (
          <button
            key={f}
            type="button"
            aria-pressed={filter === f}
            onClick={() => setFilter(f)}
            className={`rounded-md px-3 py-1.5 text-sm font-medium ${filter === f ? 'bg-brand-700 text-white' : 'text-slate-700 hover:bg-slate-100'}`}
          >
            {f === 'all' ? 'All' : 'Unread'}
          </button>
        ))}
      </div>
      {list.error && !list.data ? (
        <LoadError
          title="Your notifications could not be loaded"
          error={list.error}
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
        />
      ) : !list.data ? (
        <div className="space-y-2" aria-busy="true" aria-label="Loading notifications">
          <Skeleton className="h-20" />
          <Skeleton className="h-20" />
          <Skeleton className="h-20" />
        </div>
      ) : items.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
          <BellOff className="mx-auto mb-3 h-8 w-8 text-slate-400" aria-hidden="true" />
          <p className="font-medium text-slate-800">{filter === 'unread' ? 'No unread notifications' : 'No notifications yet'}</p>
          <p className="mt-1 text-sm">
            {filter === 'unread' ? 'Everything is read.' : 'Enrolments, messages, payments and changes to your sessions will show up here.'}
          </p>
        </div>
      ) : (
        <>
          <ul aria-label="Notifications" className="divide-y divide-slate-100 overflow-hidden rounded-xl border border-slate-200 bg-white">
            {items.map((n) => (
              <Row
                key={n.id}
                n={n}
                // New messages open their conversation (reading it there is what reads them); the rest their own page.
                href={n.type === 'new_message' ? n.link : paths.notification(me.id, n.id)}
                onRead={() => markOne.mutate(n.id)}
              />
            ))}
          </ul>
          {list.hasNextPage && (
            <div className="mt-4 text-center">
              <Button variant="secondary" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
                Show older notifications
              </Button>
            </div>
          )}
        </>
      )}
    </div>
  );
}

function Row({ n, href, onRead }: { n: NotificationView; href: string; onRead: () => void }) {
  return (
    <li className={`flex items-start gap-3 p-4 ${n.read ? '' : 'bg-brand-50/60'}`}>
      <span className="mt-4 flex w-2 shrink-0 justify-center">
        {!n.read && <span className="h-2 w-2 rounded-full bg-brand-700" aria-hidden="true" />}
      </span>
      <TypeIcon type={n.type} />
      <div className="min-w-0 flex-1">
        <Link to={href} className="relative block break-words font-semibold text-slate-900 hover:text-brand-700 hover:underline">
          {!n.read && <span className="sr-only">Unread: </span>}
          {n.title}
        </Link>
        <p className="mt-0.5 break-words text-sm text-slate-600">{n.body}</p>
        <p className="mt-1 text-xs text-slate-600">
          <time dateTime={n.createdAt} title={fullTime(n.createdAt)}>
            {timeAgo(n.createdAt)}
          </time>
        </p>
      </div>
      {!n.read && (
        <button
          type="button"
          onClick={onRead}
          className="shrink-0 rounded-md px-2 py-1 text-xs font-semibold text-brand-700 hover:bg-brand-100"
          aria-label={`Mark read: ${n.title}`}
        >
          Mark read
        </button>
      )}
    </li>
  );
}
