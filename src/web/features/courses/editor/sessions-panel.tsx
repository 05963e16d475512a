import { useState } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { CalendarClock, CalendarPlus, Clock, Globe2, Plus, Trash2, Users } from 'lucide-react';
import type { CourseView } from '@shared/courses-schemas';
import { formatClassTime, wallTimeIn, wallTimeToUtc } from '@shared/time';
import { ApiError } from '@web/lib/api';
import { ButtonLink } from '@web/components/ui/button';
import { ClassTimePlace } from '@web/components/class-time-details';
import { deleteClassTime, moveClassTime, updateSession } from '../api/course-sessions';
import { Field } from '@web/components/ui/field';
import { Badge } from '@web/components/ui/badge';
import { ConfirmDialog } from '@web/components/ui/dialog';
import { type Flash } from '@web/components/ui/toast';
import { formatDateRange, plural } from '@web/lib/format';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';

type Session = CourseView['sessions'][number];
type ClassTime = Session['classTimes'][number];

export const SESSION_STATUS: Record<Session['status'], { label: string; tone: 'green' | 'amber' | 'brand' | 'slate' | 'red' }> = {
  scheduled: { label: 'Open', tone: 'green' },
  full: { label: 'Full', tone: 'amber' },
  running: { label: 'In progress', tone: 'brand' },
  completed: { label: 'Ended', tone: 'slate' },
  cancelled: { label: 'Cancelled', tone: 'red' },
};

