const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const day = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', year: 'numeric' });
const full = new Intl.DateTimeFormat('en', { dateStyle: 'full', timeStyle: 'short' });

/** "5 minutes ago", "yesterday", then a date. */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return 'just now';
  if (abs < 3600) return rtf.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(seconds / 3600), 'hour');
  if (abs < 7 * 86400) return rtf.format(Math.round(seconds / 86400), 'day');
  return day.format(new Date(iso));
}

/** The exact time, for a tooltip and the detail page. */
export const fullTime = (iso: string) => full.format(new Date(iso));
