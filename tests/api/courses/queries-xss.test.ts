import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/app.js';
import { useRecordingApp } from '../../support/recording-app.js';
import { createSignedInUser, type SignedInUser } from '../../support/factories.js';
import { call, get } from '../../support/http.js';
import {
  classTimeBody,
  courseBody,
  enrol,
  getCourse,
  makeClassTimes,
  makeCourse,
  makeEducator,
  makePublishedCourse,
  makeSession,
  publish,
  putReview,
  firstClassTookPlace,
  queryRows,
  type Educator,
} from '../../support/courses.js';

const recorder = useRecordingApp();
let app: TestApp;
let educator: Educator;
let learner: SignedInUser;
beforeAll(async () => {
  app = recorder.app;
  educator = await makeEducator(app);
  learner = await createSignedInUser(app);
});

/** The SQL statements one request makes. */
const queriesOf = (run: () => Promise<{ statusCode: number; body: string }>) => recorder.statementsOf(run);

describe('no N+1 queries', () => {
  it('GET /api/courses/:id makes as many queries for 5 sessions x 8 class times as for 1 x 1', async () => {
    const small = await makePublishedCourse(app, educator);
    const big = await makeCourse(app, educator, { title: 'A long course' });
    for (let s = 0; s < 5; s++) {
      const sessionId = await makeSession(app, educator, big);
      await makeClassTimes(app, educator, big, sessionId, { ...classTimeBody(20 + s), repeatWeeks: 8, extendSession: true });
    }
    await publish(app, educator, big);
    // Some enrolments and reviews on both, so every part of the page has rows.
    for (const id of [small.courseId, big]) {
      const view = (await getCourse(app, learner, id)).json();
      await enrol(app, learner, id, view.sessions[0].id);
      await firstClassTookPlace(app, id);
      expect((await putReview(app, learner, id, { rating: 5, text: 'Lovely' })).statusCode).toBe(200);
    }
    const bigView = (await getCourse(app, learner, big)).json();
    expect(bigView.sessions).toHaveLength(5);
    expect(bigView.sessions.flatMap((s: { classTimes: unknown[] }) => s.classTimes)).toHaveLength(40);

    // A write to the educator's courses since the last visit: this server's copy of each
    // page's shared part is stale, so the first visit builds it; the next one reads the viewer's part only.
    await queryRows(app, sql`update course set updated_at = now() where id = ${big}`);
    const isPage = (q: string) => /\b(from|join) "?course"?\s/.test(q);
    for (const [visit, who] of [
      ['first', learner],
      ['again', learner],
      ['again', educator],
    ] as const) {
      const few = await queriesOf(() => getCourse(app, who, small.courseId));
      const many = await queriesOf(() => getCourse(app, who, big));
      // Which visit and which statements, should the counts ever differ (seen once, at load 20).
      const said = `${visit} visit by the ${who === learner ? 'learner' : 'educator'}: 1 x 1 made [${few.join(' ; ')}], 5 x 8 made [${many.join(' ; ')}]`;
      expect(many.length, said).toBe(few.length);
      expect(many.length, said).toBeLessThanOrEqual(visit === 'first' ? 3 : 2); // + an occasional session touch
      const page = many.filter(isPage);
      // One statement reads the viewer (their sign-in session) with their part of the page
      // (enrolments inside); the shared part (sessions, class times, reviews) is one more.
      expect(page).toHaveLength(visit === 'first' ? 2 : 1);
      expect(page[0]).toMatch(/from session s/);
      expect(page[0]).toMatch(/from enrolment/);
      if (visit === 'first') expect(page[1]).toMatch(/from class_time/);
      expect(many.filter((q) => !isPage(q) && !/^update "session"/.test(q))).toEqual([]);
    }
  });

  it('the dashboard and the roster do not grow with the number of enrolments either', async () => {
    const one = await makePublishedCourse(app, educator);
    const more = await makePublishedCourse(app, educator);
    const a = await createSignedInUser(app);
    await enrol(app, a, one.courseId, one.sessionId);
    for (let i = 0; i < 6; i++) await enrol(app, await createSignedInUser(app), more.courseId, more.sessionId);
    await enrol(app, a, more.courseId, more.sessionId);

    const rosterFew = await queriesOf(() => get(app, `/api/courses/${one.courseId}/roster`, { cookie: educator.cookie }));
    const rosterMany = await queriesOf(() => get(app, `/api/courses/${more.courseId}/roster`, { cookie: educator.cookie }));
    expect(rosterMany.length).toBe(rosterFew.length);

    const b = await createSignedInUser(app);
    await enrol(app, b, one.courseId, one.sessionId);
    const dashFew = await queriesOf(() => get(app, '/api/dashboard', { cookie: b.cookie }));
    const dashMany = await queriesOf(() => get(app, '/api/dashboard', { cookie: a.cookie }));
    expect(dashMany.length).toBe(dashFew.length);
  });
});

describe('stored XSS payloads are kept and answered as plain text', () => {
  const script = '<script>alert(1)</script>';
  const img = '<img src=x onerror=alert(1)>';

  it('a course title and description with <script> and onerror= come back exactly as typed, in JSON', async () => {
    const title = `${script} Watercolour ${img}`;
    const description = `# Welcome\n\n${script}\n\n${img}\n\n[click](javascript:alert(1)) and <a href="javascript:alert(1)">me</a>`;
    const summary = `Learn with us ${img}`;
    const id = await makeCourse(app, educator, { title, description, summary });
    await makeSession(app, educator, id);
    await publish(app, educator, id);

    const [row] = await queryRows<{ title: string; description: string }>(app, sql`select title, description from course where id = ${id}`);
    expect(row).toEqual({ title, description });

    const visitor = await createSignedInUser(app);
    const res = await getCourse(app, visitor, id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.json()).toMatchObject({ title, description, summary });

    // The educator's public profile lists it verbatim too.
    const profile = (await get(app, `/api/educators/${educator.id}`, { cookie: visitor.cookie })).json();
    expect(profile.courses.find((c: { id: string }) => c.id === id).title).toBe(title);
  });

  it('a review and an educator bio keep the payloads as text', async () => {
    const { courseId, sessionId } = await makePublishedCourse(app, educator);
    const reviewer = await createSignedInUser(app);
    await enrol(app, reviewer, courseId, sessionId);
    await firstClassTookPlace(app, courseId);
    const text = `Great ${script} ${img}`;
    expect((await putReview(app, reviewer, courseId, { rating: 5, text })).statusCode).toBe(200);
    expect((await getCourse(app, reviewer, courseId)).json().reviews[0].text).toBe(text);

    const bio = `I teach painting. ${script} ${img}`;
    const res = await call(
      app,
      'PUT',
      `/api/educators/${educator.id}`,
      {
        headline: 'Painter',
        bio,
        subjects: [img],
        links: [],
      },
      { cookie: educator.cookie },
    );
    expect(res.statusCode, res.body).toBe(200);
    const profile = (await get(app, `/api/educators/${educator.id}`, { cookie: reviewer.cookie })).json();
    expect(profile).toMatchObject({ bio, subjects: [img] });
  });

  it('the course body is validated, not sanitised: the same payload round-trips through PUT', async () => {
    const id = await makeCourse(app, educator);
    const title = `${img}${script}`;
    expect((await call(app, 'PUT', `/api/courses/${id}`, courseBody({ title }), { cookie: educator.cookie })).statusCode).toBe(200);
    expect((await getCourse(app, educator, id)).json().title).toBe(title);
  });
});
