import { useCallback, useMemo, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertCircle, Award, Check, ChevronLeft, Clock, Loader2, X } from 'lucide-react';
import type { AttendanceMarkValue, SessionAttendance } from '@shared/attendance-schemas';
import { ApiError, isNotFound } from '@web/lib/api';
import { formatDateRange, formatTimeRange, plural } from '@web/lib/format';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';
import NotFoundPage from '@web/components/not-found-page';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { ConfirmDialog } from '@web/components/ui/dialog';
import { LoadError } from '@web/components/ui/load-error';
import { Skeleton } from '@web/components/ui/skeleton';
import { putMark, revokeCertificate, sessionAttendanceQuery } from './api/attendance';

/**
 * /course/:courseID/session/:sessionID/attendance — the educator takes attendance in the
 * room, on a phone: one class time at a time, one tap per learner (present, late, absent),
 * each tap saved at once with its own saved / not saved mark (issue 25).
 */
export default function AttendancePage() {
  const { courseID = '', sessionID = '' } = useParams();
  const { data, error, refetch, isPending, isRefetching } = useQuery(sessionAttendanceQuery(courseID, sessionID));
  if (isPending) {
    return (
      <div role="status" aria-label="Loading the attendance sheet" className="mx-auto max-w-2xl space-y-3">
        <Skeleton className="h-8 w-2/3" />
        <Skeleton className="h-12 w-full rounded-xl" />
        <Skeleton className="h-20 w-full rounded-2xl" />
        <Skeleton className="h-20 w-full rounded-2xl" />
      </div>
    );
  }
  if (error || !data) {
    // Another educator's session is as absent as an unknown one.
    if (isNotFound(error) || (error instanceof ApiError && error.status === 403)) return <NotFoundPage />;
    return (
      <LoadError
        title="The attendance sheet could not be loaded"
        error={error}
        onRetry={() => void refetch()}
        retrying={isRefetching}
        className="mx-auto max-w-xl space-y-3"
      />
    );
  }
  return <Sheet data={data} />;
}

const MARKS: { value: AttendanceMarkValue; label: string; icon: typeof Check; on: string }[] = [
  { value: 'present', label: 'Present', icon: Check, on: 'bg-emerald-700 text-white border-emerald-700' },
  { value: 'late', label: 'Late', icon: Clock, on: 'bg-amber-500 text-slate-950 border-amber-500' },
  { value: 'absent', label: 'Absent', icon: X, on: 'bg-red-700 text-white border-red-700' },
];

type SaveState = 'saving' | 'saved' | 'failed';
interface Local {
  mark: AttendanceMarkValue;
  state: SaveState;
}

/** The class time to open on: the one under way or the last that started, else the first. */
function defaultClassTime(times: SessionAttendance['classTimes']): string | null {
  const now = Date.now();
  const started = times.filter((t) => new Date(t.startsAt).getTime() - 30 * 60_000 <= now);
  return (started.at(-1) ?? times[0])?.id ?? null;
}

