import { CATEGORIES, LEVELS, REFUND_POLICIES } from '../../../../shared/courses';
import { formatClassTime } from '../../../../shared/time';

/** Display helpers of the learner's course screens. */
export const categoryLabel = (id: string) => CATEGORIES.find((c) => c.id === id)?.label ?? id;
export const levelLabel = (id: string) => LEVELS.find((l) => l.id === id)?.label ?? id;
export const refundPolicy = (id: string) => REFUND_POLICIES.find((r) => r.id === id) ?? REFUND_POLICIES[1];

/** The viewer's own time zone, as the browser reports it. */
export function viewerTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

const dayFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
const shortDayFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short' });
const plainDayFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });

/** "Tue 3 Mar 2026" for a calendar date (YYYY-MM-DD), whatever the viewer's zone. */
export function formatDate(isoDate: string): string {
  return dayFormat.format(new Date(`${isoDate.slice(0, 10)}T00:00:00Z`));
}

/** "3 Mar – 21 Apr 2026" (the year once when both share it), or one date when they agree. */
export function formatDateRange(startsOn: string, endsOn: string): string {
  if (startsOn === endsOn) return formatDate(startsOn);
  const s = new Date(`${startsOn}T00:00:00Z`);
  const e = new Date(`${endsOn}T00:00:00Z`);
  const start = s.getUTCFullYear() === e.getUTCFullYear() ? shortDayFormat.format(s) : plainDayFormat.format(s);
  return `${start} – ${plainDayFormat.format(e)}`;
}

/** The time part of a class time in a zone: "18:00 – 19:30". */
export function formatTimeRange(startsAt: string, endsAt: string, timeZone: string): string {
  const f = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' });
  return `${f.format(new Date(startsAt))} – ${f.format(new Date(endsAt))}`;
}

/** The class time in the viewer's zone, named, as the shared formatter writes it. */
export const formatInZone = formatClassTime;

/** The calendar day (YYYY-MM-DD) an instant falls on in a zone. */
export function dayKey(instant: string | Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(instant));
  return parts.slice(0, 10);
}

/** "Today", "Tomorrow" or "Tue 3 Mar", for a YYYY-MM-DD day in the viewer's zone. */
export function relativeDayLabel(key: string, timeZone: string, now = new Date()): string {
  const today = dayKey(now, timeZone);
  const tomorrow = dayKey(new Date(now.getTime() + 86400_000), timeZone);
  if (key === today) return 'Today';
  if (key === tomorrow) return 'Tomorrow';
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(`${key}T00:00:00Z`));
}

/** "in 3 days" / "today" / "started" for a calendar date. */
export function startsIn(isoDate: string, now = new Date()): string {
  const days = Math.round((Date.parse(`${isoDate}T00:00:00Z`) - Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`)) / 86400_000);
  if (days < 0) return 'started';
  if (days === 0) return 'today';
  if (days === 1) return 'tomorrow';
  if (days < 14) return `in ${days} days`;
  return `on ${shortDayFormat.format(new Date(`${isoDate}T00:00:00Z`))}`;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
