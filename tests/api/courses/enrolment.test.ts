import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { enrolLearner } from '../../../src/server/courses/seats.js';
import { createSignedInUser, outbox, type SignedInUser } from '../../support/factories.js';
import {
  drop,
  enrol,
  enrolmentCounts,
  getCourse,
  makeCourse,
  makePublishedCourse,
  makeSession,
  patchSession,
  queryRows,
  seatsTaken,
  useCoursesApp,
} from '../../support/courses.js';

const ctx = useCoursesApp();

const enrolmentRows = (sessionId: string, learnerId: string) =>
  queryRows(ctx.app, sql`select status from enrolment where session_id = ${sessionId} and learner_id = ${learnerId}`);

describe('enrolment rules', () => {
  let learner: SignedInUser;
  beforeAll(async () => {
    learner = await createSignedInUser(ctx.app);
  });

  it('a free session enrols at once ("You\'re enrolled") and the course shows it', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator);
    const res = await enrol(ctx.app, learner, courseId, sessionId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      enrolment: { sessionId, status: 'active', waitlistPosition: null },
      next: null,
      message: "You're enrolled",
    });
    const view = (await getCourse(ctx.app, learner, courseId)).json();
    expect(view.sessions[0]).toMatchObject({ seatsTaken: 1, seatsLeft: 9, myEnrolment: { id: res.json().enrolment.id, status: 'active' } });
    // An enrolled learner sees the meeting link; a visitor does not.
    expect(view.sessions[0].classTimes[0].meetingUrl).toBe('https://meet.example.com/room-1');
    const visitor = await createSignedInUser(ctx.app);
    expect((await getCourse(ctx.app, visitor, courseId)).json().sessions[0].classTimes[0].meetingUrl).toBeNull();
  });

  it('one enrolment per learner per session: a second one answers 409', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator);
    expect((await enrol(ctx.app, learner, courseId, sessionId)).statusCode).toBe(200);
    const again = await enrol(ctx.app, learner, courseId, sessionId);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('already_enrolled');
    expect(await enrolmentRows(sessionId, learner.id)).toHaveLength(1);
  });

  it('two enrolments of the same learner at once: one 200, one 409, one row', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator);
    const answers = await Promise.all([0, 1, 2].map(() => enrol(ctx.app, learner, courseId, sessionId)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await enrolmentRows(sessionId, learner.id)).toHaveLength(1);
    expect((await seatsTaken(ctx.app, sessionId)).seatsTaken).toBe(1);
  });

  it('a waitlisted learner enrolling again answers 409 too', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, { session: { capacity: 1 } });
    await enrol(ctx.app, await createSignedInUser(ctx.app), courseId, sessionId);
    expect((await enrol(ctx.app, learner, courseId, sessionId)).json().enrolment.status).toBe('waitlisted');
    const again = await enrol(ctx.app, learner, courseId, sessionId);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toMatch(/waitlist/);
  });

  it('the educator enrolling in their own course answers 400', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator);
    const res = await enrol(ctx.app, ctx.educator, courseId, sessionId);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('own_course');
    expect(await enrolmentCounts(ctx.app, sessionId)).toEqual({});
  });

  it('a draft course answers 404', async () => {
    const courseId = await makeCourse(ctx.app, ctx.educator);
    const sessionId = await makeSession(ctx.app, ctx.educator, courseId);
    const res = await enrol(ctx.app, learner, courseId, sessionId);
    expect(res.statusCode).toBe(404);
    expect(await enrolmentCounts(ctx.app, sessionId)).toEqual({});
  });

  it('an archived course answers 404', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator);
    await ctx.app.inject({
      method: 'POST',
      url: `/api/courses/${courseId}/archive`,
      headers: { origin: ctx.app.config.publicUrl, cookie: ctx.educator.cookie },
    });
    expect((await enrol(ctx.app, learner, courseId, sessionId)).statusCode).toBe(404);
  });

  it('a cancelled session answers 400', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator);
    await makeSession(ctx.app, ctx.educator, courseId); // the course stays published with another session
    expect((await patchSession(ctx.app, ctx.educator, courseId, sessionId, { status: 'cancelled' })).statusCode).toBe(200);
    const res = await enrol(ctx.app, learner, courseId, sessionId);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('session_cancelled');
    expect(await enrolmentCounts(ctx.app, sessionId)).toEqual({});
  });

  it('a past session answers 400', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator);
    // The API refuses past dates, so the session is moved into the past directly.
    await ctx.app.database.db.execute(
      sql`update course_session set starts_on = current_date - 30, ends_on = current_date - 2 where id = ${sessionId}`,
    );
    const res = await enrol(ctx.app, learner, courseId, sessionId);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('session_past');
    expect(await enrolmentCounts(ctx.app, sessionId)).toEqual({});
    expect((await getCourse(ctx.app, learner, courseId)).json().sessions[0].status).toBe('completed');
  });

  it('a paid session answers with the checkout as next, and creates no enrolment', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, { course: { priceCents: 4900 } });
    const res = await enrol(ctx.app, learner, courseId, sessionId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().next).toBe(`/course/checkout?course=${courseId}&session=${sessionId}`);
    expect(res.json().enrolment.status).toBe('pending_payment');
    expect(await enrolmentCounts(ctx.app, sessionId)).toEqual({});
    expect(await seatsTaken(ctx.app, sessionId)).toEqual({ seatsTaken: 0, capacity: 10 });
  });

  it('a session of another course (mismatched ids) answers 404', async () => {
    const a = await makePublishedCourse(ctx.app, ctx.educator);
    const b = await makePublishedCourse(ctx.app, ctx.educator);
    expect((await enrol(ctx.app, learner, a.courseId, b.sessionId)).statusCode).toBe(404);
    expect(await enrolmentCounts(ctx.app, b.sessionId)).toEqual({});
  });

  it('dropping without an enrolment answers 404; after dropping the learner may enrol again', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator);
    expect((await drop(ctx.app, learner, courseId, sessionId)).statusCode).toBe(404);
    expect((await enrol(ctx.app, learner, courseId, sessionId)).statusCode).toBe(200);
    const dropped = await drop(ctx.app, learner, courseId, sessionId);
    expect(dropped.statusCode, dropped.body).toBe(200);
    expect(await seatsTaken(ctx.app, sessionId)).toEqual({ seatsTaken: 0, capacity: 10 });
    expect((await drop(ctx.app, learner, courseId, sessionId)).statusCode).toBe(404);
    expect((await enrol(ctx.app, learner, courseId, sessionId)).json().enrolment.status).toBe('active');
    expect(await enrolmentCounts(ctx.app, sessionId)).toEqual({ active: 1, dropped: 1 });
  });
});

