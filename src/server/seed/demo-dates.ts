import { dateIn } from '../../shared/time.js';

export const DAY = 86_400_000;

/** The date `days` from today (negative: ago) in `timeZone`, YYYY-MM-DD: demo data is dated from the day it is made. */
export function localDate(days: number, timeZone: string): string {
  return dateIn(new Date(Date.now() + days * DAY), timeZone);
}
