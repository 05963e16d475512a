import { useMemo, useState, type FormEvent } from 'react';
import { MAX_REPEATS } from '@shared/clubs';
import { eventInput, type EventInput, type EventView } from '@shared/clubs-schemas';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Field } from '@web/components/ui/field';
import { FieldGroup, Select, TextArea } from '@web/components/ui/inputs';
import { TimeZoneSelect } from '@web/components/ui/time-zone-select';
import { isCalendarDate } from '@shared/input-schemas';
import { repeatDates, weekdayOfMonth, type RepeatRule } from '@shared/time';
import { ApiError } from '@web/lib/api';
import { addDays, formatDate, plural, todayIn, viewerTimeZone } from '@web/lib/format';

interface Values {
  title: string;
  description: string;
  date: string;
  start: string;
  endDate: string;
  end: string;
  timeZone: string;
  address: string;
  onlineUrl: string;
  capacity: string;
  deadline: string;
  repeat: '' | 'weekly' | 'monthly';
  interval: string;
  /** The repeat ends after `count` events, or on the `until` date. */
  ends: 'count' | 'until';
  count: string;
  until: string;
}

const initial = (event?: EventView): Values => {
  const zone = event?.timeZone ?? viewerTimeZone();
  return {
    title: event?.title ?? '',
    description: event?.description ?? '',
    date: event?.local.startsAt.slice(0, 10) ?? todayIn(zone),
    start: event?.local.startsAt.slice(11) ?? '19:00',
    endDate: event?.local.endsAt.slice(0, 10) ?? '',
    end: event?.local.endsAt.slice(11) ?? '21:00',
    timeZone: zone,
    address: event?.address ?? '',
    onlineUrl: event?.onlineUrl ?? '',
    capacity: event?.capacity ? String(event.capacity) : '',
    deadline: event?.local.rsvpDeadline?.replace(' ', 'T') ?? '',
    repeat: '',
    interval: '1',
    ends: 'count',
    count: '6',
    until: '',
  };
};

/** The form's values as the API's input: wall-clock times in the chosen zone, and the repeat. */
function toInput(v: Values, withRepeat: boolean): EventInput {
  const endDate = v.endDate || v.date;
  return {
    title: v.title,
    description: v.description,
    startsAt: `${v.date}T${v.start}`,
    endsAt: `${endDate}T${v.end}`,
    timeZone: v.timeZone,
    address: v.address.trim() || null,
    onlineUrl: v.onlineUrl.trim() || null,
    capacity: v.capacity.trim() ? Number(v.capacity) : null,
    rsvpDeadline: v.deadline || null,
    repeat: withRepeat ? repeatOf(v) : null,
  };
}

/** The repeat the form describes (or none). An empty number stays empty: the schema says what is missing. */
function repeatOf(v: Values): (RepeatRule & { interval: number }) | null {
  if (!v.repeat) return null;
  const interval = v.repeat === 'weekly' ? Number(v.interval) : 1;
  if (v.ends === 'until') return { frequency: v.repeat, interval, until: v.until || null, count: null };
  return { frequency: v.repeat, interval, count: v.count.trim() === '' ? null : Number(v.count), until: null };
}

/** Form fields -> API fields, for the messages. */
const FIELD: Record<string, string> = {
  startsAt: 'date',
  endsAt: 'end',
  rsvpDeadline: 'deadline',
  'repeat.count': 'count',
  'repeat.interval': 'interval',
  'repeat.until': 'until',
  repeat: 'count',
};

/**
 * An event: title, time in the organiser's zone, place, capacity, RSVP deadline, and (when
 * new) a weekly or monthly repeat that becomes separate events.
 */
