import { CATEGORIES, LEVELS } from '@shared/courses';
import { dateIn } from '@shared/time';
import { formatDeduction, formatMoney } from '@shared/money';

/** Display helpers of every screen: labels, dates, times and money, one spelling each. */
export const categoryLabel = (id: string) => CATEGORIES.find((c) => c.id === id)?.label ?? id;
export const levelLabel = (id: string) => LEVELS.find((l) => l.id === id)?.label ?? id;
export { refundPolicyOf as refundPolicy } from '@shared/refund-terms';
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A search total: "3,400", "about 3,400" (an estimate) or "1,000+" (counting stopped there). */
export function resultTotal(r: { total: number; totalKind: 'exact' | 'about' | 'atLeast' }): string {
  const n = r.total.toLocaleString('en');
  return r.totalKind === 'about' ? `about ${n}` : r.totalKind === 'atLeast' ? `${n}+` : n;
}

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
const asUtc = (isoDate: string) => new Date(`${isoDate.slice(0, 10)}T00:00:00Z`);

/** "Tue 3 Mar 2026" for a calendar date (YYYY-MM-DD), whatever the viewer's zone. */
export function formatDate(isoDate: string): string {
  return dayFormat.format(asUtc(isoDate));
}

/** "3 Mar – 21 Apr 2026" (the year once when both share it), or one date when they agree. */
export function formatDateRange(startsOn: string, endsOn: string): string {
  if (startsOn === endsOn) return formatDate(startsOn);
  const s = asUtc(startsOn);
  const e = asUtc(endsOn);
  const start = s.getUTCFullYear() === e.getUTCFullYear() ? shortDayFormat.format(s) : plainDayFormat.format(s);
  return `${start} – ${plainDayFormat.format(e)}`;
}

/** The time part of a class time in a zone: "18:00 – 19:30". */
export function formatTimeRange(startsAt: string, endsAt: string, timeZone: string): string {
  const f = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' });
  return `${f.format(new Date(startsAt))} – ${f.format(new Date(endsAt))}`;
}

const dateTimeFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const instantDayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** "12 Mar 2026, 14:05" for an instant, in the viewer's zone. */
export const formatDateTime = (iso: string) => dateTimeFormat.format(new Date(iso));

/** "12 Mar 2026": the day of an instant, in the viewer's zone. */
export const formatDay = (iso: string) => instantDayFormat.format(new Date(iso));

/** Today's date (YYYY-MM-DD) in a zone. */
export const todayIn = (timeZone: string) => dateIn(new Date(), timeZone);

/** A YYYY-MM-DD date plus n days. */
export function addDays(isoDate: string, n: number): string {
  const d = asUtc(isoDate);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** "Today", "Tomorrow" or "Tuesday 3 March", for a YYYY-MM-DD day in the viewer's zone. */
export function relativeDayLabel(key: string, timeZone: string, now = new Date()): string {
  if (key === dateIn(now, timeZone)) return 'Today';
  if (key === dateIn(new Date(now.getTime() + 86400_000), timeZone)) return 'Tomorrow';
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' }).format(asUtc(key));
}

/** "in 3 days" / "today" / "started" for a calendar date. */
export function startsIn(isoDate: string, now = new Date()): string {
  const days = Math.round((Date.parse(`${isoDate}T00:00:00Z`) - Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`)) / 86400_000);
  if (days < 0) return 'started';
  if (days === 0) return 'today';
  if (days === 1) return 'tomorrow';
  if (days < 14) return `in ${days} days`;
  return `on ${shortDayFormat.format(asUtc(isoDate))}`;
}

/**
 * "$100.00" for cents, "−$12.00" below zero (zero is "$0.00", unlike a course price where
 * zero reads "Free"): the one money format of the app (src/shared/money.ts, also used by
 * emails and CSV on the server).
 */
export const money = formatMoney;
/** A fee or refund taken off: "−$12.00". */
export const deduction = formatDeduction;

/** "Installment 2 of 3" for a payment of an installment plan; null for a one-off payment. */
export const sequenceLabel = (sequence: number, installments: number | null) =>
  installments ? `Installment ${sequence} of ${installments}` : null;

/** Requirement codes from the provider ("individual.dob.day") as words ("Individual dob day"). */
export function requirementLabel(code: string): string {
  const words = code.replace(/[._]/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A long key to type by hand (the two-factor setup key, 52 characters) in groups of four:
 * "JBSW Y3DP EHPK 3PXP". Authenticator apps ignore the spaces.
 */
export function groupKey(key: string, size = 4): string {
  return (key.replace(/\s+/g, '').match(new RegExp(`.{1,${size}}`, 'g')) ?? []).join(' ');
}

/** "Tue 3 Dec, 18:00" in the viewer's own zone: until when a seat offered from a waitlist is held. */
export function formatHeldUntil(at: string): string {
  return new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }).format(
    new Date(at),
  );
}

/** "24 hours", "90 minutes", "2 days": how long a freed seat of a paid session is held. */
export function holdWords(minutes: number): string {
  if (minutes % 1440 === 0 && minutes >= 2880) return `${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? '1 hour' : `${minutes / 60} hours`;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
