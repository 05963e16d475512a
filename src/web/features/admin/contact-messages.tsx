import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CONTACT_TOPICS } from '@shared/contact';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { LoadError } from '@web/components/ui/load-error';
import { Skeleton } from '@web/components/ui/skeleton';
import { contactMessagesQuery } from './api/contact-messages';
import { when } from './format';

const topicLabel = (id: string) => CONTACT_TOPICS.find((t) => t.id === id)?.label ?? id;

/** The admin console's list of contact form messages, newest first. */
export function ContactMessagesSection() {
  const [page, setPage] = useState(1);
  const list = useQuery({ ...contactMessagesQuery(page), placeholderData: keepPreviousData });
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / list.data.pageSize)) : 1;
  return (
    <Card>
      <h2 className="mb-1 text-lg font-semibold text-slate-900">Contact messages</h2>
      <p className="mb-3 text-sm text-slate-600">Sent with the contact form, newest first. Reply by email to the sender.</p>
      {list.isPending && (
        <div className="space-y-2" aria-label="Loading" role="status">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-16 w-full" />
          ))}
        </div>
      )}
      {list.isError && (
        <LoadError
          title="Could not load the contact messages"
          error={list.error}
          onRetry={() => list.refetch()}
          retrying={list.isFetching}
        />
      )}
      {list.data?.messages.length === 0 && <p className="text-sm text-slate-600">No messages yet.</p>}
      <ul className="divide-y divide-slate-100" aria-label="Contact messages">
        {list.data?.messages.map((m) => (
          <li key={m.id} id={m.id} className="py-4 text-sm">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-semibold text-slate-900">{m.name}</span>
              <a href={`mailto:${m.email}`} className="text-brand-700 hover:underline">
                {m.email}
              </a>
              <Badge tone="brand">{topicLabel(m.topic)}</Badge>
              {m.userId && <Badge>Signed in</Badge>}
              <span className="text-slate-600">{when(m.createdAt)}</span>
            </div>
            <p className="mt-2 whitespace-pre-wrap break-words text-slate-700">{m.message}</p>
          </li>
        ))}
      </ul>
      {pages > 1 && (
        <div className="mt-3 flex items-center gap-3">
          <Button variant="secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            Newer
          </Button>
          <span className="text-sm text-slate-600">
            Page {page} of {pages}
          </span>
          <Button variant="secondary" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
            Older
          </Button>
        </div>
      )}
    </Card>
  );
}
