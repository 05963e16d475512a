import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useForm, useWatch, type FieldErrors, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, CalendarDays, Repeat } from 'lucide-react';
import { classTimeInput, type ClassTimeInput, type CourseView } from '@shared/courses-schemas';
import { addWeeksInZone, formatClassTime, wallTimeToUtc, dateIn } from '@shared/time';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { Button, ButtonLink } from '@web/components/ui/button';
import { PageHeader } from '@web/components/ui/card';
import { Field } from '@web/components/ui/field';
import NotFoundPage from '@web/components/not-found-page';
import { addClassTimes } from '../api/course-sessions';
import { viewerTimeZone, formatDate, formatDateRange, plural, todayIn } from '@web/lib/format';
import { ConfirmDialog } from '@web/components/ui/dialog';
import { FormSection } from '@web/components/ui/inputs';
import { Toast, useFlash } from '@web/components/ui/toast';
import { useNotEducatorRedirect } from '@web/components/educator-only';
import { CourseCrumbs, OwnedCourse } from './course-loader';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';

/** /course/:courseID/session/:sessionID/new-class-time — one class time or a weekly series. */
export default function NewClassTimePage() {
  return <OwnedCourse>{(course) => <ForSession course={course} />}</OwnedCourse>;
}

function ForSession({ course }: { course: CourseView }) {
  const { sessionID } = useParams();
  const session = course.sessions.find((s) => s.id === sessionID);
  if (!session) return <NotFoundPage />;
  return <NewClassTime course={course} session={session} />;
}

type Session = CourseView['sessions'][number];

