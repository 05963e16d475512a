import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { LoadError } from '@web/components/ui/load-error';
import { queryKeys } from '@web/lib/query-keys';
import { jobsQuery, retryJob } from './api/jobs';
import { errorText, when } from './format';
import { TableSkeleton } from './parts';

export function JobsSection() {
  const queryClient = useQueryClient();
  const jobs = useQuery(jobsQuery);
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  async function retry(id: string) {
    setBusy(id);
    try {
      await retryJob(id);
      setMessage({ tone: 'success', text: 'The job is queued again.' });
      await queryClient.invalidateQueries({ queryKey: queryKeys.admin });
    } catch (err) {
      setMessage({ tone: 'error', text: errorText(err) });
    } finally {
      setBusy(null);
    }
  }
  return (
    <Card>
      <h2 className="mb-3 text-lg font-semibold text-slate-900">Failed jobs</h2>
      {message && (
        <div className="mb-3">
          <Alert tone={message.tone}>{message.text}</Alert>
        </div>
      )}
      {jobs.isPending && <TableSkeleton />}
      {jobs.isError && (
        <LoadError title="Could not load failed jobs" error={jobs.error} onRetry={() => jobs.refetch()} retrying={jobs.isFetching} />
      )}
      {jobs.data?.jobs.length === 0 && <p className="text-sm text-slate-600">No failed jobs: every background job finished.</p>}
      <ul className="divide-y divide-slate-100">
        {jobs.data?.jobs.map((j) => (
          <li key={j.id} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
            <div>
              <p className="font-medium text-slate-900">{j.kind}</p>
              <p className="text-slate-600">
                {j.attempts} attempts · {when(j.createdAt)} · {j.lastError ?? 'no error recorded'}
              </p>
            </div>
            <Button variant="secondary" loading={busy === j.id} onClick={() => retry(j.id)}>
              Retry
            </Button>
          </li>
        ))}
      </ul>
      {jobs.data && (
        <details className="mt-4 text-sm">
          <summary className="cursor-pointer font-medium text-slate-900">
            Recently finished ({jobs.data.finished.length}; kept {jobs.data.keepDays} {jobs.data.keepDays === 1 ? 'day' : 'days'})
          </summary>
          {jobs.data.finished.length === 0 ? (
            <p className="mt-2 text-slate-600">No background job finished in the last {jobs.data.keepDays} days.</p>
          ) : (
            <ul className="mt-2 divide-y divide-slate-100">
              {jobs.data.finished.map((j) => (
                <li key={j.id} className="py-2">
                  <p className="font-medium text-slate-900">
                    {j.kind} <span className={j.outcome === 'done' ? 'text-emerald-700' : 'text-red-700'}>{j.outcome}</span>
                  </p>
                  <p className="text-slate-600">
                    {when(j.finishedAt)} · {j.attempts} {j.attempts === 1 ? 'attempt' : 'attempts'}
                    {j.startedAt && ` · ${Math.max(0, Date.parse(j.finishedAt) - Date.parse(j.startedAt))} ms`}
                    {j.ranBy && ` · ${j.ranBy}`}
                    {j.lastError && ` · ${j.lastError}`}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </details>
      )}
    </Card>
  );
}
