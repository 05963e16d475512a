import { useQuery } from '@tanstack/react-query';
import { Inbox } from 'lucide-react';
import { Card, PageHeader } from '@web/components/ui/card';
import { PageLoading } from '@web/components/ui/spinner';
import { outboxQuery } from './api/outbox';

const linkify = (text: string) =>
  text.split(/(https?:\/\/\S+)/g).map((part, i) =>
    /^https?:\/\//.test(part) ? (
      <a key={i} href={part} className="break-all font-semibold text-brand-700 underline">
        {part}
      </a>
    ) : (
      <span key={i}>{part}</span>
    ),
  );

/** Development tool: the emails the app "sent" while no SMTP server is configured. */
export default function OutboxPage() {
  const { data, isPending } = useQuery(outboxQuery);
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Local outbox" subtitle="Development only: emails are kept here while SMTP_URL is not set." />
      {isPending && <PageLoading />}
      {data?.length === 0 && (
        <Card className="text-center">
          <Inbox className="mx-auto h-8 w-8 text-slate-500" aria-hidden="true" />
          <p className="mt-2 text-slate-600">No emails yet.</p>
        </Card>
      )}
      <ul className="space-y-4">
        {data?.map((m) => (
          <li key={m.id}>
            <Card>
              <p className="text-xs text-slate-600">
                To {m.to} · {new Date(m.created_at).toLocaleString()}
              </p>
              <h2 className="mt-1 font-semibold text-slate-900">{m.subject}</h2>
              <p className="mt-3 whitespace-pre-wrap text-sm text-slate-800">{linkify(m.text)}</p>
            </Card>
          </li>
        ))}
      </ul>
    </div>
  );
}
