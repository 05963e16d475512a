import { MAX_REPEATS } from '../../shared/clubs.js';
import { repeatDates, wallTimeIn, wallTimeToUtc, type RepeatRule, type WallTime } from '../../shared/time.js';

/**
 * Event times: the form gives wall-clock times in the organiser's zone ("2027-03-09T19:00",
 * Europe/London); repeats keep that wall-clock time across DST changes (shared/time.ts,
 * the course time code). A repeat is a list of separate events.
 */
export function parseLocal(value: string): WallTime {
  const [date, time] = value.split('T');
  const [year, month, day] = date.split('-').map(Number);
  const [hour, minute] = time.split(':').map(Number);
  return { year, month, day, hour, minute };
}

export const localToUtc = (value: string, timeZone: string) => wallTimeToUtc(parseLocal(value), timeZone);

/** "2027-03-09T19:00": an instant as wall-clock time in a zone (the edit form's value). */
export function utcToLocal(instant: Date, timeZone: string): string {
  const w = wallTimeIn(instant, timeZone);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${p(w.month)}-${p(w.day)}T${p(w.hour)}:${p(w.minute)}`;
}

const shiftDays = (w: WallTime, days: number): WallTime => {
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day + days));
  return { ...w, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
};

/**
 * The start and end instants of each event of a repeat (or the one event): the dates of the
 * repeat (shared/time.ts, the form's preview uses the same), each at the first event's
 * wall-clock times in its zone.
 */
export function occurrences(startsAt: string, endsAt: string, timeZone: string, repeat: RepeatRule | null | undefined) {
  const start = parseLocal(startsAt);
  const end = parseLocal(endsAt);
  const first = startsAt.slice(0, 10);
  const dates = repeat ? repeatDates(first, repeat, MAX_REPEATS) : [first];
  const base = Date.parse(`${first}T00:00:00Z`);
  return dates.map((date) => {
    const days = Math.round((Date.parse(`${date}T00:00:00Z`) - base) / 86400_000);
    return { startsAt: wallTimeToUtc(shiftDays(start, days), timeZone), endsAt: wallTimeToUtc(shiftDays(end, days), timeZone) };
  });
}