function Sheet({ data }: { data: SessionAttendance }) {
  const zone = data.session.timeZone;
  const [selected, setSelected] = useState<string | null>(() => defaultClassTime(data.classTimes));
  const [local, setLocal] = useState<Record<string, Local>>({});
  // One request at a time per learner and class time, in tap order: the last tap is the one stored.
  const chains = useRef(new Map<string, Promise<unknown>>());
  const taps = useRef(new Map<string, number>());
  const queryClient = useQueryClient();

  const stored = useMemo(() => new Map(data.marks.map((m) => [`${m.classTimeId}:${m.learnerId}`, m.mark])), [data.marks]);
  const markOf = (key: string): AttendanceMarkValue | null => local[key]?.mark ?? stored.get(key) ?? null;

  const tap = useCallback(
    (classTimeId: string, learnerId: string, mark: AttendanceMarkValue) => {
      const key = `${classTimeId}:${learnerId}`;
      const n = (taps.current.get(key) ?? 0) + 1;
      taps.current.set(key, n);
      setLocal((l) => ({ ...l, [key]: { mark, state: 'saving' } }));
      const previous = chains.current.get(key) ?? Promise.resolve();
      const next = previous
        .catch(() => undefined)
        .then(() => putMark({ courseId: data.course.id, sessionId: data.session.id, classTimeId, learnerId }, mark))
        .then(
          () => {
            if (taps.current.get(key) === n) setLocal((l) => ({ ...l, [key]: { mark, state: 'saved' } }));
            // A mark after the last class may have issued a certificate: the sheet shows it.
            if (data.session.ended)
              void queryClient.invalidateQueries({ queryKey: queryKeys.sessionAttendance(data.course.id, data.session.id) });
          },
          () => {
            if (taps.current.get(key) === n) setLocal((l) => ({ ...l, [key]: { mark, state: 'failed' } }));
          },
        );
      chains.current.set(key, next);
    },
    [data.course.id, data.session.id, data.session.ended, queryClient],
  );

  const time = data.classTimes.find((t) => t.id === selected) ?? null;
  const counts = useMemo(() => {
    const c = { present: 0, late: 0, absent: 0, none: 0 };
    if (!time) return c;
    for (const l of data.learners) {
      const m = markOf(`${time.id}:${l.id}`);
      c[m ?? 'none']++;
    }
    return c;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [time, data.learners, local, stored]);

  return (
    <div className="mx-auto max-w-2xl">
      <Link
        to={paths.courseRoster(data.course.id)}
        className="mb-3 inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:text-brand-800"
      >
        <ChevronLeft className="h-4 w-4" aria-hidden="true" /> Roster
      </Link>
      <h1 className="text-2xl font-bold text-slate-900">Attendance</h1>
      <p className="mt-1 text-sm text-slate-600">
        <span className="font-medium text-slate-800">{data.course.title}</span> ·{' '}
        {formatDateRange(data.session.startsOn, data.session.endsOn)}
      </p>

      {data.classTimes.length === 0 ? (
        <Empty text="This session has no class times yet: add one to take attendance." />
      ) : (
        <>
          <div className="mt-5">
            <label htmlFor="class-time" className="mb-1 block text-sm font-medium text-slate-800">
              Class
            </label>
            <select
              id="class-time"
              value={selected ?? ''}
              onChange={(e) => setSelected(e.target.value)}
              className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-3 text-base text-slate-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
            >
              {data.classTimes.map((t, i) => (
                <option key={t.id} value={t.id}>
                  Class {i + 1}: {classDay(t.startsAt, zone)}, {formatTimeRange(t.startsAt, t.endsAt, zone)}
                </option>
              ))}
            </select>
          </div>

          {data.learners.length === 0 ? (
            <Empty text="Nobody holds a seat in this session yet, so there is nobody to mark." />
          ) : time ? (
            <>
              <p className="mt-4 text-sm text-slate-700" aria-live="polite">
                {counts.present} present · {counts.late} late · {counts.absent} absent
                {counts.none ? ` · ${counts.none} not marked` : ''}
              </p>
              <ul className="mt-3 space-y-3" aria-label="Learners">
                {data.learners.map((l) => {
                  const key = `${time.id}:${l.id}`;
                  return (
                    <LearnerRow
                      key={key}
                      name={l.name}
                      contactName={l.contactName}
                      mark={markOf(key)}
                      state={local[key]?.state ?? null}
                      onMark={(m) => tap(time.id, l.id, m)}
                    />
                  );
                })}
              </ul>
            </>
          ) : null}
        </>
      )}

      <Certificates data={data} />
    </div>
  );
}

const classDay = (iso: string, zone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'short', day: 'numeric', month: 'short' }).format(new Date(iso));

function LearnerRow({
  name,
  contactName,
  mark,
  state,
  onMark,
}: {
  name: string;
  /** The account holder of a learner profile's seat (family accounts): who to contact about them. */
  contactName: string | null;
  mark: AttendanceMarkValue | null;
  state: SaveState | null;
  onMark: (m: AttendanceMarkValue) => void;
}) {
  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-3 shadow-sm">
      <div className="mb-2 flex items-center justify-between gap-2">
        <p className="min-w-0 truncate font-medium text-slate-900">
          {name}
          {contactName && <span className="ml-1.5 text-sm font-normal text-slate-600">· contact {contactName}</span>}
        </p>
        <SaveMark state={state} onRetry={mark ? () => onMark(mark) : undefined} />
      </div>
      <div role="group" aria-label={`Attendance of ${name}`} className="grid grid-cols-3 gap-2">
        {MARKS.map((m) => {
          const on = mark === m.value;
          const Icon = m.icon;
          return (
            <button
              key={m.value}
              type="button"
              aria-pressed={on}
              onClick={() => onMark(m.value)}
              className={`inline-flex min-h-11 items-center justify-center gap-1.5 rounded-lg border px-2 text-sm font-semibold transition focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-1 ${
                on ? m.on : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50'
              }`}
            >
              <Icon className="h-4 w-4" aria-hidden="true" />
              {m.label}
            </button>
          );
        })}
      </div>
    </li>
  );
}

