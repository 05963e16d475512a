import { useQuery } from '@tanstack/react-query';
import { Alert } from '@web/components/ui/alert';
import { Card, PageHeader } from '@web/components/ui/card';
import { PageLoading } from '@web/components/ui/spinner';
import { currentSignInSessionQuery } from './api/sign-in-sessions';

const fmt = (iso: string | null) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'long' }) : '—');

/** The current sign-in session's details, for support. The token itself is never shown (it is HttpOnly). */
export default function AuthTestPage() {
  const { data, isPending, isError } = useQuery(currentSignInSessionQuery);
  if (isPending) return <PageLoading />;
  if (isError || !data) return <Alert tone="error">Could not load your session.</Alert>;
  const rows: [string, string][] = [
    ['User id', data.user.id],
    ['Email', data.user.email],
    ['Email verified', data.user.verified ? 'Yes' : 'No'],
    ['Session id', data.session.id],
    ['Device', data.session.device],
    ['Signed in', fmt(data.session.createdAt)],
    ['Last seen', fmt(data.session.lastSeenAt)],
    ['Expires', fmt(data.session.expiresAt)],
    ['Last sign-in', fmt(data.user.lastSignInAt)],
  ];
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Your session" subtitle="Share these details with support if they ask. Your session token is never shown." />
      <Card>
        <dl className="divide-y divide-slate-100">
          {rows.map(([k, v]) => (
            <div key={k} className="grid gap-1 py-3 sm:grid-cols-3">
              <dt className="text-sm font-medium text-slate-600">{k}</dt>
              <dd className="break-all text-sm text-slate-900 sm:col-span-2">{v}</dd>
            </div>
          ))}
        </dl>
      </Card>
    </div>
  );
}
