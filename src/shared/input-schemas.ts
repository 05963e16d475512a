import { z } from 'zod';
import { POSTGRES_TIME_ZONES } from './time-zones.js';

/**
 * Building blocks of every input schema, so that what passes validation is something the
 * database can store and the calendar has (issue 12, defect 7: these reached PostgreSQL
 * and answered 500).
 */

/** PostgreSQL text cannot hold the NUL character (U+0000). */
export const NO_NUL_MESSAGE = 'Text cannot contain the NUL character';
const hasNoNul = (s: string) => !s.includes('\u0000');

/**
 * Half of a UTF-16 surrogate pair without its other half (JSON can carry "\ud800"): no
 * character at all, and UTF-8 (the database, emails) cannot encode it (issue 23).
 */
export const MALFORMED_TEXT_MESSAGE = 'Text contains a malformed character (an unpaired surrogate); type or paste it again';
// With the u flag a class of surrogates matches only unpaired ones: a pair is one code point.
const hasNoLoneSurrogate = (s: string) => !/[\uD800-\uDFFF]/u.test(s);

/**
 * Characters that show nothing and are no whitespace to String.prototype.trim: zero-width
 * space, non-joiner and joiner, word joiner (U+FEFF is trimmed already). A text of only
 * these and whitespace is empty, as whitespace alone is (issue 23: such a message was sent).
 */
const INVISIBLE_ONLY = /^[\s\u200B-\u200D\u2060\uFEFF]+$/;

/**
 * A string without NUL characters or unpaired surrogates, and empty when it shows nothing
 * (chain .trim(), .min(), .max() as on z.string()).
 */
export const str = (params?: Parameters<typeof z.string>[0]) =>
  z
    .string(params)
    .refine(hasNoNul, NO_NUL_MESSAGE)
    .refine(hasNoLoneSurrogate, MALFORMED_TEXT_MESSAGE)
    .overwrite((s) => (INVISIBLE_ONLY.test(s) && /[\u200B-\u200D\u2060]/.test(s) ? '' : s));

/** The largest PostgreSQL integer: a number beyond it cannot be compared with an integer column. */
export const INT32_MAX = 2_147_483_647;

/** Years a date may have: far enough for any class, and within what every date type stores. */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2999;

/** A real calendar date in YYYY-MM-DD (not 2027-02-30), between MIN_YEAR and MAX_YEAR. */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value && inYears(d);
}

const inYears = (d: Date) => d.getUTCFullYear() >= MIN_YEAR && d.getUTCFullYear() <= MAX_YEAR;

export const isoDate = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date (YYYY-MM-DD)`)
    .refine(isCalendarDate, `${label} must be a real date between ${MIN_YEAR} and ${MAX_YEAR}`);

/** An ISO date and time with an offset, between MIN_YEAR and MAX_YEAR. */
export const isoDateTime = (error: string) =>
  z.iso.datetime({ offset: true, error }).refine((v) => inYears(new Date(v)), `Choose a time between ${MIN_YEAR} and ${MAX_YEAR}`);

/** A time-zone name both the JavaScript runtime and PostgreSQL know. */
export function isTimeZone(tz: string): boolean {
  if (!POSTGRES_TIME_ZONES.has(tz)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
