import { beforeAll, expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { useTestApp, type AppContext, type TestApp } from './app.js';
import { createSignedInUser, type NewUser, type SignedInUser } from './factories.js';
import { call, get, patch, post } from './http.js';

/** Factories for the courses capability: educators, courses, sessions, class times. */

/** An educator is a signed-in user who onboarded (the same fields). */
export type Educator = SignedInUser;

export const educatorBody = (overrides: Record<string, unknown> = {}) => ({
  headline: 'Painter and patient teacher',
  bio: 'I have taught watercolour to adults for twelve years, in studios and online.',
  subjects: ['watercolour', 'drawing'],
  links: ['https://example.com/portfolio'],
  ...overrides,
});

/** A signed-in user who has completed onboarding step 1 (POST /api/educators). */
export async function makeEducator(app: TestApp, overrides: Partial<NewUser> = {}): Promise<Educator> {
  const user = await createSignedInUser(app, { firstName: 'Grace', lastName: 'Hopper', ...overrides });
  const res = await post(app, '/api/educators', educatorBody(), { cookie: user.cookie });
  expect(res.statusCode, res.body).toBe(201);
  return user;
}

export interface CoursesContext extends AppContext {
  educator: Educator;
}

/** The usual start of a courses test file: one app and one educator, made in beforeAll. */
export function useCoursesApp(): CoursesContext {
  const ctx = useTestApp() as CoursesContext;
  beforeAll(async () => {
    ctx.educator = await makeEducator(ctx.app);
  });
  return ctx;
}

/** A signed-in learner (no educator record). */
export const makeLearner = (app: TestApp, overrides: Partial<NewUser> = {}) => createSignedInUser(app, overrides);

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

/** A draft course of this educator; answers its id. */
export async function makeCourse(app: TestApp, educator: { cookie: string }, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await post(app, '/api/courses', courseBody(overrides), { cookie: educator.cookie });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** YYYY-MM-DD, `days` days from today (UTC). */
export function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86400_000).toISOString().slice(0, 10);
}

export const sessionBody = (overrides: Record<string, unknown> = {}) => ({
  startsOn: dayFromNow(30),
  endsOn: dayFromNow(60),
  capacity: 10,
  minToRun: 1,
  timeZone: 'Europe/London',
  ...overrides,
});

export async function makeSession(app: TestApp, educator: { cookie: string }, courseId: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await post(app, `/api/courses/${courseId}/sessions`, sessionBody(overrides), { cookie: educator.cookie });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

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

export function addClassTimes(app: TestApp, educator: { cookie: string }, courseId: string, sessionId: string, body: Record<string, unknown>) {
  return post(app, `/api/courses/${courseId}/sessions/${sessionId}/class-times`, body, { cookie: educator.cookie });
}

/** Adds class times (one, or a weekly series) and answers their ids. */
export async function makeClassTimes(
  app: TestApp, educator: { cookie: string }, courseId: string, sessionId: string, body: Record<string, unknown> = classTimeBody(31),
): Promise<string[]> {
  const res = await addClassTimes(app, educator, courseId, sessionId, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().ids;
}

export async function publish(app: TestApp, educator: { cookie: string }, courseId: string): Promise<void> {
  // A paid course needs the educator's payouts (charges enabled): give them a test payout
  // account unless they have one (the payments tests create real sandbox accounts).
  await allowPaidPublishing(app, courseId);
  const res = await post(app, `/api/courses/${courseId}/publish`, undefined, { cookie: educator.cookie });
  expect(res.statusCode, res.body).toBe(200);
}

/** A published course with one session (and one class time); the common starting point. */
export async function makePublishedCourse(
  app: TestApp, educator: { cookie: string }, opts: { course?: Record<string, unknown>; session?: Record<string, unknown> } = {},
): Promise<{ courseId: string; sessionId: string; classTimeIds: string[] }> {
  const courseId = await makeCourse(app, educator, opts.course);
  const sessionId = await makeSession(app, educator, courseId, opts.session);
  const classTimeIds = await makeClassTimes(app, educator, courseId, sessionId);
  await publish(app, educator, courseId);
  return { courseId, sessionId, classTimeIds };
}

export const enrol = (app: TestApp, learner: { cookie: string }, courseId: string, sessionId: string) =>
  post(app, `/api/courses/${courseId}/sessions/${sessionId}/enrol`, undefined, { cookie: learner.cookie });

export const drop = (app: TestApp, learner: { cookie: string }, courseId: string, sessionId: string) =>
  post(app, `/api/courses/${courseId}/sessions/${sessionId}/drop`, undefined, { cookie: learner.cookie });

export const getCourse = (app: TestApp, user: { cookie: string }, courseId: string) => get(app, `/api/courses/${courseId}`, { cookie: user.cookie });

export const putReview = (app: TestApp, user: { cookie: string }, courseId: string, body: Record<string, unknown>) =>
  call(app, 'PUT', `/api/courses/${courseId}/review`, body, { cookie: user.cookie });

export const patchSession = (app: TestApp, user: { cookie: string }, courseId: string, sessionId: string, body: Record<string, unknown>) =>
  patch(app, `/api/courses/${courseId}/sessions/${sessionId}`, body, { cookie: user.cookie });

/** One row of SQL, straight from the app's database (for facts the API does not show). */
export async function queryRows<T = Record<string, unknown>>(app: TestApp, query: ReturnType<typeof sql>): Promise<T[]> {
  const res = await app.database.db.execute(query);
  return ((res as unknown as { rows?: T[] }).rows ?? (res as unknown as T[]));
}

/** Enrolment statuses of a session, counted. */
export async function enrolmentCounts(app: TestApp, sessionId: string): Promise<Record<string, number>> {
  const rows = await queryRows<{ status: string; n: number }>(app, sql`select status, count(*)::int as n from enrolment where session_id = ${sessionId} group by status`);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

export async function seatsTaken(app: TestApp, sessionId: string): Promise<{ seatsTaken: number; capacity: number }> {
  const [row] = await queryRows<{ seats_taken: number; capacity: number }>(app, sql`select seats_taken, capacity from course_session where id = ${sessionId}`);
  return { seatsTaken: Number(row.seats_taken), capacity: Number(row.capacity) };
}

/** Marks the educator of a paid course as able to take payments (a stand-in payout account). */
export async function allowPaidPublishing(app: TestApp, courseId: string): Promise<void> {
  await app.database.db.execute(sql`insert into payout_account (user_id, account_id, charges_enabled, payouts_enabled, details_submitted)
    select educator_id, 'acct_test_' || replace(educator_id::text, '-', ''), true, true, true from course where id = ${courseId} and price_cents > 0
    on conflict do nothing`);
}