interface Values {
  date: string;
  start: string;
  end: string;
  location: string;
  meetingUrl: string;
  repeat: boolean;
  weeks: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The wall-clock fields, read in the session's zone, as instants. */
function instants(v: Pick<Values, 'date' | 'start' | 'end'>, timeZone: string): { start: Date; end: Date } | null {
  if (!DATE.test(v.date) || !TIME.test(v.start) || !TIME.test(v.end)) return null;
  const [year, month, day] = v.date.split('-').map(Number);
  const at = (t: string) => {
    const [hour, minute] = t.split(':').map(Number);
    return wallTimeToUtc({ year, month, day, hour, minute }, timeZone);
  };
  return { start: at(v.start), end: at(v.end) };
}

const weeksOf = (v: Pick<Values, 'repeat' | 'weeks'>) => (v.repeat ? Number(v.weeks) : 1);

/** The weekly repeats that fit between the first class's date and the session's last day (2 to 52). */
function weeksUntil(date: string, endsOn: string): number {
  if (!DATE.test(date)) return 2;
  const days = (Date.parse(`${endsOn}T00:00:00Z`) - Date.parse(`${date}T00:00:00Z`)) / 86400_000;
  return Math.min(52, Math.max(2, Math.floor(days / 7) + 1));
}

function toInput(v: Values, timeZone: string, extendSession = false): ClassTimeInput | null {
  const t = instants(v, timeZone);
  if (!t) return null;
  return {
    startsAt: t.start.toISOString(),
    endsAt: t.end.toISOString(),
    location: v.location.trim() || null,
    meetingUrl: v.meetingUrl.trim() || null,
    repeatWeeks: weeksOf(v),
    extendSession,
  };
}

const zod = zodResolver(classTimeInput);
/** The API's field names -> the form's. */
const FIELD_OF: Record<string, keyof Values> = {
  startsAt: 'start',
  endsAt: 'end',
  repeatWeeks: 'weeks',
  location: 'location',
  meetingUrl: 'meetingUrl',
};

function resolverFor(timeZone: string): Resolver<Values> {
  return async (values, context, options) => {
    const errors: FieldErrors<Values> = {};
    if (!DATE.test(values.date)) errors.date = { type: 'required', message: 'Choose the date of the (first) class' };
    if (!TIME.test(values.start)) errors.start = { type: 'required', message: 'Enter the start time' };
    if (!TIME.test(values.end)) errors.end = { type: 'required', message: 'Enter the end time' };
    const weeks = weeksOf(values);
    if (values.repeat && (!Number.isInteger(weeks) || weeks < 2 || weeks > 52))
      errors.weeks = { type: 'range', message: 'Repeat for 2 to 52 weeks' };
    const input = toInput(values, timeZone);
    if (input && !errors.weeks) {
      const result = await zod(input, context, options as unknown as Parameters<typeof zod>[2]);
      for (const [key, error] of Object.entries(result.errors)) {
        const name = FIELD_OF[key];
        if (name && !errors[name] && error && 'message' in error) errors[name] = { type: 'validate', message: String(error.message) };
      }
      if (!errors.start && new Date(input.startsAt).getTime() < Date.now())
        errors.start = { type: 'past', message: 'This time has already passed: choose a future time' };
    }
    return Object.keys(errors).length ? { values: {}, errors } : { values, errors: {} };
  };
}

function NewClassTime({ course, session }: { course: CourseView; session: Session }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const notEducator = useNotEducatorRedirect();
  const [flash, setFlash] = useFlash();
  const tz = session.timeZone;
  const resolver = useMemo(() => resolverFor(tz), [tz]);
  const last = session.classTimes.at(-1);
  const defaultDate = useMemo(() => {
    // After the last class time (a week later), else the session's first day (or today if that passed).
    const today = todayIn(tz);
    const candidate = last ? dateIn(addWeeksInZone(new Date(last.startsAt), 1, tz), tz) : session.startsOn;
    return candidate >= today ? candidate : today;
  }, [tz, last, session.startsOn]);
  const lastTime = (iso: string | undefined) =>
    iso
      ? new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso))
      : null;

  const { register, control, handleSubmit, formState, setError, setValue, getFieldState } = useForm<Values>({
    resolver,
    mode: 'onTouched',
    defaultValues: {
      date: defaultDate,
      start: lastTime(last?.startsAt) ?? '18:00',
      end: lastTime(last?.endsAt) ?? '19:30',
      location: last?.location ?? (course.format === 'in_person' ? [course.address, course.city].filter(Boolean).join(', ') : ''),
      meetingUrl: last?.meetingUrl ?? '',
      repeat: false,
      // Weekly repeats default to the session's dates (from the first class to its last day).
      weeks: String(weeksUntil(defaultDate, session.endsOn)),
    },
  });
  const [status, setStatus] = useState<string | null>(null);
  const e = formState.errors;
  const [date, start, end, repeat, weeks] = useWatch({ control, name: ['date', 'start', 'end', 'repeat', 'weeks'] });
  const closed = session.status === 'cancelled' || session.status === 'completed';
  // Until the educator types a number of weeks, it follows the date: the series ends with the session.
  useEffect(() => {
    if (repeat && !getFieldState('weeks').isDirty) setValue('weeks', String(weeksUntil(date, session.endsOn)));
  }, [date, repeat, session.endsOn, getFieldState, setValue]);
  // A series that ends after the session's last day: asked before it is sent (the API refuses it unconfirmed).
  const [confirmExtend, setConfirmExtend] = useState<{ values: Values; lastDay: string } | null>(null);

  // The clock for the "In the past" marks: read outside render (render stays pure), refreshed while the page is open.
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);

  // The dates the series will have, as the server computes them (same wall-clock time each week).
  const preview = useMemo(() => {
    const t = instants({ date, start, end }, tz);
    const n = weeksOf({ repeat, weeks });
    if (!t || t.end <= t.start || !Number.isInteger(n) || n < 1 || n > 52) return [];
    return Array.from({ length: n }, (_, k) => {
      const from = addWeeksInZone(t.start, k, tz);
      const to = addWeeksInZone(t.end, k, tz);
      const clash = session.classTimes.find((c) => new Date(c.startsAt) < to && new Date(c.endsAt) > from);
      return {
        start: from,
        end: to,
        label: formatClassTime(from.toISOString(), to.toISOString(), tz),
        clash: clash ? formatClassTime(clash.startsAt, clash.endsAt, tz) : null,
        past: from.getTime() < now,
      };
    });
  }, [date, start, end, repeat, weeks, tz, session.classTimes, now]);
  const clashes = preview.filter((p) => p.clash);
  const weekday = preview[0] ? new Intl.DateTimeFormat('en-GB', { timeZone: tz, weekday: 'long' }).format(preview[0].start) : null;

  const save = async (values: Values, extendSession: boolean) => {
    setStatus(null);
    const input = toInput(values, tz, extendSession);
    if (!input) return;
    try {
      const { ids } = await addClassTimes(course.id, session.id, input);
      await queryClient.invalidateQueries({ queryKey: queryKeys.course(course.id) });
      navigate(paths.editCourse(course.id), {
        state: { flash: { text: ids.length === 1 ? 'Class time added' : `${ids.length} class times added` } },
      });
    } catch (err) {
      if (notEducator(err)) return;
      if (err instanceof ApiError) {
        let first = true;
        for (const [k, message] of Object.entries(err.fields)) {
          const name = FIELD_OF[k];
          if (name) setError(name, { type: 'server', message }, { shouldFocus: first });
          if (name) first = false;
        }
        setStatus(err.message);
      } else setStatus('The class time could not be saved. Please try again.');
    }
  };
  const onSubmit = handleSubmit(async (values) => {
    const lastDay = preview.length ? dateIn(preview[preview.length - 1].end, tz) : null;
    if (lastDay && lastDay > session.endsOn) return setConfirmExtend({ values, lastDay });
    await save(values, false);
  });

  const online = course.format === 'online';
  return (
    <div className="mx-auto max-w-3xl">
      <CourseCrumbs course={course} here="New class time" />
      <PageHeader
        title="Add class times"
        subtitle={
          <>
            Session {formatDateRange(session.startsOn, session.endsOn)} · times in{' '}
            <strong className="font-semibold text-slate-800">{tz}</strong>
          </>
        }
      />
      {closed ? (
        <Alert tone="error" title="This session is closed">
          Class times can only be added to an open session.
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate className="space-y-6">
          {status && (
            <Alert tone="error" title="The class times were not saved">
              {status}
            </Alert>
          )}
          <FormSection
            title="When"
            description={
              <>
                Enter the wall-clock time in <strong className="font-semibold">{tz}</strong>
                {tz !== viewerTimeZone() ? ` (you are in ${viewerTimeZone()})` : ''}.
              </>
            }
          >
            <div className="grid gap-5 sm:grid-cols-3">
              <Field label="Date" type="date" error={e.date?.message} {...register('date')} />
              <Field label="Start time" type="time" step={300} error={e.start?.message} {...register('start')} />
              <Field label="End time" type="time" step={300} error={e.end?.message} {...register('end')} />
            </div>
            <div className="rounded-xl border border-slate-200 p-4">
              <label className="flex items-center gap-3 text-sm font-medium text-slate-800">
                <input type="checkbox" className="h-4 w-4 accent-brand-700" {...register('repeat')} />
                <Repeat className="h-4 w-4 text-slate-500" aria-hidden="true" />
                Repeat weekly
              </label>
              {repeat && (
                <div className="mt-4 flex flex-wrap items-end gap-3">
                  <Field
                    label="Number of weeks"
                    type="number"
                    min={2}
                    max={52}
                    inputMode="numeric"
                    className="w-40"
                    hint={`The session ends on ${formatDate(session.endsOn)}`}
                    error={e.weeks?.message}
                    {...register('weeks')}
                  />
                  {weekday && preview.length > 1 && (
                    <p className="pb-2.5 text-sm text-slate-700">
                      Every {weekday}, {start} – {end}, for {preview.length} weeks
                    </p>
                  )}
                </div>
              )}
            </div>
          </FormSection>

          <FormSection
            title="Where"
            description={online ? 'Enrolled learners see the meeting link; others do not.' : 'Where learners meet you.'}
          >
            {online ? (
              <>
                <Field
                  label="Meeting link"
                  type="url"
                  placeholder="https://meet.example.com/your-room"
                  error={e.meetingUrl?.message}
                  {...register('meetingUrl')}
                />
                <Field
                  label="Location (optional)"
                  placeholder="e.g. Bring a sketchbook"
                  hint="A note on where or how, if useful."
                  error={e.location?.message}
                  {...register('location')}
                />
              </>
            ) : (
              <>
                <Field
                  label="Location"
                  placeholder="e.g. Community hall, 12 High Street, room 3"
                  error={e.location?.message}
                  {...register('location')}
                />
                <Field
                  label="Meeting link (optional)"
                  type="url"
                  placeholder="https://…"
                  error={e.meetingUrl?.message}
                  {...register('meetingUrl')}
                />
              </>
            )}
          </FormSection>

          <section aria-labelledby="preview-heading" className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
            <h2 id="preview-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
              <CalendarDays className="h-5 w-5 text-brand-700" aria-hidden="true" />{' '}
              {preview.length > 1 ? `${preview.length} class times will be added` : 'Preview'}
            </h2>
            {preview.length === 0 ? (
              <p className="mt-2 text-sm text-slate-600">
                Enter a date, a start time and a later end time to see the class {repeat ? 'times' : 'time'} here.
              </p>
            ) : (
              <ol className="mt-3 divide-y divide-slate-100" aria-label="Class times to add">
                {preview.map((p) => (
                  <li key={p.start.toISOString()} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2 text-sm">
                    <span className={p.clash || p.past ? 'font-medium text-red-800' : 'font-medium text-slate-900'}>{p.label}</span>
                    {p.clash && (
                      <span className="flex items-center gap-1 text-xs font-medium text-red-700">
                        <AlertTriangle className="h-3.5 w-3.5" aria-hidden="true" /> Overlaps {p.clash}
                      </span>
                    )}
                    {!p.clash && p.past && <span className="text-xs font-medium text-red-700">In the past</span>}
                  </li>
                ))}
              </ol>
            )}
            {clashes.length > 0 && (
              <div className="mt-3">
                <Alert tone="error">
                  {plural(clashes.length, 'class time')} of this series {clashes.length === 1 ? 'overlaps' : 'overlap'} existing class times
                  of the session. Change the date or time: class times of a session may not overlap.
                </Alert>
              </div>
            )}
            {session.classTimes.length > 0 && (
              <p className="mt-3 text-xs text-slate-600">
                This session already has {plural(session.classTimes.length, 'class time')}, the last on{' '}
                {formatClassTime(session.classTimes.at(-1)!.startsAt, session.classTimes.at(-1)!.endsAt, tz)}.
              </p>
            )}
          </section>

          <div className="flex flex-wrap justify-end gap-2">
            <ButtonLink to={paths.editCourse(course.id)} variant="secondary">
              Cancel
            </ButtonLink>
            <Button type="submit" loading={formState.isSubmitting}>
              {preview.length > 1 ? `Add ${preview.length} class times` : 'Add class time'}
            </Button>
          </div>
        </form>
      )}
      <ConfirmDialog
        open={!!confirmExtend}
        title="Extend the session?"
        tone="primary"
        confirmLabel={confirmExtend ? `Extend to ${formatDate(confirmExtend.lastDay)}` : 'Extend'}
        cancelLabel="Keep its dates"
        busy={formState.isSubmitting}
        onConfirm={() => {
          const pending = confirmExtend!;
          setConfirmExtend(null);
          void save(pending.values, true);
        }}
        onClose={() => setConfirmExtend(null)}
      >
        <p>
          The session ends on {formatDate(session.endsOn)}. These class times go on until{' '}
          {confirmExtend ? formatDate(confirmExtend.lastDay) : ''}: adding them moves the session&apos;s last day, which learners see on the
          course page. Keep its dates to choose fewer weeks instead.
        </p>
      </ConfirmDialog>
      <Toast flash={flash} onClose={() => setFlash(null)} />
    </div>
  );
}
