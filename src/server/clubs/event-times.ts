import { wallTimeIn, wallTimeToUtc, type WallTime } from '../../shared/time.js';

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

const dayNumber = (w: { year: number; month: number; day: number }) => Date.UTC(w.year, w.month - 1, w.day) / 86400_000;
const shiftDays = (w: WallTime, days: number): WallTime => {
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day + days));
  return { ...w, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
};

/**
 * The day offsets (from the first event) of a repeat: every `interval` weeks, or monthly on
 * the same weekday of the month as the first ("every second Tuesday"; a fifth weekday
 * becomes the last one of months that have no fifth).
 */
export function repeatOffsets(first: WallTime, repeat: { frequency: 'weekly' | 'monthly'; interval: number; count: number }): number[] {
  if (repeat.frequency === 'weekly') return Array.from({ length: repeat.count }, (_, k) => 7 * repeat.interval * k);
  const weekday = new Date(Date.UTC(first.year, first.month - 1, first.day)).getUTCDay();
  const ordinal = Math.ceil(first.day / 7);
  const base = dayNumber(first);
  return Array.from({ length: repeat.count }, (_, k) => {
    const m = new Date(Date.UTC(first.year, first.month - 1 + k, 1));
    const year = m.getUTCFullYear();
    const month = m.getUTCMonth() + 1;
    const firstWeekday = m.getUTCDay();
    const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
    let day = 1 + ((weekday - firstWeekday + 7) % 7) + 7 * (ordinal - 1);
    if (day > daysInMonth) day -= 7;
    return dayNumber({ year, month, day }) - base;
  });
}

/** The start and end instants of each event of a repeat (or the one event). */
export function occurrences(
  startsAt: string,
  endsAt: string,
  timeZone: string,
  repeat: { frequency: 'weekly' | 'monthly'; interval: number; count: number } | null | undefined,
) {
  const start = parseLocal(startsAt);
  const end = parseLocal(endsAt);
  const offsets = repeat ? repeatOffsets(start, repeat) : [0];
  return offsets.map((days) => ({
    startsAt: wallTimeToUtc(shiftDays(start, days), timeZone),
    endsAt: wallTimeToUtc(shiftDays(end, days), timeZone),
  }));
}
