import { dateIn } from '@shared/time';
import { viewerTimeZone } from '@web/lib/format';

/** Times of the mailbox, in the viewer's zone: "14:05", "Yesterday", "Tue", "3 Mar". */

const zone = viewerTimeZone();
const timeFormat = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit' });
const weekdayFormat = new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'short' });
const shortDateFormat = new Intl.DateTimeFormat('en-GB', { timeZone: zone, day: 'numeric', month: 'short' });
const longDayFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});
const fullFormat = new Intl.DateTimeFormat('en-GB', { timeZone: zone, dateStyle: 'full', timeStyle: 'short' });

/** The viewer's calendar day of an instant (YYYY-MM-DD). */
export const dayKey = (iso: string) => dateIn(new Date(iso), zone);
const daysAgo = (iso: string, now = new Date()) =>
  Math.round((Date.parse(`${dayKey(now.toISOString())}T00:00:00Z`) - Date.parse(`${dayKey(iso)}T00:00:00Z`)) / 86400_000);

export const messageTime = (iso: string) => timeFormat.format(new Date(iso));
export const fullTime = (iso: string) => fullFormat.format(new Date(iso));

/** A conversation's time in the list: today's time, "Yesterday", a weekday this week, else the date. */
export function listTime(iso: string): string {
  const d = daysAgo(iso);
  if (d <= 0) return messageTime(iso);
  if (d === 1) return 'Yesterday';
  if (d < 7) return weekdayFormat.format(new Date(iso));
  return shortDateFormat.format(new Date(iso));
}

/** A day separator's label: "Today", "Yesterday" or "Tuesday 3 March 2026". */
export function dayLabel(key: string): string {
  const today = dayKey(new Date().toISOString());
  if (key === today) return 'Today';
  if (Date.parse(`${today}T00:00:00Z`) - Date.parse(`${key}T00:00:00Z`) === 86400_000) return 'Yesterday';
  return longDayFormat.format(new Date(`${key}T00:00:00Z`));
}