/** Saved / saving / not saved, beside each learner (the tap shows at once; this says whether it stuck). */
function SaveMark({ state, onRetry }: { state: SaveState | null; onRetry?: () => void }) {
  if (state === 'saving')
    return (
      <span className="inline-flex items-center gap-1 text-xs text-slate-600" role="status">
        <Loader2 className="h-3.5 w-3.5 animate-spin" aria-hidden="true" /> Saving…
      </span>
    );
  if (state === 'saved')
    return (
      <span className="inline-flex items-center gap-1 text-xs text-emerald-800" role="status">
        <Check className="h-3.5 w-3.5" aria-hidden="true" /> Saved
      </span>
    );
  if (state === 'failed')
    return (
      <span className="inline-flex items-center gap-2 text-xs text-red-800" role="alert">
        <AlertCircle className="h-3.5 w-3.5" aria-hidden="true" /> Not saved
        {onRetry && (
          <button type="button" onClick={onRetry} className="font-semibold underline">
            Retry
          </button>
        )}
      </span>
    );
  return null;
}

function Certificates({ data }: { data: SessionAttendance }) {
  const queryClient = useQueryClient();
  const [revoking, setRevoking] = useState<{ code: string; name: string } | null>(null);
  const revoke = useMutation({
    mutationFn: (code: string) => revokeCertificate(code),
    onSuccess: async () => {
      setRevoking(null);
      await queryClient.invalidateQueries({ queryKey: queryKeys.sessionAttendance(data.course.id, data.session.id) });
    },
  });
  const issued = data.learners.filter((l) => l.certificate);
  return (
    <section aria-labelledby="certificates" className="mt-8 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="certificates" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <Award className="h-5 w-5 text-brand-700" aria-hidden="true" /> Certificates
      </h2>
      {data.certificateMinPercent === null ? (
        <p className="mt-2 text-sm text-slate-600">
          This course issues no certificate.{' '}
          <Link to={paths.editCourse(data.course.id)} className="font-medium text-brand-700 underline">
            Set one up in the course editor
          </Link>
          .
        </p>
      ) : (
        <>
          <p className="mt-2 text-sm text-slate-600">
            Issued after the last class to learners who attended at least {data.certificateMinPercent} % of the{' '}
            {plural(data.classTimes.length, 'class', 'classes')}.{!data.session.ended && ' This session has not ended yet.'}
          </p>
          {issued.length > 0 && (
            <ul className="mt-3 divide-y divide-slate-100" aria-label="Certificates issued">
              {issued.map((l) => (
                <li key={l.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <span className="min-w-0">
                    <span className="font-medium text-slate-900">{l.name}</span>{' '}
                    <span className="font-mono text-xs text-slate-600">{l.certificate!.code}</span>
                  </span>
                  {l.certificate!.status === 'revoked' ? (
                    <Badge tone="red">Revoked</Badge>
                  ) : (
                    <Button
                      variant="secondary"
                      className="!px-3 !py-1.5"
                      onClick={() => setRevoking({ code: l.certificate!.code, name: l.name })}
                    >
                      Revoke
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )}
          {data.session.ended && issued.length === 0 && <p className="mt-2 text-sm text-slate-600">No learner has met the share yet.</p>}
        </>
      )}
      <ConfirmDialog
        open={!!revoking}
        title="Revoke this certificate?"
        confirmLabel="Revoke certificate"
        busy={revoke.isPending}
        error={revoke.error instanceof ApiError ? revoke.error.message : revoke.error ? 'It could not be revoked. Please try again.' : null}
        onConfirm={() => revoking && revoke.mutate(revoking.code)}
        onClose={() => setRevoking(null)}
      >
        Anyone who checks the certificate of {revoking?.name} will see it was revoked. This cannot be undone.
      </ConfirmDialog>
    </section>
  );
}

function Empty({ text }: { text: string }) {
  return <div className="mt-5 rounded-xl border border-dashed border-slate-300 p-5 text-center text-sm text-slate-600">{text}</div>;
}
