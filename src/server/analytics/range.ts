import { ANALYTICS_MAX_DAYS, type AnalyticsQuery } from '../../shared/analytics-schemas.js';
import { AppError } from '../http/errors.js';

/** A range of UTC calendar days, both ends included, and the period of the same length before it. */
export interface DayRange {
  from: string;
  to: string;
  days: number;
  previousFrom: string;
  previousTo: string;
  bucket: 'day' | 'week' | 'month';
}

const DAY_MS = 86_400_000;
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
export const addDays = (day: string, n: number) => new Date(dayMs(day) + n * DAY_MS).toISOString().slice(0, 10);
export const todayUtc = (now = new Date()) => now.toISOString().slice(0, 10);

/** A real calendar date written YYYY-MM-DD (2026-02-30 is not). */
function parseDay(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const ms = dayMs(value);
  if (Number.isNaN(ms)) return null;
  return new Date(ms).toISOString().slice(0, 10) === value ? value : null;
}

/** Reads `from` and `to` (default: the last 30 days to today); a 400 names each field at fault. */
export function readRange(query: Pick<AnalyticsQuery, 'from' | 'to'>, now = new Date()): DayRange {
  const fields: Record<string, string> = {};
  const to = query.to === undefined || query.to === '' ? todayUtc(now) : parseDay(query.to);
  if (!to) fields.to = 'Enter a real date as YYYY-MM-DD';
  const from = query.from === undefined || query.from === '' ? (to ? addDays(to, -29) : null) : parseDay(query.from);
  if (!from) fields.from = 'Enter a real date as YYYY-MM-DD';
  if (from && to) {
    if (to < from) fields.to = 'The end must be on or after the start';
    else if ((dayMs(to) - dayMs(from)) / DAY_MS + 1 > ANALYTICS_MAX_DAYS) fields.from = 'A range can be at most 5 years long';
    else if (from < '2000-01-01' || to > '2100-12-31') fields[from < '2000-01-01' ? 'from' : 'to'] = 'Choose a date between 2000 and 2100';
  }
  if (!from || !to || Object.keys(fields).length) {
    throw AppError.badRequest(
      Object.entries(fields)
        .map(([f, m]) => `${f}: ${m}`)
        .join('; '),
      fields,
    );
  }
  const days = (dayMs(to) - dayMs(from)) / DAY_MS + 1;
  return {
    from,
    to,
    days,
    previousFrom: addDays(from, -days),
    previousTo: addDays(from, -1),
    bucket: days <= 31 ? 'day' : days <= 184 ? 'week' : 'month',
  };
}

/** The bucket a day falls in: itself, the Monday of its week, or the first of its month. */
export function bucketOf(day: string, bucket: DayRange['bucket']): string {
  if (bucket === 'day') return day;
  if (bucket === 'month') return `${day.slice(0, 7)}-01`;
  const weekday = (new Date(dayMs(day)).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** Every bucket of a range, in order (the series show empty ones too). */
export function bucketsOf(range: DayRange): string[] {
  const out: string[] = [];
  for (let d = range.from; d <= range.to; d = addDays(d, 1)) {
    const b = bucketOf(d, range.bucket);
    if (out[out.length - 1] !== b) out.push(b);
  }
  return out;
}
