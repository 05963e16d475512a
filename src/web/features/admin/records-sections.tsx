import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { Card } from '@web/components/ui/card';
import { LoadError } from '@web/components/ui/load-error';
import { auditQuery } from './api/audit';
import { classroomReportsQuery, messageReportsQuery } from './api/message-reports';
import { refundsQuery } from './api/refunds';
import { money, when } from './format';
import { adminHref } from './links';
import { TableSkeleton } from './parts';

/**
 * One read-only list of the console: its heading and what it holds, a skeleton while it
 * loads, the error with a retry, a line when it is empty, then one item per row.
 */
function RecordsCard<T>({
  title,
  intro,
  query,
  items,
  errorTitle,
  empty,
  keyOf,
  itemClass = 'py-3',
  children,
}: {
  title: string;
  intro: ReactNode;
  query: UseQueryResult<unknown>;
  items: T[] | undefined;
  errorTitle: string;
  empty: string;
  keyOf: (item: T) => string;
  itemClass?: string;
  children: (item: T) => ReactNode;
}) {
  return (
    <Card>
      <h2 className="mb-3 text-lg font-semibold text-slate-900">{title}</h2>
      <p className="mb-3 text-sm text-slate-600">{intro}</p>
      {query.isPending && <TableSkeleton />}
      {query.isError && <LoadError title={errorTitle} error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />}
      {items?.length === 0 && <p className="text-sm text-slate-600">{empty}</p>}
      <ul className="divide-y divide-slate-100">
        {items?.map((item) => (
          <li key={keyOf(item)} className={`${itemClass} text-sm text-slate-700`}>
            {children(item)}
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** The console's read-only lists: refunds owed, the audit log, reported messages. */
export function RefundsSection() {
  const refunds = useQuery(refundsQuery);
  return (
    <RecordsCard
      title="Refunds owed"
      intro="Refunds the payment provider has not made yet; they are retried automatically."
      query={refunds}
      items={refunds.data?.refunds}
      errorTitle="Could not load refunds owed"
      empty="No refunds owed."
      keyOf={(r) => r.purchaseId}
    >
      {(r) => (
        <>
          {money(r.amountCents, r.currency)} to{' '}
          <Link className="font-medium text-brand-700 hover:underline" to={adminHref('users', r.userId)}>
            {r.userName ?? 'an erased account'}
          </Link>
          {r.userEmail && <> ({r.userEmail})</>} · {r.attempts} attempts{r.lastError ? ` · ${r.lastError}` : ''}
        </>
      )}
    </RecordsCard>
  );
}

export function AuditSection() {
  const audit = useQuery(auditQuery);
  return (
    <RecordsCard
      title="Audit log"
      intro="Every admin action, newest first. Nobody can edit or delete it."
      query={audit}
      items={audit.data?.entries}
      errorTitle="Could not load the audit log"
      empty="No admin actions yet."
      keyOf={(a) => a.id}
      itemClass="py-2"
    >
      {(a) => (
        <>
          <span className="font-medium text-slate-900">{a.action.replace(/_/g, ' ')}</span>
          {a.target && (
            <>
              {' '}
              {a.target.kind === 'user' ? (
                <Link className="font-medium text-brand-700 hover:underline" to={adminHref('users', a.target.id)}>
                  {a.target.name}
                </Link>
              ) : (
                <span className="font-medium text-slate-900">{a.target.name}</span>
              )}
              {a.target.email && <> ({a.target.email})</>}
            </>
          )}{' '}
          by{' '}
          {a.adminName ? (
            <Link className="font-medium text-brand-700 hover:underline" to={adminHref('users', a.adminId)}>
              {a.adminName}
            </Link>
          ) : (
            'an erased account'
          )}{' '}
          · {when(a.createdAt)}
          {a.reason && <> · “{a.reason}”</>}
        </>
      )}
    </RecordsCard>
  );
}

export function ReportsSection() {
  const reports = useQuery(messageReportsQuery);
  return (
    <RecordsCard
      title="Reported messages"
      intro="Mailbox messages members reported, newest first, with the reason they gave."
      query={reports}
      items={reports.data?.reports}
      errorTitle="Could not load the reports"
      empty="No reported messages."
      keyOf={(r) => r.id}
    >
      {(r) => (
        <>
          <p className="whitespace-pre-wrap break-words rounded-lg bg-slate-100 px-3 py-2 text-slate-900">{r.body}</p>
          <p className="mt-1">
            <span className="font-medium text-slate-900">“{r.reason}”</span> · from {r.sender.name} ({r.sender.email}) · reported by{' '}
            {r.reporter.name} ({r.reporter.email}) · {when(r.reportedAt)}
          </p>
        </>
      )}
    </RecordsCard>
  );
}

export function ClassroomReportsSection() {
  const reports = useQuery(classroomReportsQuery);
  return (
    <RecordsCard
      title="Reported classroom posts"
      intro="Classroom posts members reported, newest first; the course's educator sees them too."
      query={reports}
      items={reports.data?.reports}
      errorTitle="Could not load the reports"
      empty="No reported classroom posts."
      keyOf={(r) => r.id}
    >
      {(r) => (
        <>
          <p className="line-clamp-4 whitespace-pre-wrap break-words rounded-lg bg-slate-100 px-3 py-2 text-slate-900">{r.body}</p>
          <p className="mt-1">
            <span className="font-medium text-slate-900">“{r.reason}”</span> · posted by {r.author.name} ({r.author.email}) · reported by{' '}
            {r.reporter.name} ({r.reporter.email}) · {when(r.reportedAt)}
          </p>
        </>
      )}
    </RecordsCard>
  );
}
