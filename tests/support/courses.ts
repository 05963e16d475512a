import { beforeAll } from 'vitest';
import { sql } from 'drizzle-orm';
import { useTestApp, type AppContext, type TestApp } from './app.js';
import { createSignedInUser, type NewUser, type SignedInUser } from './factories.js';
import { call, get, patch, post, sendAs } from './http.js';
import {
  becomeEducator,
  classTimeBody,
  courseBody,
  createClassTimes,
  createCourse,
  createSession,
  dayFromNow,
  educatorBody,
  publishCourse,
  sessionBody,
} from './test-data.js';

export { classTimeBody, courseBody, dayFromNow, educatorBody, sessionBody };

/** Factories for the courses capability: educators, courses, sessions, class times. */

/** An educator is a signed-in user who onboarded (the same fields). */
export type Educator = SignedInUser;

/** A signed-in user who has completed onboarding step 1 (POST /api/educators). */
export async function makeEducator(app: TestApp, overrides: Partial<NewUser> = {}): Promise<Educator> {
  const user = await createSignedInUser(app, { firstName: 'Grace', lastName: 'Hopper', ...overrides });
  await becomeEducator(sendAs(app, user.cookie));
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

/** A draft course of this educator; answers its id. */
export async function makeCourse(app: TestApp, educator: { cookie: string }, overrides: Record<string, unknown> = {}): Promise<string> {
  return createCourse(sendAs(app, educator.cookie), overrides);
}

export async function makeSession(
  app: TestApp,
  educator: { cookie: string },
  courseId: string,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  return createSession(sendAs(app, educator.cookie), courseId, overrides);
}

export function addClassTimes(
  app: TestApp,
  educator: { cookie: string },
  courseId: string,
  sessionId: string,
  body: Record<string, unknown>,
) {
  return post(app, `/api/courses/${courseId}/sessions/${sessionId}/class-times`, body, { cookie: educator.cookie });
}

/** Adds class times (one, or a weekly series) and answers their ids. */
export async function makeClassTimes(
  app: TestApp,
  educator: { cookie: string },
  courseId: string,
  sessionId: string,
  body: Record<string, unknown> = classTimeBody(31),
): Promise<string[]> {
  return createClassTimes(sendAs(app, educator.cookie), courseId, sessionId, body);
}

export async function publish(app: TestApp, educator: { cookie: string }, courseId: string): Promise<void> {
  // A paid course needs the educator's payouts (charges enabled): give them a test payout
  // account unless they have one (the payments tests create real sandbox accounts).
  await allowPaidPublishing(app, courseId);
  await publishCourse(sendAs(app, educator.cookie), courseId);
}

/** A published course with one session (and one class time); the common starting point. */
export async function makePublishedCourse(
  app: TestApp,
  educator: { cookie: string },
  opts: { course?: Record<string, unknown>; session?: Record<string, unknown> } = {},
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

export const getCourse = (app: TestApp, user: { cookie: string }, courseId: string) =>
  get(app, `/api/courses/${courseId}`, { cookie: user.cookie });

export const putReview = (app: TestApp, user: { cookie: string }, courseId: string, body: Record<string, unknown>) =>
  call(app, 'PUT', `/api/courses/${courseId}/review`, body, { cookie: user.cookie });

export const patchSession = (app: TestApp, user: { cookie: string }, courseId: string, sessionId: string, body: Record<string, unknown>) =>
  patch(app, `/api/courses/${courseId}/sessions/${sessionId}`, body, { cookie: user.cookie });

/** One row of SQL, straight from the app's database (for facts the API does not show). */
export async function queryRows<T = Record<string, unknown>>(app: TestApp, query: ReturnType<typeof sql>): Promise<T[]> {
  const res = await app.database.db.execute(query);
  return (res as unknown as { rows?: T[] }).rows ?? (res as unknown as T[]);
}

/** Enrolment statuses of a session, counted. */
export async function enrolmentCounts(app: TestApp, sessionId: string): Promise<Record<string, number>> {
  const rows = await queryRows<{ status: string; n: number }>(
    app,
    sql`select status, count(*)::int as n from enrolment where session_id = ${sessionId} group by status`,
  );
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

export async function seatsTaken(app: TestApp, sessionId: string): Promise<{ seatsTaken: number; capacity: number }> {
  const [row] = await queryRows<{ seats_taken: number; capacity: number }>(
    app,
    sql`select seats_taken, capacity from course_session where id = ${sessionId}`,
  );
  return { seatsTaken: Number(row.seats_taken), capacity: Number(row.capacity) };
}

/** Marks the educator of a paid course as able to take payments (a stand-in payout account). */
export async function allowPaidPublishing(app: TestApp, courseId: string): Promise<void> {
  await app.database.db.execute(sql`insert into payout_account (user_id, account_id, charges_enabled, payouts_enabled, details_submitted)
    select educator_id, 'acct_test_' || replace(educator_id::text, '-', ''), true, true, true from course where id = ${courseId} and price_cents > 0
    on conflict do nothing`);
}

/**
 * The first class of every session of the course took place (it began an hour ago): a
 * learner may review only from then on. Class times cannot be created in the past, so the
 * test moves the first one there (or adds one to a session without class times).
 */
export async function firstClassTookPlace(app: TestApp, courseId: string): Promise<void> {
  await app.database.db.execute(sql`
    insert into class_time (session_id, starts_at, ends_at)
    select s.id, now() - interval '1 hour', now() - interval '1 minute' from course_session s
    where s.course_id = ${courseId} and not exists (select 1 from class_time t where t.session_id = s.id)`);
  await app.database.db.execute(sql`
    update class_time t set starts_at = now() - interval '1 hour', ends_at = now() - interval '1 minute'
    where t.id in (select distinct on (ct.session_id) ct.id from class_time ct join course_session s on s.id = ct.session_id
                   where s.course_id = ${courseId} order by ct.session_id, ct.starts_at)`);
}
