/** Time-zone arithmetic without a library: wall-clock time in a zone <-> UTC instants. */

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock time an instant shows in a zone. */
export function wallTimeIn(instant: Date, timeZone: string): WallTime {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return { year: +parts.year, month: +parts.month, day: +parts.day, hour: +parts.hour % 24, minute: +parts.minute };
}

/** The calendar date (YYYY-MM-DD) an instant falls on in a zone: "today" there. */
export function dateIn(instant: Date, timeZone: string): string {
  const w = wallTimeIn(instant, timeZone);
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

/** The instant at which a zone's clocks show this wall-clock time (DST-correct). */
export function wallTimeToUtc(w: WallTime, timeZone: string): Date {
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  let guess = asUtc;
  for (let i = 0; i < 3; i++) {
    const shown = wallTimeIn(new Date(guess), timeZone);
    const shownUtc = Date.UTC(shown.year, shown.month - 1, shown.day, shown.hour, shown.minute);
    const diff = asUtc - shownUtc;
    if (diff === 0) break;
    guess += diff;
  }
  return new Date(guess);
}

/** The same wall-clock time `weeks` weeks later in the zone ("every Tuesday 18:00"). */
export function addWeeksInZone(instant: Date, weeks: number, timeZone: string): Date {
  const w = wallTimeIn(instant, timeZone);
  const shifted = new Date(Date.UTC(w.year, w.month - 1, w.day + 7 * weeks));
  return wallTimeToUtc({ ...w, year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() }, timeZone);
}

/** "Tue 3 Mar, 18:00 (Europe/London)": an instant in a zone. */
export function formatInstant(at: string, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short' }).format(new Date(at));
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' }).format(new Date(at));
  return `${day}, ${time} (${timeZone})`;
}

/** "Tue 3 Mar, 18:00 – 19:30 (Europe/London)" in the viewer's zone. */
export function formatClassTime(startsAt: string, endsAt: string, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short' }).format(new Date(startsAt));
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' });
  return `${day}, ${time.format(new Date(startsAt))} – ${time.format(new Date(endsAt))} (${timeZone})`;
}

/**
 * A repeat of an event on the calendar: every `interval` weeks, or monthly on the same weekday
 * of the month as the first date ("every second Tuesday"; a fifth weekday becomes the last one
 * of months that have none). It ends after `count` dates, or on the last date not after `until`.
 */
export interface RepeatRule {
  frequency: 'weekly' | 'monthly';
  interval?: number;
  count?: number | null;
  until?: string | null;
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const utcDate = (date: string) => new Date(`${date}T00:00:00Z`);
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** "second Tuesday": which weekday of its month a date (YYYY-MM-DD) is. */
export function weekdayOfMonth(date: string): string {
  const d = utcDate(date);
  return `${ORDINALS[Math.ceil(d.getUTCDate() / 7) - 1]} ${WEEKDAYS[d.getUTCDay()]}`;
}

/**
 * The calendar dates (YYYY-MM-DD) of a repeat starting on `first`, at most `limit` of them
 * (so an end date years away costs nothing: ask for one more than allowed to tell "too many").
 * Dates, not instants: the caller puts the wall-clock time on each in the event's zone, so a
 * series keeps 19:00 across DST changes.
 */
export function repeatDates(first: string, rule: RepeatRule, limit: number): string[] {
  const start = utcDate(first);
  const max = Math.min(limit, rule.count ?? Infinity);
  const out: string[] = [];
  const weekday = start.getUTCDay();
  const ordinal = Math.ceil(start.getUTCDate() / 7);
  for (let k = 0; out.length < max; k++) {
    let d: Date;
    if (rule.frequency === 'weekly') d = new Date(start.getTime() + 7 * (rule.interval ?? 1) * k * 86400_000);
    else {
      const month = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + k, 1));
      const daysInMonth = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 0)).getUTCDate();
      let day = 1 + ((weekday - month.getUTCDay() + 7) % 7) + 7 * (ordinal - 1);
      if (day > daysInMonth) day -= 7;
      d = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), day));
    }
    const date = isoDay(d);
    if (rule.until && date > rule.until) break;
    if (d.getUTCFullYear() > 2999) break;
    out.push(date);
  }
  return out;
}
