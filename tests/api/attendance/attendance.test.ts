import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { get } from '../../support/http.js';
import {
  classTimeBody,
  dayFromNow,
  enrol,
  makeClassTimes,
  makeEducator,
  makeLearner,
  makePublishedCourse,
  queryRows,
  useCoursesApp,
  type Educator,
} from '../../support/courses.js';
import type { SignedInUser } from '../../support/factories.js';
import { mark, sheet } from './support.js';

const ctx = useCoursesApp();

/** Attendance (issue 25): one tap per learner and class time, by the course's educator only. */
describe('attendance', () => {
  let courseId: string;
  let sessionId: string;
  let classTimeIds: string[];
  let ada: SignedInUser;
  let bob: SignedInUser;
  let other: Educator;
  beforeAll(async () => {
    let first: string[];
    ({ courseId, sessionId, classTimeIds: first } = await makePublishedCourse(ctx.app, ctx.educator, { session: { capacity: 2 } }));
    classTimeIds = [...first, ...(await makeClassTimes(ctx.app, ctx.educator, courseId, sessionId, classTimeBody(40, { repeatWeeks: 2 })))];
    ada = await makeLearner(ctx.app, { firstName: 'Ada', lastName: 'Lovelace' });
    bob = await makeLearner(ctx.app, { firstName: 'Bob', lastName: 'Jones' });
    other = await makeEducator(ctx.app, { firstName: 'Olga', lastName: 'Other' });
    expect((await enrol(ctx.app, ada, courseId, sessionId)).statusCode).toBe(200);
    expect((await enrol(ctx.app, bob, courseId, sessionId)).statusCode).toBe(200);
  });

  it('concurrent taps on one class time leave one record per learner', async () => {
    const classTimeId = classTimeIds[0];
    const values = ['present', 'late', 'absent'];
    const taps = Array.from({ length: 24 }, (_, i) =>
      mark(ctx.app, ctx.educator, { courseId, sessionId, classTimeId, learnerId: i % 2 ? ada.id : bob.id }, values[i % 3]),
    );
    const answers = await Promise.all(taps);
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
    const rows = await queryRows<{ learner_id: string; n: number }>(
      ctx.app,
      sql`select learner_id, count(*)::int as n from attendance_mark where class_time_id = ${classTimeId} group by learner_id`,
    );
    expect(rows.map((r) => r.n)).toEqual([1, 1]);
    // The sheet shows one mark per learner, the one stored.
    const s = (await sheet(ctx.app, ctx.educator, courseId, sessionId)).json();
    expect(s.marks.filter((m: { classTimeId: string }) => m.classTimeId === classTimeId)).toHaveLength(2);
    expect(s.learners.map((l: { name: string }) => l.name)).toEqual(['Ada Lovelace', 'Bob Jones']);
  });

  it('a second tap changes the mark', async () => {
    const ids = { courseId, sessionId, classTimeId: classTimeIds[1], learnerId: ada.id };
    expect((await mark(ctx.app, ctx.educator, ids, 'absent')).json().mark).toBe('absent');
    expect((await mark(ctx.app, ctx.educator, ids, 'late')).json().mark).toBe('late');
    const [row] = await queryRows<{ mark: string }>(
      ctx.app,
      sql`select mark from attendance_mark where class_time_id = ${ids.classTimeId} and learner_id = ${ada.id}`,
    );
    expect(row.mark).toBe('late');
  });

  it('refuses another educator, a learner and nobody signed in; the sheet too', async () => {
    const ids = { courseId, sessionId, classTimeId: classTimeIds[2], learnerId: ada.id };
    expect((await mark(ctx.app, other, ids, 'present')).statusCode).toBe(403);
    expect((await mark(ctx.app, ada, ids, 'present')).statusCode).toBe(403);
    expect((await mark(ctx.app, {}, ids, 'present')).statusCode).toBe(401);
    expect((await sheet(ctx.app, other, courseId, sessionId)).statusCode).toBe(403);
    expect((await sheet(ctx.app, ada, courseId, sessionId)).statusCode).toBe(403);
    const [n] = await queryRows<{ n: number }>(
      ctx.app,
      sql`select count(*)::int as n from attendance_mark where class_time_id = ${ids.classTimeId}`,
    );
    expect(n.n).toBe(0);
  });

  it("marks only the session's enrolled learners, at its own class times", async () => {
    const stranger = await makeLearner(ctx.app);
    const base = { courseId, sessionId, classTimeId: classTimeIds[0] };
    const res = await mark(ctx.app, ctx.educator, { ...base, learnerId: stranger.id }, 'present');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toMatch(/not enrolled/);
    // Waitlisted (the session is full): not on the sheet, cannot be marked.
    const waiting = await makeLearner(ctx.app);
    expect((await enrol(ctx.app, waiting, courseId, sessionId)).json().enrolment.status).toBe('waitlisted');
    expect((await mark(ctx.app, ctx.educator, { ...base, learnerId: waiting.id }, 'present')).statusCode).toBe(404);
    // A class time of another of the educator's sessions.
    const elsewhere = await makePublishedCourse(ctx.app, ctx.educator);
    expect(
      (await mark(ctx.app, ctx.educator, { ...base, classTimeId: elsewhere.classTimeIds[0], learnerId: ada.id }, 'present')).statusCode,
    ).toBe(404);
    // A mark that is not one of the three.
    expect((await mark(ctx.app, ctx.educator, { ...base, learnerId: ada.id }, 'asleep')).statusCode).toBe(400);
  });

  it('a learner sees their own record only', async () => {
    const mine = (await get(ctx.app, '/api/attendance/mine', { cookie: ada.cookie })).json();
    const s = mine.sessions.find((x: { sessionId: string }) => x.sessionId === sessionId);
    expect(s.total).toBe(classTimeIds.length);
    const adaMarks = await queryRows<{ class_time_id: string; mark: string }>(
      ctx.app,
      sql`select class_time_id, mark from attendance_mark where learner_id = ${ada.id}`,
    );
    for (const m of adaMarks) expect(s.classes.find((c: { classTimeId: string }) => c.classTimeId === m.class_time_id).mark).toBe(m.mark);
    expect(JSON.stringify(mine)).not.toContain(bob.id);
    // Bob's own view shows Bob's mark at the first class, not Ada's.
    const bobs = (await get(ctx.app, '/api/attendance/mine', { cookie: bob.cookie })).json();
    const [bobMark] = await queryRows<{ mark: string }>(
      ctx.app,
      sql`select mark from attendance_mark where learner_id = ${bob.id} and class_time_id = ${classTimeIds[0]}`,
    );
    const bobSession = bobs.sessions.find((x: { sessionId: string }) => x.sessionId === sessionId);
    expect(bobSession.classes.find((c: { classTimeId: string }) => c.classTimeId === classTimeIds[0]).mark).toBe(bobMark.mark);
    expect(bobSession.classes.find((c: { classTimeId: string }) => c.classTimeId === classTimeIds[1]).mark).toBeNull();
    expect((await get(ctx.app, '/api/attendance/mine')).statusCode).toBe(401);
  });

  it('the educator analytics gives an attendance rate per session', async () => {
    const fresh = await makePublishedCourse(ctx.app, ctx.educator, { session: { capacity: 5 } });
    const [second] = await makeClassTimes(ctx.app, ctx.educator, fresh.courseId, fresh.sessionId, classTimeBody(45));
    const l1 = await makeLearner(ctx.app);
    const l2 = await makeLearner(ctx.app);
    await enrol(ctx.app, l1, fresh.courseId, fresh.sessionId);
    await enrol(ctx.app, l2, fresh.courseId, fresh.sessionId);
    const ids = { courseId: fresh.courseId, sessionId: fresh.sessionId };
    await mark(ctx.app, ctx.educator, { ...ids, classTimeId: fresh.classTimeIds[0], learnerId: l1.id }, 'present');
    await mark(ctx.app, ctx.educator, { ...ids, classTimeId: fresh.classTimeIds[0], learnerId: l2.id }, 'late');
    await mark(ctx.app, ctx.educator, { ...ids, classTimeId: second, learnerId: l1.id }, 'present');
    await mark(ctx.app, ctx.educator, { ...ids, classTimeId: second, learnerId: l2.id }, 'absent');
    // The session started a few days ago (the analytics chart sessions that started in the range).
    await ctx.app.database.db.execute(sql`update course_session set starts_on = ${dayFromNow(-3)}::date where id = ${fresh.sessionId}`);
    const res = await get(
      ctx.app,
      `/api/educator/${ctx.educator.id}/analytics?from=${dayFromNow(-10)}&to=${dayFromNow(0)}&course=${fresh.courseId}`,
      {
        cookie: ctx.educator.cookie,
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    const row = res.json().series.fill.find((s: { sessionId: string }) => s.sessionId === fresh.sessionId);
    expect(row.attendanceRate).toBeCloseTo(3 / 4);
  });
});

describe('the OpenAPI document', () => {
  it('describes every attendance and certificate endpoint', async () => {
    const doc = (await get(ctx.app, '/api/docs/json')).json();
    const expected: [string, string][] = [
      ['/api/courses/{courseId}/sessions/{sessionId}/attendance', 'get'],
      ['/api/courses/{courseId}/sessions/{sessionId}/class-times/{classTimeId}/attendance/{learnerId}', 'put'],
      ['/api/attendance/mine', 'get'],
      ['/api/courses/{courseId}/certificate-rule', 'get'],
      ['/api/courses/{courseId}/certificate-rule', 'put'],
      ['/api/certificates/{code}', 'get'],
      ['/api/certificates/{code}/pdf', 'get'],
      ['/api/certificates/{code}/revoke', 'post'],
    ];
    for (const [path, method] of expected) expect(doc.paths[path]?.[method]?.tags, `${method} ${path}`).toEqual(['attendance']);
  });
});