describe('the one enrolment function (what a confirmed payment calls)', () => {
  it('seatOnly takes a free seat, and refuses (409) instead of waitlisting when the session is full', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, {
      course: { priceCents: 2500 },
      session: { capacity: 1 },
    });
    const payer = await createSignedInUser(ctx.app);
    const late = await createSignedInUser(ctx.app);
    const db = ctx.app.database.db;
    const first = await db.transaction((tx) => enrolLearner(tx, { sessionId, learnerId: payer.id, seatOnly: true }));
    expect(first).toMatchObject({ status: 'active', waitlistPosition: null, course: { id: courseId } });
    await expect(db.transaction((tx) => enrolLearner(tx, { sessionId, learnerId: late.id, seatOnly: true }))).rejects.toMatchObject({
      status: 409,
      code: 'session_full',
    });
    expect(await enrolmentCounts(ctx.app, sessionId)).toEqual({ active: 1 });
    expect(await seatsTaken(ctx.app, sessionId)).toEqual({ seatsTaken: 1, capacity: 1 });
    expect((await getCourse(ctx.app, payer, courseId)).json().sessions[0].myEnrolment.status).toBe('active');
  });

  it('it applies the same rules: no seat in your own course or a cancelled session', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, { course: { priceCents: 2500 } });
    const db = ctx.app.database.db;
    await expect(db.transaction((tx) => enrolLearner(tx, { sessionId, learnerId: ctx.educator.id, seatOnly: true }))).rejects.toMatchObject(
      { status: 400, code: 'own_course' },
    );
    await makeSession(ctx.app, ctx.educator, courseId);
    await patchSession(ctx.app, ctx.educator, courseId, sessionId, { status: 'cancelled' });
    const payer = await createSignedInUser(ctx.app);
    await expect(db.transaction((tx) => enrolLearner(tx, { sessionId, learnerId: payer.id, seatOnly: true }))).rejects.toMatchObject({
      status: 400,
      code: 'session_cancelled',
    });
    expect(await enrolmentCounts(ctx.app, sessionId)).toEqual({});
  });
});

