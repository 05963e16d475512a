import { randomUUID } from 'node:crypto';

/**
 * The data both suites make: request bodies, unique emails, ids. No Vitest here (nor
 * anything that imports it): the end-to-end suite, run by Playwright, imports this too.
 */

/** An id of the form the database gives, as a pattern to put inside a RegExp. */
export const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** A whole string that is an id. */
export const UUID_RE = new RegExp(`^${UUID}$`);
/** A well-formed id that names nothing. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/**
 * scrypt's N on the test servers (PASSWORD_HASH_COST): a run makes hundreds of accounts, and
 * the default (16384, ~130 ms of CPU a hash) cost minutes of it. The default stays covered:
 * tests/api/accounts/password-hash.test.ts and the PGlite smoke run use it.
 */
export const TEST_PASSWORD_HASH_COST = '256';

/** A unique email for this test (lowercase, valid). */
export function uniqueEmail(tag = 'user'): string {
  return `${tag}-${randomUUID().slice(0, 12)}@example.com`;
}

export interface NewUser {
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  birthdate: string;
}

/** A valid sign-up body with a unique email; override any field. */
export function newUser(overrides: Partial<NewUser> = {}): NewUser {
  return {
    email: uniqueEmail(),
    firstName: 'Ada',
    lastName: 'Lovelace',
    password: 'Analytical-Engine-1843',
    birthdate: '1990-12-10',
    ...overrides,
  };
}

/** One email of the local outbox (GET /api/dev/outbox). */
export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  created_at: string;
  /** The calendar invitation the email carries, if any (method and iCalendar text). */
  icalEvent?: { method: string; content: string } | null;
}

/** The first link of an email's text part. */
export function linkIn(message: { text: string }): string {
  const link = /https?:\/\/\S+/.exec(message.text)?.[0];
  if (!link) throw new Error(`no link in email: ${message.text}`);
  return link;
}

/** YYYY-MM-DD, `days` days from today (UTC). */
export function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86400_000).toISOString().slice(0, 10);
}

export const educatorBody = (overrides: Record<string, unknown> = {}) => ({
  headline: 'Painter and patient teacher',
  bio: 'I have taught watercolour to adults for twelve years, in studios and online.',
  subjects: ['watercolour', 'drawing'],
  links: ['https://example.com/portfolio'],
  ...overrides,
});

export const courseBody = (overrides: Record<string, unknown> = {}) => ({
  title: 'Watercolour for beginners',
  summary: 'Washes, layers and light in six relaxed evenings.',
  description: '## What you will learn\n\nWet-on-wet, glazing and **colour mixing**.',
  category: 'arts',
  level: 'beginner',
  language: 'English',
  format: 'online',
  priceCents: 0,
  currency: 'usd',
  refundPolicy: 'moderate',
  ...overrides,
});

export const sessionBody = (overrides: Record<string, unknown> = {}) => ({
  startsOn: dayFromNow(30),
  endsOn: dayFromNow(100),
  capacity: 10,
  minToRun: 1,
  timeZone: 'Europe/London',
  ...overrides,
});

/** A class time `daysFromNow` days ahead at 17:00 UTC, lasting `hours`. */
export function classTimeBody(daysFromNow: number, overrides: Record<string, unknown> = {}, hours = 1.5) {
  const start = new Date(Date.now() + daysFromNow * 86400_000);
  start.setUTCHours(17, 0, 0, 0);
  return {
    startsAt: start.toISOString(),
    endsAt: new Date(start.getTime() + hours * 3600_000).toISOString(),
    meetingUrl: 'https://meet.example.com/room-1',
    ...overrides,
  };
}

/** An answer to one JSON call, whichever client made it (app.inject or real HTTP). */
export interface Reply {
  status: number;
  text: string;
  json<T = any>(): T; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One JSON call as one user (their cookies go with it): what the shared factories need of a client. */
export type Send = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown) => Promise<Reply>;

/** The reply, once it has the status a factory expects; otherwise the test fails with the body. */
export async function expectStatus(reply: Promise<Reply>, status: number, what: string): Promise<Reply> {
  const res = await reply;
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status}: ${res.text}`);
  return res;
}

/** Onboarding step 1 (POST /api/educators). */
export async function becomeEducator(send: Send, overrides: Record<string, unknown> = {}): Promise<void> {
  await expectStatus(send('POST', '/api/educators', educatorBody(overrides)), 201, 'becoming an educator');
}

/** A draft course; answers its id. */
export async function createCourse(send: Send, overrides: Record<string, unknown> = {}): Promise<string> {
  return (await expectStatus(send('POST', '/api/courses', courseBody(overrides)), 201, 'creating a course')).json().id;
}

/** A session of a course; answers its id. */
export async function createSession(send: Send, courseId: string, overrides: Record<string, unknown> = {}): Promise<string> {
  return (await expectStatus(send('POST', `/api/courses/${courseId}/sessions`, sessionBody(overrides)), 201, 'creating a session')).json()
    .id;
}

/** Class times of a session (one, or a weekly series); answers their ids. */
export async function createClassTimes(send: Send, courseId: string, sessionId: string, body: Record<string, unknown>): Promise<string[]> {
  const res = await expectStatus(
    send('POST', `/api/courses/${courseId}/sessions/${sessionId}/class-times`, body),
    201,
    'adding class times',
  );
  return res.json().ids;
}

/** Publishes a course (a paid one needs the educator's payouts first). */
export async function publishCourse(send: Send, courseId: string): Promise<void> {
  await expectStatus(send('POST', `/api/courses/${courseId}/publish`), 200, 'publishing a course');
}