/** The course's sessions with their class times, seats, and the educator's actions. */
export function SessionsPanel({ course, highlight, onFlash }: { course: CourseView; highlight?: boolean; onFlash: (f: Flash) => void }) {
  const sessions = course.sessions;
  return (
    <section
      aria-labelledby="sessions-heading"
      className={`rounded-2xl border bg-white p-4 shadow-sm sm:p-6 ${highlight ? 'border-brand-500 ring-2 ring-brand-100' : 'border-slate-200'}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="sessions-heading" className="text-lg font-semibold text-slate-900">
            Sessions
          </h2>
          <p className="mt-0.5 text-sm text-slate-600">Each session is one run of the course, with its own dates, seats and class times.</p>
        </div>
        <ButtonLink to={paths.newSession(course.id)} variant={sessions.length ? 'secondary' : 'primary'}>
          <Plus className="h-4 w-4" aria-hidden="true" /> Add session
        </ButtonLink>
      </div>
      {sessions.length === 0 ? (
        <div className="mt-5 rounded-xl border border-dashed border-slate-300 p-6 text-center">
          <CalendarPlus className="mx-auto h-8 w-8 text-brand-700" aria-hidden="true" />
          <p className="mt-2 font-semibold text-slate-900">No sessions yet</p>
          <p className="mt-1 text-sm text-slate-600">
            Add a session (dates, seats, time zone), then its class times. A course needs a session before it can be published.
          </p>
        </div>
      ) : (
        <ul className="mt-5 space-y-4" aria-label="Sessions">
          {sessions.map((s) => (
            <SessionItem key={s.id} courseId={course.id} session={s} onFlash={onFlash} />
          ))}
        </ul>
      )}
    </section>
  );
}

function SessionItem({ courseId, session, onFlash }: { courseId: string; session: Session; onFlash: (f: Flash) => void }) {
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const status = SESSION_STATUS[session.status];
  const dates = formatDateRange(session.startsOn, session.endsOn);
  const closed = session.status === 'cancelled' || session.status === 'completed';
  const filled = session.capacity ? Math.min(1, session.seatsTaken / session.capacity) : 0;

  async function cancel() {
    setBusy(true);
    setError(null);
    try {
      const { message } = await updateSession(courseId, session.id, { status: 'cancelled' });
      await queryClient.invalidateQueries({ queryKey: queryKeys.course(courseId) });
      setConfirm(false);
      // The server says "Session saved" when nobody was enrolled; name what happened.
      const n = Number(/(\d+) learners? (?:were|was) unenrolled/.exec(message)?.[1] ?? 0);
      onFlash({ text: n ? `Session cancelled: ${plural(n, 'learner')} unenrolled` : 'Session cancelled' });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The session could not be cancelled');
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className={`rounded-xl border p-4 ${closed ? 'border-slate-200 bg-slate-50' : 'border-slate-200'}`} aria-label={`Session ${dates}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-semibold text-slate-900">{dates}</h3>
            <Badge tone={status.tone}>{status.label}</Badge>
          </div>
          <p className="mt-1 flex items-center gap-1.5 text-sm text-slate-600">
            <Globe2 className="h-4 w-4 shrink-0" aria-hidden="true" /> Times in {session.timeZone}
          </p>
        </div>
        {!closed && (
          <div className="flex flex-wrap gap-2">
            <ButtonLink to={paths.newClassTime(courseId, session.id)} variant="secondary" className="!px-3 !py-2">
              <Clock className="h-4 w-4" aria-hidden="true" /> Add class times
            </ButtonLink>
            <button
              type="button"
              onClick={() => setConfirm(true)}
              className="rounded-lg px-3 py-2 text-sm font-semibold text-red-700 hover:bg-red-50"
            >
              Cancel session
            </button>
          </div>
        )}
      </div>

      <div className="mt-3 grid gap-3 sm:grid-cols-3">
        <div className="sm:col-span-2">
          <p className="flex items-center gap-1.5 text-sm text-slate-800">
            <Users className="h-4 w-4 shrink-0 text-slate-500" aria-hidden="true" />
            <span>
              <span className="font-semibold">
                {session.seatsTaken} / {session.capacity}
              </span>{' '}
              seats taken
            </span>
            {session.waitlisted > 0 && <span className="text-slate-600">· {session.waitlisted} waitlisted</span>}
          </p>
          <div className="mt-1.5 h-1.5 max-w-xs overflow-hidden rounded-full bg-slate-200" aria-hidden="true">
            <div className={`h-full rounded-full ${filled >= 1 ? 'bg-amber-500' : 'bg-brand-600'}`} style={{ width: `${filled * 100}%` }} />
          </div>
        </div>
        <p className="text-sm text-slate-600">
          Runs with at least {plural(session.minToRun, 'learner')}
          {!closed && session.seatsTaken < session.minToRun && (
            <span className="block text-xs text-amber-800">{plural(session.minToRun - session.seatsTaken, 'more learner')} needed</span>
          )}
        </p>
      </div>

      <div className="mt-4">
        <h4 className="text-sm font-semibold text-slate-800">Class times</h4>
        {session.classTimes.length === 0 ? (
          <p className="mt-1 text-sm text-slate-600">
            No class times yet.{' '}
            {!closed && (
              <>
                Add when the class meets, e.g.{' '}
                <Link to={paths.newClassTime(courseId, session.id)} className="font-semibold text-brand-700 hover:underline">
                  every Tuesday at 18:00
                </Link>
                .
              </>
            )}
          </p>
        ) : (
          <ClassTimes courseId={courseId} session={session} closed={closed} onFlash={onFlash} />
        )}
      </div>

      <ConfirmDialog
        open={confirm}
        title="Cancel this session?"
        confirmLabel="Cancel session"
        busy={busy}
        error={error}
        onConfirm={() => void cancel()}
        onClose={() => {
          setConfirm(false);
          setError(null);
        }}
      >
        <p>
          The session of <strong>{dates}</strong> will be cancelled and cannot be reopened.
        </p>
        {session.seatsTaken + session.waitlisted > 0 ? (
          <p className="mt-2">{plural(session.seatsTaken + session.waitlisted, 'learner')} enrolled or waiting will be unenrolled.</p>
        ) : (
          <p className="mt-2">Nobody has enrolled yet.</p>
        )}
      </ConfirmDialog>
    </li>
  );
}

const FOLD = 6;

function ClassTimes({
  courseId,
  session,
  closed,
  onFlash,
}: {
  courseId: string;
  session: Session;
  closed: boolean;
  onFlash: (f: Flash) => void;
}) {
  const [all, setAll] = useState(false);
  const times = all ? session.classTimes : session.classTimes.slice(0, FOLD);
  return (
    <>
      <ul
        className="mt-1 divide-y divide-slate-100"
        aria-label={`Class times of the session ${formatDateRange(session.startsOn, session.endsOn)}`}
      >
        {times.map((t) => (
          <ClassTimeRow key={t.id} courseId={courseId} session={session} t={t} closed={closed} onFlash={onFlash} />
        ))}
      </ul>
      {session.classTimes.length > FOLD && (
        <button
          type="button"
          className="mt-1 text-sm font-semibold text-brand-700 hover:underline"
          aria-expanded={all}
          onClick={() => setAll((a) => !a)}
        >
          {all ? 'Show fewer' : `Show all ${session.classTimes.length} class times`}
        </button>
      )}
    </>
  );
}

function ClassTimeRow({
  courseId,
  session,
  t,
  closed,
  onFlash,
}: {
  courseId: string;
  session: Session;
  t: ClassTime;
  closed: boolean;
  onFlash: (f: Flash) => void;
}) {
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const label = formatClassTime(t.startsAt, t.endsAt, session.timeZone);
  // Read the clock once, when the row mounts (render must stay pure); a reload or refetch re-mounts it.
  const [now] = useState(Date.now);
  const past = new Date(t.endsAt).getTime() < now;

  async function remove() {
    setBusy(true);
    setError(null);
    try {
      await deleteClassTime(courseId, session.id, t.id);
      await queryClient.invalidateQueries({ queryKey: queryKeys.course(courseId) });
      setConfirm(false);
      onFlash({ text: 'Class time removed' });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The class time could not be removed');
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="flex items-start gap-3 py-2 text-sm">
      <Clock className="mt-0.5 h-4 w-4 shrink-0 text-slate-500" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className={`font-medium ${past ? 'text-slate-500' : 'text-slate-900'}`}>
          {label}
          {past && ' · past'}
        </p>
        <ClassTimePlace classTime={t} link="url" />
      </div>
      {!closed && !past && <MoveClassTime courseId={courseId} session={session} t={t} label={label} onFlash={onFlash} />}
      {!closed && !past && (
        <button
          type="button"
          onClick={() => setConfirm(true)}
          className="rounded-md p-1.5 text-slate-500 hover:bg-red-50 hover:text-red-700"
          aria-label={`Remove the class time ${label}`}
        >
          <Trash2 className="h-4 w-4" aria-hidden="true" />
        </button>
      )}
      <ConfirmDialog
        open={confirm}
        title="Remove this class time?"
        confirmLabel="Remove"
        busy={busy}
        error={error}
        onConfirm={() => void remove()}
        onClose={() => {
          setConfirm(false);
          setError(null);
        }}
      >
        <p>{label}</p>
        <p className="mt-2">Enrolled learners will no longer see it in their calendar.</p>
      </ConfirmDialog>
    </li>
  );
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Moves a class time to another day or hour (in the session's zone), keeping its length (ADR 0068). */
function MoveClassTime({
  courseId,
  session,
  t,
  label,
  onFlash,
}: {
  courseId: string;
  session: Session;
  t: ClassTime;
  label: string;
  onFlash: (f: Flash) => void;
}) {
  const queryClient = useQueryClient();
  const wall = wallTimeIn(new Date(t.startsAt), session.timeZone);
  const [open, setOpen] = useState(false);
  const [date, setDate] = useState(`${wall.year}-${pad(wall.month)}-${pad(wall.day)}`);
  const [time, setTime] = useState(`${pad(wall.hour)}:${pad(wall.minute)}`);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function move() {
    const [year, month, day] = date.split('-').map(Number);
    const [hour, minute] = time.split(':').map(Number);
    if (!year || !month || !day || Number.isNaN(hour) || Number.isNaN(minute)) {
      setError('Choose a date and a start time');
      return;
    }
    const start = wallTimeToUtc({ year, month, day, hour, minute }, session.timeZone);
    const length = new Date(t.endsAt).getTime() - new Date(t.startsAt).getTime();
    setBusy(true);
    setError(null);
    try {
      const { message } = await moveClassTime(courseId, session.id, t.id, {
        startsAt: start.toISOString(),
        endsAt: new Date(start.getTime() + length).toISOString(),
      });
      await queryClient.invalidateQueries({ queryKey: queryKeys.course(courseId) });
      setOpen(false);
      onFlash({ text: message });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The class time could not be moved');
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="rounded-md p-1.5 text-slate-500 hover:bg-brand-50 hover:text-brand-700"
        aria-label={`Move the class time ${label}`}
      >
        <CalendarClock className="h-4 w-4" aria-hidden="true" />
      </button>
      <ConfirmDialog
        open={open}
        title="Move this class time"
        confirmLabel="Move"
        cancelLabel="Cancel"
        tone="primary"
        busy={busy}
        error={error}
        onConfirm={() => void move()}
        onClose={() => {
          setOpen(false);
          setError(null);
        }}
      >
        <p>{label}</p>
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          <Field label="New date" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
          <Field label={`New start (${session.timeZone})`} type="time" step={300} value={time} onChange={(e) => setTime(e.target.value)} />
        </div>
        <p className="mt-2">It keeps its length. Enrolled learners get the new time in their calendar, and their reminders follow it.</p>
      </ConfirmDialog>
    </>
  );
}