describe('requests from another site', () => {
  it('an enrolment posted from another origin is refused (403) and creates nothing', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator);
    const learner = await createSignedInUser(ctx.app);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/courses/${courseId}/sessions/${sessionId}/enrol`,
      headers: { origin: 'https://evil.example', cookie: learner.cookie },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('bad_origin');
    expect(await enrolmentCounts(ctx.app, sessionId)).toEqual({});
  });
});

describe('capacity under concurrency (real PostgreSQL, the app pool)', () => {
  let learners: SignedInUser[];
  beforeAll(async () => {
    learners = [];
    for (let i = 0; i < 24; i++) learners.push(await createSignedInUser(ctx.app, { firstName: `Learner${i}` }));
  }, 180_000);

  /** Every learner's enrolment in a session, from the database. */
  const statuses = async (sessionId: string) =>
    Object.fromEntries(
      (
        await queryRows<{ learner_id: string; status: string }>(
          ctx.app,
          sql`select learner_id, status from enrolment where session_id = ${sessionId} and status <> 'dropped'`,
        )
      ).map((r) => [r.learner_id, r.status]),
    );

  /** The invariant: the seat counter equals the active enrolments, within capacity, and no seat idles while someone waits. */
  async function expectConsistent(sessionId: string) {
    const { seatsTaken: taken, capacity } = await seatsTaken(ctx.app, sessionId);
    const counts = await enrolmentCounts(ctx.app, sessionId);
    const active = counts.active ?? 0;
    expect(taken).toBe(active);
    expect(active).toBeLessThanOrEqual(capacity);
    if ((counts.waitlisted ?? 0) > 0) expect(active).toBe(capacity);
    return { active, waitlisted: counts.waitlisted ?? 0, capacity };
  }

  it('20 learners enrol at once for 3 seats: exactly 3 active, 17 waitlisted at positions 1..17; drops promote exactly one, the first in line', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, { session: { capacity: 3 } });
    const twenty = learners.slice(0, 20);

    const answers = await Promise.all(twenty.map((l) => enrol(ctx.app, l, courseId, sessionId)));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const results = answers.map((a) => a.json().enrolment);
    expect(results.filter((e) => e.status === 'active')).toHaveLength(3);
    expect(results.filter((e) => e.status === 'waitlisted')).toHaveLength(17);
    const positions = results
      .filter((e) => e.status === 'waitlisted')
      .map((e) => e.waitlistPosition)
      .sort((x, y) => x - y);
    expect(positions).toEqual(Array.from({ length: 17 }, (_, i) => i + 1));
    for (const a of answers.filter((x) => x.json().enrolment.status === 'waitlisted')) {
      expect(a.json().message).toBe(`This session is full: you are number ${a.json().enrolment.waitlistPosition} on the waitlist`);
    }

    expect(await seatsTaken(ctx.app, sessionId)).toEqual({ seatsTaken: 3, capacity: 3 });
    expect(await enrolmentCounts(ctx.app, sessionId)).toEqual({ active: 3, waitlisted: 17 });

    // The course page tells each waiting learner the same position.
    const byLearner = new Map(twenty.map((l, i) => [l.id, results[i]]));
    const viewPositions: number[] = [];
    for (const l of twenty) {
      const mine = (await getCourse(ctx.app, l, courseId)).json().sessions[0];
      expect(mine.myEnrolment.status).toBe(byLearner.get(l.id)!.status);
      if (mine.myEnrolment.status === 'waitlisted') {
        expect(mine.myEnrolment.waitlistPosition).toBe(byLearner.get(l.id)!.waitlistPosition);
        viewPositions.push(mine.myEnrolment.waitlistPosition);
      }
      expect(mine).toMatchObject({ seatsTaken: 3, seatsLeft: 0, waitlisted: 17, status: 'full' });
    }
    expect(new Set(viewPositions).size).toBe(17);

    // An active learner drops: exactly one waiting learner, number 1, gets the seat and an email.
    const activeLearner = twenty.find((l) => byLearner.get(l.id)!.status === 'active')!;
    const first = twenty.find((l) => byLearner.get(l.id)!.waitlistPosition === 1)!;
    const second = twenty.find((l) => byLearner.get(l.id)!.waitlistPosition === 2)!;
    const before = await statuses(sessionId);
    const dropped = await drop(ctx.app, activeLearner, courseId, sessionId);
    expect(dropped.statusCode, dropped.body).toBe(200);
    const after = await statuses(sessionId);
    const changed = Object.keys(after).filter((id) => after[id] !== before[id]);
    expect(changed).toEqual([first.id]);
    expect(after[first.id]).toBe('active');
    expect(after[activeLearner.id]).toBeUndefined();
    expect(await seatsTaken(ctx.app, sessionId)).toEqual({ seatsTaken: 3, capacity: 3 });
    expect(await enrolmentCounts(ctx.app, sessionId)).toEqual({ active: 3, waitlisted: 16, dropped: 1 });

    const mail = await outbox(ctx.app, first.email);
    expect(mail.filter((m) => /seat opened up/i.test(m.subject))).toHaveLength(1);
    expect(mail[0].text).toContain(`/course/${courseId}`);
    expect((await outbox(ctx.app, second.email)).filter((m) => /seat opened up/i.test(m.subject))).toHaveLength(0);
    // Number 2 is now number 1.
    expect((await getCourse(ctx.app, second, courseId)).json().sessions[0].myEnrolment).toMatchObject({
      status: 'waitlisted',
      waitlistPosition: 1,
    });

    // A waiting learner drops: no seat is freed, nobody is promoted.
    const before2 = await statuses(sessionId);
    expect((await drop(ctx.app, second, courseId, sessionId)).statusCode).toBe(200);
    const after2 = await statuses(sessionId);
    const { [second.id]: gone, ...others } = before2;
    expect(gone).toBe('waitlisted');
    expect(after2).toEqual(others);
    expect(Object.values(after2).filter((s) => s === 'active')).toHaveLength(3);
    expect(await seatsTaken(ctx.app, sessionId)).toEqual({ seatsTaken: 3, capacity: 3 });
    expect(await enrolmentCounts(ctx.app, sessionId)).toEqual({ active: 3, waitlisted: 15, dropped: 2 });
    await expectConsistent(sessionId);
  }, 120_000);

  it('10 drops and enrolments interleaved at once never exceed capacity and leave no seat idle', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, { session: { capacity: 4 } });
    const pool = learners.slice(0, 24);
    // 8 enrolled in order: 4 active, 4 waiting.
    for (const l of pool.slice(0, 8)) expect((await enrol(ctx.app, l, courseId, sessionId)).statusCode).toBe(200);
    expect(await expectConsistent(sessionId)).toEqual({ active: 4, waitlisted: 4, capacity: 4 });

    for (let round = 0; round < 3; round++) {
      const st = await statuses(sessionId);
      const enrolled = pool.filter((l) => st[l.id]);
      const outside = pool.filter((l) => !st[l.id]);
      const actives = enrolled.filter((l) => st[l.id] === 'active');
      const waiting = enrolled.filter((l) => st[l.id] === 'waitlisted');
      const drops = [...actives.slice(0, 3), ...waiting.slice(0, 2)];
      const joins = outside.slice(0, 5);
      const calls = [] as Promise<{ statusCode: number; body: string }>[];
      for (let i = 0; i < 5; i++) {
        if (drops[i]) calls.push(drop(ctx.app, drops[i], courseId, sessionId));
        if (joins[i]) calls.push(enrol(ctx.app, joins[i], courseId, sessionId));
      }
      const answers = await Promise.all(calls);
      for (const a of answers) expect(a.statusCode, a.body).toBe(200);
      await expectConsistent(sessionId);
    }
    const [{ n }] = await queryRows<{ n: number }>(
      ctx.app,
      sql`select count(*)::int as n from enrolment where session_id = ${sessionId} and status = 'active'`,
    );
    expect(Number(n)).toBe(4);
  }, 120_000);

  it('raising the capacity while learners enrol at once still never over-books', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, { session: { capacity: 2 } });
    const group = learners.slice(4, 16);
    const calls = [
      ...group.map((l) => enrol(ctx.app, l, courseId, sessionId)),
      patchSession(ctx.app, ctx.educator, courseId, sessionId, { capacity: 5 }),
    ];
    for (const a of await Promise.all(calls)) expect(a.statusCode, a.body).toBe(200);
    expect(await expectConsistent(sessionId)).toEqual({ active: 5, waitlisted: 7, capacity: 5 });
  }, 60_000);
});
