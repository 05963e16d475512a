import { useDeferredValue, useState } from 'react';
import { Link } from 'react-router';
import { keepPreviousData, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { MessageSquare, Search } from 'lucide-react';
import type { ConversationSummary } from '@shared/mailbox-schemas';
import { PageHeader } from '@web/components/ui/card';
import { LoadError } from '@web/components/ui/load-error';
import { Skeleton } from '@web/components/ui/skeleton';
import { Button, ButtonLink } from '@web/components/ui/button';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';
import { useRealtimeEvent, useRealtimeReconnect } from '@web/lib/realtime';
import { useLoadMoreOnScroll } from '@web/lib/use-load-more';
import { conversationsQuery } from './api/mailbox';
import { fullTime, listTime } from './format';

/** /mailbox — the viewer's conversations, newest activity first (more load on scrolling down), with a search box. */
export default function MailboxPage() {
  const [q, setQ] = useState('');
  const query = useDeferredValue(q.trim());
  const { data, error, refetch, isFetching, hasNextPage, fetchNextPage, isFetchingNextPage } = useInfiniteQuery({
    ...conversationsQuery(query),
    placeholderData: keepPreviousData,
  });
  // A conversation shows once even if it moved between pages while they loaded.
  const items = data && [...new Map(data.pages.flatMap((p) => p.items).map((c) => [c.with.id, c])).values()];
  const canLoadMore = !!hasNextPage && !isFetchingNextPage;
  const sentinel = useLoadMoreOnScroll<HTMLDivElement>(() => void fetchNextPage(), canLoadMore);
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: queryKeys.mailbox });
  useRealtimeEvent('message.new', refresh);
  useRealtimeEvent('message.read', refresh);
  useRealtimeEvent('unread.changed', refresh);
  useRealtimeReconnect(refresh);

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Mailbox" subtitle="Your conversations with educators and learners." />
      <div className="relative mb-4">
        <label htmlFor="mailbox-search" className="sr-only">
          Search conversations
        </label>
        <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500" aria-hidden="true" />
        <input
          id="mailbox-search"
          type="search"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          maxLength={200}
          placeholder="Search names and messages"
          className="block w-full rounded-lg border border-slate-300 bg-white py-2.5 pl-9 pr-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 focus:outline-none focus:ring-2 focus:ring-brand-500"
        />
      </div>
      {error && !data ? (
        <LoadError title="Your conversations could not be loaded" error={error} onRetry={() => void refetch()} />
      ) : !items ? (
        <ListSkeleton />
      ) : items.length === 0 ? (
        query ? (
          <p className="rounded-2xl border border-slate-200 bg-white p-8 text-center text-slate-700" role="status">
            No conversation matches “{query}”.
          </p>
        ) : (
          <EmptyMailbox />
        )
      ) : (
        <>
          <ul
            className={`divide-y divide-slate-200 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm ${isFetching && !isFetchingNextPage && query ? 'opacity-70' : ''}`}
            aria-label="Conversations"
          >
            {items.map((c) => (
              <ConversationRow key={c.with.id} conversation={c} />
            ))}
          </ul>
          {hasNextPage && (
            <div ref={sentinel} className="mt-4 text-center">
              <Button variant="secondary" onClick={() => void fetchNextPage()} loading={isFetchingNextPage}>
                Show older conversations
              </Button>
            </div>
          )}
        </>
      )}
    </div>
  );
}

function ConversationRow({ conversation: c }: { conversation: ConversationSummary }) {
  const unread = c.unread > 0;
  return (
    <li>
      <Link
        to={paths.mailboxConversation(c.with.id)}
        className="flex items-center gap-3 px-4 py-3 hover:bg-slate-50 focus:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-brand-500 sm:px-5"
      >
        <img
          src={c.with.profileImage}
          alt=""
          className="h-11 w-11 shrink-0 rounded-full border border-slate-200 object-cover"
          width={44}
          height={44}
        />
        <div className="min-w-0 flex-1">
          <div className="flex items-baseline justify-between gap-3">
            <span className={`truncate ${unread ? 'font-bold text-slate-900' : 'font-semibold text-slate-800'}`}>{c.with.name}</span>
            {c.lastMessage && (
              <time
                dateTime={c.lastMessage.createdAt}
                title={fullTime(c.lastMessage.createdAt)}
                className="shrink-0 text-xs text-slate-600"
              >
                {listTime(c.lastMessage.createdAt)}
              </time>
            )}
          </div>
          <div className="mt-0.5 flex items-center justify-between gap-3">
            <p className={`truncate text-sm ${unread ? 'font-medium text-slate-900' : 'text-slate-600'}`}>
              {c.lastMessage ? `${c.lastMessage.fromMe ? 'You: ' : ''}${c.lastMessage.preview}` : 'No messages yet'}
            </p>
            {unread && (
              <span className="inline-flex min-w-6 shrink-0 justify-center rounded-full bg-brand-700 px-2 py-0.5 text-xs font-bold text-white">
                {c.unread > 99 ? '99+' : c.unread}
                <span className="sr-only"> unread</span>
              </span>
            )}
          </div>
        </div>
      </Link>
    </li>
  );
}

function EmptyMailbox() {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
      <MessageSquare className="mx-auto h-10 w-10 text-brand-700" aria-hidden="true" />
      <h2 className="mt-3 text-lg font-semibold text-slate-900">No conversations yet</h2>
      <p className="mx-auto mt-2 max-w-md text-slate-700">
        Start one with the <strong>Message</strong> button on an educator’s profile, or, as an educator, from your course roster. Messages
        you receive show up here too.
      </p>
      <ButtonLink to={paths.courseSearch()} variant="secondary" className="mt-5">
        Find a course and its educator
      </ButtonLink>
    </div>
  );
}

function ListSkeleton() {
  return (
    <div className="space-y-2 rounded-2xl border border-slate-200 bg-white p-4" role="status" aria-label="Loading your conversations">
      {[0, 1, 2].map((i) => (
        <div key={i} className="flex items-center gap-3 py-2">
          <Skeleton className="h-11 w-11 rounded-full" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-3 w-2/3" />
          </div>
        </div>
      ))}
    </div>
  );
}
