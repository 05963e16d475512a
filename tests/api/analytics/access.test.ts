import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type SignedInUser } from '../../support/factories.js';
import { get } from '../../support/http.js';
import { enrol, makeEducator, makePublishedCourse, queryRows, useCoursesApp, type Educator } from '../../support/courses.js';

/** Who may read an educator's analytics, and which ranges are refused (issue 13). */
const ctx = useCoursesApp();
let other: Educator;
let learner: SignedInUser;
let admin: SignedInUser;
let courseId: string;
let othersCourse: string;

const paths = (id: string) => [
  `/api/educator/${id}/analytics`,
  `/api/educator/${id}/analytics/courses.csv`,
  `/api/educator/${id}/analytics/sales.csv`,
];

beforeAll(async () => {
  ({ courseId } = await makePublishedCourse(ctx.app, ctx.educator));
  other = await makeEducator(ctx.app);
  ({ courseId: othersCourse } = await makePublishedCourse(ctx.app, other));
  learner = await createSignedInUser(ctx.app);
  admin = await createSignedInUser(ctx.app);
  await queryRows(ctx.app, sql`update "user" set role = 'admin' where id = ${admin.id}`);
});

describe('who may see an educator analytics', () => {
  it('the educator: the figures and both CSVs', async () => {
    for (const path of paths(ctx.educator.id))
      expect((await get(ctx.app, path, { cookie: ctx.educator.cookie })).statusCode, path).toBe(200);
  });
  it('another educator: 404 for the figures and the CSVs', async () => {
    for (const path of paths(ctx.educator.id)) {
      const res = await get(ctx.app, path, { cookie: other.cookie });
      expect(res.statusCode, path).toBe(404);
      expect(res.body).not.toContain('Course');
    }
  });
  it('a learner: 404; nobody signed in: 401', async () => {
    for (const path of paths(ctx.educator.id)) {
      expect((await get(ctx.app, path, { cookie: learner.cookie })).statusCode, path).toBe(404);
      expect((await get(ctx.app, path)).statusCode, path).toBe(401);
    }
  });
  it('an admin may read them', async () => {
    for (const path of paths(ctx.educator.id)) expect((await get(ctx.app, path, { cookie: admin.cookie })).statusCode, path).toBe(200);
  });
  it("a filter on another educator's course: 404", async () => {
    const res = await get(ctx.app, `/api/educator/${ctx.educator.id}/analytics?course=${othersCourse}`, { cookie: ctx.educator.cookie });
    expect(res.statusCode).toBe(404);
    const mine = await get(ctx.app, `/api/educator/${ctx.educator.id}/analytics?course=${courseId}`, { cookie: ctx.educator.cookie });
    expect(mine.statusCode).toBe(200);
  });
  it('a user who is not an educator, on their own id: 404', async () => {
    expect((await get(ctx.app, `/api/educator/${learner.id}/analytics`, { cookie: learner.cookie })).statusCode).toBe(404);
  });
});

describe('ranges', () => {
  const ask = (query: string) => get(ctx.app, `/api/educator/${ctx.educator.id}/analytics${query}`, { cookie: ctx.educator.cookie });
  it('the end before the start: 400 on "to"', async () => {
    const res = await ask('?from=2026-03-10&to=2026-03-01');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ to: 'The end must be on or after the start' });
  });
  it('more than five years: 400 on "from"', async () => {
    const res = await ask('?from=2019-01-01&to=2026-01-01');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ from: 'A range can be at most 5 years long' });
  });
  it('impossible dates: 400 on the field', async () => {
    for (const [query, field] of [
      ['?from=2026-02-30&to=2026-03-10', 'from'],
      ['?from=2026-01-01&to=2026-13-01', 'to'],
      ['?from=yesterday', 'from'],
      ['?to=2026-1-1', 'to'],
    ] as const) {
      const res = await ask(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.fields[field], query).toBe('Enter a real date as YYYY-MM-DD');
      expect(res.json().error.message).toContain(field);
    }
    const csv = await get(ctx.app, `/api/educator/${ctx.educator.id}/analytics/sales.csv?from=2026-02-30`, { cookie: ctx.educator.cookie });
    expect(csv.statusCode).toBe(400);
  });
  it('a course that is not an id: 400 on "course"', async () => {
    const res = await ask('?course=abc');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ course: 'Unknown course' });
  });
  it('buckets follow the length: days up to a month, weeks up to six months, months beyond', async () => {
    expect((await ask('?from=2026-01-01&to=2026-01-31')).json().bucket).toBe('day');
    expect((await ask('?from=2026-01-01&to=2026-03-31')).json().bucket).toBe('week');
    const year = (await ask('?from=2025-01-01&to=2025-12-31')).json();
    expect(year.bucket).toBe('month');
    expect(year.series.enrolments).toHaveLength(12);
    expect([year.previousFrom, year.previousTo]).toEqual(['2024-01-02', '2024-12-31']); // 365 days: the same length (2024 is a leap year);
  });
  it('figures of a small catalogue are computed afresh on every request (only 100+ courses are kept 30 s)', async () => {
    const before = (await ask('')).json().figures.enrolments.current;
    const { sessionId } = await makePublishedCourse(ctx.app, ctx.educator, { course: { title: 'Another one' } });
    const [newCourse] = await queryRows<{ course_id: string }>(ctx.app, sql`select course_id from course_session where id = ${sessionId}`);
    expect((await enrol(ctx.app, learner, newCourse.course_id, sessionId)).statusCode).toBe(200);
    const after = (await ask('')).json();
    expect(after.figures.enrolments.current).toBe(before + 1);
    expect(Date.parse(after.asOf)).toBeGreaterThan(Date.now() - 60_000);
  });
  it('a new educator: no activity yet', async () => {
    const fresh = await makeEducator(ctx.app);
    const res = await get(ctx.app, `/api/educator/${fresh.id}/analytics`, { cookie: fresh.cookie });
    expect(res.json()).toMatchObject({ hasActivity: false, courses: [], table: [], revenue: [] });
  });
});
