import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Award, Download } from 'lucide-react';
import type { MyAttendance } from '@shared/attendance-schemas';
import { formatDateRange, plural } from '@web/lib/format';
import { paths } from '@web/lib/paths';
import { Badge } from '@web/components/ui/badge';
import { LoadError } from '@web/components/ui/load-error';
import { Panel } from '@web/components/ui/panel';
import { Skeleton } from '@web/components/ui/skeleton';
import { certificatePdfUrl, certificateVerifyUrl, myAttendanceQuery } from './api/attendance';

const MARK_LABEL = { present: 'Present', late: 'Late', absent: 'Absent' } as const;
const MARK_TONE = { present: 'green', late: 'amber', absent: 'red' } as const;

/**
 * The learner's own attendance on the dashboard: per session, the classes attended so far
 * and each class's mark, and the certificate of completion to download (issue 25).
 */
export function MyAttendancePanel() {
  const q = useQuery(myAttendanceQuery);
  // Sessions where something can be said: a class already began, or a certificate was issued.
  const [now] = useState(() => Date.now());
  const shown = (q.data?.sessions ?? []).filter(
    (s) => s.certificate || s.classes.some((c) => new Date(c.startsAt).getTime() <= now || c.mark),
  );
  if (q.isSuccess && shown.length === 0) return null;
  return (
    <Panel id="attendance" title="Attendance and certificates">
      {q.isPending ? (
        <div role="status" aria-label="Loading your attendance" className="space-y-2">
          <Skeleton className="h-14 w-full rounded-xl" />
          <Skeleton className="h-14 w-full rounded-xl" />
        </div>
      ) : q.isError ? (
        <LoadError title="Your attendance could not be loaded" error={q.error} onRetry={() => void q.refetch()} retrying={q.isFetching} />
      ) : (
        <ul className="divide-y divide-slate-100">
          {shown.map((s) => (
            <SessionRecord key={`${s.sessionId}:${s.learnerProfileId ?? ''}`} s={s} />
          ))}
        </ul>
      )}
    </Panel>
  );
}

/** One seat: the account holder's own, or one of their learners' (family accounts: `learnerName` says whose). */
function SessionRecord({ s }: { s: MyAttendance['sessions'][number] }) {
  const marked = s.classes.filter((c) => c.mark);
  const whose = s.learnerName ? `${s.learnerName}'s` : 'Your';
  return (
    <li className="py-3 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <Link to={paths.course(s.courseId)} className="font-medium text-brand-700 hover:underline">
          {s.courseTitle}
        </Link>
        <span className="text-sm text-slate-600">{formatDateRange(s.startsOn, s.endsOn)}</span>
      </div>
      {s.learnerName && <p className="text-sm font-medium text-slate-800">For {s.learnerName}</p>}
      <p className="mt-1 text-sm text-slate-700">
        Attended {s.attended} of {plural(s.total, 'class', 'classes')}
      </p>
      {marked.length > 0 && (
        <ul className="mt-2 flex flex-wrap gap-1.5" aria-label={`${whose} attendance in ${s.courseTitle}`}>
          {marked.map((c) => (
            <li key={c.classTimeId}>
              <Badge tone={MARK_TONE[c.mark!]}>
                {new Date(c.startsAt).toLocaleDateString('en-GB', { day: 'numeric', month: 'short' })}: {MARK_LABEL[c.mark!]}
              </Badge>
            </li>
          ))}
        </ul>
      )}
      {s.certificate && (
        <div className="mt-3 rounded-xl bg-slate-50 p-3">
          <p className="mb-1 flex items-center gap-1.5 text-sm font-semibold text-slate-900">
            <Award className="h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" /> Certificate of completion
          </p>
          {s.certificate.status === 'revoked' ? (
            <span className="text-sm text-slate-700">
              The educator revoked it. <Badge tone="red">Revoked</Badge>
            </span>
          ) : (
            <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
              <a
                href={certificatePdfUrl(s.certificate.code)}
                download
                className="inline-flex items-center gap-1.5 text-sm font-semibold text-brand-700 hover:underline"
              >
                <Download className="h-4 w-4" aria-hidden="true" /> Download {s.learnerName ? `${s.learnerName}'s` : 'your'} certificate
                <span className="sr-only"> for {s.courseTitle}</span> (PDF)
              </a>
              <span className="text-xs text-slate-600">
                Verification code{' '}
                <a href={certificateVerifyUrl(s.certificate.code)} className="font-mono text-slate-800 underline">
                  {s.certificate.code}
                </a>
              </span>
            </div>
          )}
        </div>
      )}
    </li>
  );
}