export function EventForm({
  event,
  submitLabel,
  onSubmit,
}: {
  event?: EventView;
  submitLabel: string;
  onSubmit: (input: EventInput) => Promise<void>;
}) {
  const [v, setV] = useState<Values>(() => initial(event));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Values>(k: K, value: Values[K]) => {
    setV((old) => ({ ...old, [k]: value }));
    setErrors((old) => ({ ...old, [k]: '' }));
  };
  const fieldErrors = (fields: Record<string, string>) => {
    const out: Record<string, string> = {};
    for (const [k, m] of Object.entries(fields)) out[FIELD[k] ?? k] ??= m;
    return out;
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    const input = toInput(v, !event);
    const parsed = eventInput.safeParse(input);
    if (!parsed.success) {
      setErrors(fieldErrors(Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message]))));
      setFormError('Please correct the fields marked below.');
      return;
    }
    setBusy(true);
    try {
      await onSubmit(input);
    } catch (err) {
      if (err instanceof ApiError) {
        setErrors(fieldErrors(err.fields));
        setFormError(err.message);
      } else setFormError('Something went wrong. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      {formError && <Alert tone="error">{formError}</Alert>}
      <Field label="Title" value={v.title} onChange={(e) => set('title', e.target.value)} error={errors.title} maxLength={120} />
      <TextArea
        label="Description (optional, Markdown)"
        rows={4}
        value={v.description}
        onChange={(e) => set('description', e.target.value)}
        error={errors.description}
        maxLength={10000}
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="Date" type="date" value={v.date} onChange={(e) => set('date', e.target.value)} error={errors.date} />
        <Field label="Starts at" type="time" value={v.start} onChange={(e) => set('start', e.target.value)} error={errors.start} />
        <Field
          label="Ends at"
          type="time"
          value={v.end}
          onChange={(e) => set('end', e.target.value)}
          error={errors.end}
          hint={v.endDate ? undefined : 'The same day'}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Ends on (if another day)" type="date" value={v.endDate} onChange={(e) => set('endDate', e.target.value)} />
        <TimeZoneSelect
          label="Time zone"
          value={v.timeZone}
          onChange={(zone) => set('timeZone', zone)}
          error={errors.timeZone}
          hint="Times stay the same on the clock here, across summer time"
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Address"
          value={v.address}
          onChange={(e) => set('address', e.target.value)}
          error={errors.address}
          maxLength={300}
          placeholder="Street, number, city"
        />
        <Field
          label="Online link"
          type="url"
          value={v.onlineUrl}
          onChange={(e) => set('onlineUrl', e.target.value)}
          error={errors.onlineUrl}
          maxLength={500}
          placeholder="https://…"
          hint="Shown to members only"
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Capacity (optional)"
          type="number"
          min={1}
          inputMode="numeric"
          value={v.capacity}
          onChange={(e) => set('capacity', e.target.value)}
          error={errors.capacity}
          hint="Beyond it, people join a waitlist"
        />
        <Field
          label="RSVP deadline (optional)"
          type="datetime-local"
          value={v.deadline}
          onChange={(e) => set('deadline', e.target.value)}
          error={errors.deadline}
        />
      </div>
      {!event && (
        <FieldGroup legend="Repeat" hint="Each repeat is its own event: change or cancel any of them later">
          <div className="grid gap-4 sm:grid-cols-3">
            <Select label="How often" value={v.repeat} onChange={(e) => set('repeat', e.target.value as Values['repeat'])}>
              <option value="">Does not repeat</option>
              <option value="weekly">Weekly</option>
              <option value="monthly">
                {isCalendarDate(v.date)
                  ? `Monthly, on the ${weekdayOfMonth(v.date)}`
                  : 'Monthly, on the same weekday (e.g. every second Tuesday)'}
              </option>
            </Select>
            {v.repeat === 'weekly' && (
              <Select label="Every" value={v.interval} onChange={(e) => set('interval', e.target.value)} error={errors.interval}>
                {[1, 2, 3, 4].map((n) => (
                  <option key={n} value={n}>
                    {n === 1 ? 'week' : `${n} weeks`}
                  </option>
                ))}
              </Select>
            )}
            {v.repeat && (
              <Select
                label="Ends"
                value={v.ends}
                onChange={(e) => {
                  const ends = e.target.value as Values['ends'];
                  set('ends', ends);
                  // "for 6 months" by default: about half a year after the first date.
                  if (ends === 'until' && !v.until && isCalendarDate(v.date)) set('until', addDays(v.date, 182));
                }}
              >
                <option value="count">After a number of events</option>
                <option value="until">On a date</option>
              </Select>
            )}
          </div>
          {v.repeat && (
            <div className="mt-4 grid gap-4 sm:grid-cols-3">
              {v.ends === 'count' ? (
                <Field
                  label="Number of events"
                  type="number"
                  min={1}
                  max={MAX_REPEATS}
                  value={v.count}
                  onChange={(e) => set('count', e.target.value)}
                  error={errors.count}
                />
              ) : (
                <Field
                  label="Last date (included)"
                  type="date"
                  min={v.date}
                  value={v.until}
                  onChange={(e) => set('until', e.target.value)}
                  error={errors.until}
                />
              )}
            </div>
          )}
          {v.repeat && <RepeatPreview v={v} />}
        </FieldGroup>
      )}
      <div className="flex justify-end">
        <Button type="submit" loading={busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** How many preview dates are listed before "and N more". */
const PREVIEW_DATES = 8;

/** The dates the repeat will create, at the chosen wall-clock time in the chosen zone (the server computes the same). */
function RepeatPreview({ v }: { v: Values }) {
  const dates = useMemo(() => {
    const rule = repeatOf(v);
    if (!rule || !isCalendarDate(v.date)) return null;
    if (rule.until && (!isCalendarDate(rule.until) || rule.until < v.date)) return null;
    if (!rule.until && (!rule.count || !Number.isInteger(rule.count) || rule.count < 1 || rule.count > MAX_REPEATS)) return null;
    return repeatDates(v.date, rule, MAX_REPEATS + 1);
  }, [v]);
  if (!dates) return null;
  const zone = v.timeZone.replace(/_/g, ' ');
  return (
    <div className="mt-4 rounded-xl border border-slate-200 bg-slate-50 p-4" aria-live="polite" data-testid="repeat-preview">
      {dates.length > MAX_REPEATS ? (
        <p className="text-sm font-medium text-red-700">More than {MAX_REPEATS} events: choose an earlier last date.</p>
      ) : (
        <>
          <p className="text-sm font-semibold text-slate-800">
            {plural(dates.length, 'event')}, each {v.start}–{v.end} ({zone}):
          </p>
          <ol className="mt-2 grid gap-x-6 gap-y-1 text-sm text-slate-700 sm:grid-cols-2">
            {dates.slice(0, PREVIEW_DATES).map((d) => (
              <li key={d}>{formatDate(d)}</li>
            ))}
          </ol>
          {dates.length > PREVIEW_DATES && (
            <p className="mt-2 text-sm text-slate-600">
              and {plural(dates.length - PREVIEW_DATES, 'more date')}, the last on {formatDate(dates[dates.length - 1])}.
            </p>
          )}
        </>
      )}
    </div>
  );
}
