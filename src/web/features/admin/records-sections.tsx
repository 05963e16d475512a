import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Card } from '@web/components/ui/card';
import { LoadError } from '@web/components/ui/load-error';
import { auditQuery } from './api/audit';
import { classroomReportsQuery, messageReportsQuery } from './api/message-reports';
import { refundsQuery } from './api/refunds';
import { money, when } from './format';
import { adminHref } from './links';
import { TableSkeleton } from './parts';

/** The console's read-only lists: refunds owed, the audit log, reported messages. */
export function RefundsSection() {
  const refunds = useQuery(refundsQuery);
  return (
    <Card>
      <h2 className="mb-3 text-lg font-semibold text-slate-900">Refunds owed</h2>
      <p className="mb-3 text-sm text-slate-600">Refunds the payment provider has not made yet; they are retried automatically.</p>
      {refunds.isPending && <TableSkeleton />}
      {refunds.isError && (
        <LoadError
          title="Could not load refunds owed"
          error={refunds.error}
          onRetry={() => refunds.refetch()}
          retrying={refunds.isFetching}
        />
      )}
      {refunds.data?.refunds.length === 0 && <p className="text-sm text-slate-600">No refunds owed.</p>}
      <ul className="divide-y divide-slate-100">
        {refunds.data?.refunds.map((r) => (
          <li key={r.purchaseId} className="py-3 text-sm text-slate-700">
            {money(r.amountCents, r.currency)} to{' '}
            <Link className="font-medium text-brand-700 hover:underline" to={adminHref('users', r.userId)}>
              {r.userName ?? 'an erased account'}
            </Link>
            {r.userEmail && <> ({r.userEmail})</>} · {r.attempts} attempts{r.lastError ? ` · ${r.lastError}` : ''}
          </li>
        ))}
      </ul>
    </Card>
  );
}

export function AuditSection() {
  const audit = useQuery(auditQuery);
  return (
    <Card>
      <h2 className="mb-3 text-lg font-semibold text-slate-900">Audit log</h2>
      <p className="mb-3 text-sm text-slate-600">Every admin action, newest first. Nobody can edit or delete it.</p>
      {audit.isPending && <TableSkeleton />}
      {audit.isError && (
        <LoadError title="Could not load the audit log" error={audit.error} onRetry={() => audit.refetch()} retrying={audit.isFetching} />
      )}
      {audit.data?.entries.length === 0 && <p className="text-sm text-slate-600">No admin actions yet.</p>}
      <ul className="divide-y divide-slate-100">
        {audit.data?.entries.map((a) => (
          <li key={a.id} className="py-2 text-sm text-slate-700">
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
          </li>
        ))}
      </ul>
    </Card>
  );
}

export function ReportsSection() {
  const reports = useQuery(messageReportsQuery);
  return (
    <Card>
      <h2 className="mb-3 text-lg font-semibold text-slate-900">Reported messages</h2>
      <p className="mb-3 text-sm text-slate-600">Mailbox messages members reported, newest first, with the reason they gave.</p>
      {reports.isPending && <TableSkeleton />}
      {reports.isError && (
        <LoadError
          title="Could not load the reports"
          error={reports.error}
          onRetry={() => reports.refetch()}
          retrying={reports.isFetching}
        />
      )}
      {reports.data?.reports.length === 0 && <p className="text-sm text-slate-600">No reported messages.</p>}
      <ul className="divide-y divide-slate-100">
        {reports.data?.reports.map((r) => (
          <li key={r.id} className="py-3 text-sm text-slate-700">
            <p className="whitespace-pre-wrap break-words rounded-lg bg-slate-100 px-3 py-2 text-slate-900">{r.body}</p>
            <p className="mt-1">
              <span className="font-medium text-slate-900">“{r.reason}”</span> · from {r.sender.name} ({r.sender.email}) · reported by{' '}
              {r.reporter.name} ({r.reporter.email}) · {when(r.reportedAt)}
            </p>
          </li>
        ))}
      </ul>
    </Card>
  );
}

export function ClassroomReportsSection() {
  const reports = useQuery(classroomReportsQuery);
  return (
    <Card>
      <h2 className="mb-3 text-lg font-semibold text-slate-900">Reported classroom posts</h2>
      <p className="mb-3 text-sm text-slate-600">
        Classroom posts members reported, newest first; the course&apos;s educator sees them too.
      </p>
      {reports.isPending && <TableSkeleton />}
      {reports.isError && (
        <LoadError
          title="Could not load the reports"
          error={reports.error}
          onRetry={() => reports.refetch()}
          retrying={reports.isFetching}
        />
      )}
      {reports.data?.reports.length === 0 && <p className="text-sm text-slate-600">No reported classroom posts.</p>}
      <ul className="divide-y divide-slate-100">
        {reports.data?.reports.map((r) => (
          <li key={r.id} className="py-3 text-sm text-slate-700">
            <p className="line-clamp-4 whitespace-pre-wrap break-words rounded-lg bg-slate-100 px-3 py-2 text-slate-900">{r.body}</p>
            <p className="mt-1">
              <span className="font-medium text-slate-900">“{r.reason}”</span> · posted by {r.author.name} ({r.author.email}) · reported by{' '}
              {r.reporter.name} ({r.reporter.email}) · {when(r.reportedAt)}
            </p>
          </li>
        ))}
      </ul>
    </Card>
  );
}
