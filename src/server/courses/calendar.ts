import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { AppError } from '../http/errors.js';
import { calendarFeed } from '../db/schema/courses.js';
import { forWhom, learnerClassTimes } from './learner-class-times.js';

/**
 * The user's class times as an iCalendar (RFC 5545) document, times in UTC (Z), with the
 * entries of the other domains' `sources` (club events the user is going to).
 */
export async function userCalendar(app: AppServices, sources: CalendarSources, userId: string): Promise<string> {
  const publicUrl = app.config.publicUrl;
  const rows = await learnerClassTimes(app.database.db, userId, {
    statuses: ['active', 'past_due', 'completed'],
    endsAfter: new Date(Date.now() - 90 * 86400_000),
    limit: 2000,
  });
  const entries: CalendarEntry[] = rows.map((r) => ({
    uid: `${r.id}@agora`,
    startsAt: r.startsAt,
    endsAt: r.endsAt,
    // Family accounts (ADR 0074): whom the class is for, when it is for the account's learners.
    title: forWhom(r) ? `${r.courseTitle} (for ${forWhom(r)})` : r.courseTitle,
    location: r.location || r.meetingUrl || null,
    url: `${publicUrl}/course/${r.courseId}`,
  }));
  for (const source of sources.list()) entries.push(...(await source(app, userId)));
  entries.sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
  return icsDocument(entries, 'Agora classes');
}

/** One event of an iCalendar document. */
export interface CalendarEntry {
  uid: string;
  startsAt: Date;
  endsAt: Date;
  title: string;
  location: string | null;
  url: string;
}
export type CalendarSource = (app: AppServices, userId: string) => Promise<CalendarEntry[]>;

/**
 * What other domains add to a user's calendar (the .ics download and the private feed): one
 * registry per app, created by composition (src/server/composition/), filled by the domains
 * above courses at start-up (clubs/subscriptions.ts) and handed to the calendar's routes.
 */
export interface CalendarSources {
  add(source: CalendarSource): void;
  list(): readonly CalendarSource[];
}

export function createCalendarSources(): CalendarSources {
  const sources: CalendarSource[] = [];
  return { add: (source) => void sources.push(source), list: () => sources };
}

/** An iCalendar (RFC 5545) document, times in UTC (Z). */
export function icsDocument(entries: CalendarEntry[], name: string): string {
  const stamp = ics(new Date());
  const events = entries.map((r) =>
    [
      'BEGIN:VEVENT',
      `UID:${r.uid}`,
      `DTSTAMP:${stamp}`,
      `DTSTART:${ics(r.startsAt)}`,
      `DTEND:${ics(r.endsAt)}`,
      fold(`SUMMARY:${escapeText(r.title)}`),
      r.location ? fold(`LOCATION:${escapeText(r.location)}`) : null,
      fold(`URL:${r.url}`),
      'END:VEVENT',
    ]
      .filter(Boolean)
      .join('\r\n'),
  );
  return (
    [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Agora//Class times//EN',
      'CALSCALE:GREGORIAN',
      'METHOD:PUBLISH',
      fold(`X-WR-CALNAME:${escapeText(name)}`),
      ...events,
      'END:VCALENDAR',
    ].join('\r\n') + '\r\n'
  );
}

/** The user's private calendar feed URL; the secret in it is created on first use, or anew with `rotate`. */
export async function calendarFeedUrl(app: AppServices, userId: string, rotate = false): Promise<string> {
  const db = app.database.db;
  let token: string | undefined;
  if (!rotate) {
    const [row] = await db.select({ token: calendarFeed.token }).from(calendarFeed).where(eq(calendarFeed.userId, userId)).limit(1);
    token = row?.token;
  }
  if (!token) {
    token = randomBytes(24).toString('base64url');
    await db
      .insert(calendarFeed)
      .values({ userId, token })
      .onConflictDoUpdate({ target: calendarFeed.userId, set: { token, createdAt: new Date() } });
  }
  return `${app.config.publicUrl}/api/calendar/feed/${token}.ics`;
}

/** The calendar behind a private feed token (the token is the only credential), or 404. */
export async function calendarForFeed(app: AppServices, sources: CalendarSources, token: string): Promise<string> {
  const [row] = await app.database.db
    .select({ userId: calendarFeed.userId })
    .from(calendarFeed)
    .where(eq(calendarFeed.token, token))
    .limit(1);
  if (!row) throw AppError.notFound('Unknown feed');
  return userCalendar(app, sources, row.userId);
}

const ics = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const escapeText = (s: string) => s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
/** Lines longer than 75 octets are folded (RFC 5545 3.1). */
function fold(line: string): string {
  const out: string[] = [];
  let rest = line;
  while (Buffer.byteLength(rest) > 75) {
    let cut = 75;
    while (Buffer.byteLength(rest.slice(0, cut)) > 75) cut--;
    out.push(rest.slice(0, cut));
    rest = ' ' + rest.slice(cut);
  }
  out.push(rest);
  return out.join('\r\n');
}
