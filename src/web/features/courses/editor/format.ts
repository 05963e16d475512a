import { CATEGORIES, LEVELS } from '../../../../shared/courses';

/** Display helpers of the educator screens. */
export const categoryLabel = (id: string) => CATEGORIES.find((c) => c.id === id)?.label ?? id;
export const levelLabel = (id: string) => LEVELS.find((l) => l.id === id)?.label ?? id;
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const day = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
const shortDay = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short' });
const asUtc = (isoDate: string) => new Date(`${isoDate.slice(0, 10)}T00:00:00Z`);

/** "Tue 3 Mar 2026" for a calendar date (YYYY-MM-DD). */
export const formatDate = (isoDate: string) => day.format(asUtc(isoDate));

/** "3 Mar – Tue 21 Apr 2026", or one date. */
export function formatDateRange(startsOn: string, endsOn: string): string {
  if (startsOn === endsOn) return formatDate(startsOn);
  const s = asUtc(startsOn);
  const e = asUtc(endsOn);
  return `${s.getUTCFullYear() === e.getUTCFullYear() ? shortDay.format(s) : day.format(s)} – ${day.format(e)}`;
}

/** "12 Mar 2026, 14:05" in the viewer's zone. */
export function formatDateTime(iso: string): string {
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}

/** The calendar date (YYYY-MM-DD) of an instant in a zone. */
export function dayIn(instant: Date, timeZone: string): string {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(instant).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** Today's date (YYYY-MM-DD) in a zone. */
export const todayIn = (timeZone: string) => dayIn(new Date(), timeZone);

/** A YYYY-MM-DD date plus n days. */
export function addDays(isoDate: string, n: number): string {
  const d = asUtc(isoDate);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
