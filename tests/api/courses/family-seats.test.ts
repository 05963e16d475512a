import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSignedInUser } from '../../support/factories.js';
import {
  drop,
  enrol,
  enrolmentCounts,
  getCourse,
  makePublishedCourse,
  queryRows,
  seatsTaken,
  useCoursesApp,
} from '../../support/courses.js';
import { dropLearner, enrolLearners, makeLearnerProfile, setCourseAges } from '../../support/family.js';

const ctx = useCoursesApp();

/** The live enrolments of a session: whose account, which learner profile (null: the holder), status. */
const seatsOf = (sessionId: string) =>
  queryRows<{ learner_id: string; learner_profile_id: string | null; status: string }>(
    ctx.app,
    sql`select learner_id, learner_profile_id, status from enrolment where session_id = ${sessionId} and status <> 'dropped' order by created_at`,
  );

/** A parent (an account) with two learner profiles, Mia (9) and Leo (11). */
async function parentWithTwo(names: [string, string] = ['Mia', 'Leo']) {
  const parent = await createSignedInUser(ctx.app, { firstName: 'Pat' });
  const mia = await makeLearnerProfile(ctx.app, parent, { firstName: names[0], age: 9 });
  const leo = await makeLearnerProfile(ctx.app, parent, { firstName: names[1], age: 11 });
  return { parent, mia, leo };
}

describe('family accounts: one seat per learner (ADR 0074)', () => {
  it('two learner profiles enrolled in one call take two seats of a free session', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, { session: { capacity: 5 } });
    const { parent, mia, leo } = await parentWithTwo();
    const res = await enrolLearners(ctx.app, parent, courseId, sessionId, [mia.id, leo.id]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      enrolment: { sessionId, status: 'active' },
      enrolments: [
        { learnerProfileId: mia.id, learnerName: 'Mia', status: 'active', waitlistPosition: null },
        { learnerProfileId: leo.id, learnerName: 'Leo', status: 'active', waitlistPosition: null },
      ],
      next: null,
      message: 'Mia is enrolled; Leo is enrolled',
    });
    expect(await seatsTaken(ctx.app, sessionId)).toEqual({ seatsTaken: 2, capacity: 5 });
    expect((await seatsOf(sessionId)).map((r) => [r.learner_id, r.learner_profile_id, r.status])).toEqual([
      [parent.id, mia.id, 'active'],
      [parent.id, leo.id, 'active'],
    ]);
    // The page: the holder has no seat of their own; Mia's and Leo's are listed by name.
    const page = (await getCourse(ctx.app, parent, courseId)).json();
    expect(page.sessions[0].myEnrolment).toBeNull();
    expect(page.sessions[0].learnerEnrolments).toEqual([
      expect.objectContaining({ learnerProfileId: mia.id, firstName: 'Mia', status: 'active', waitlistPosition: null }),
      expect.objectContaining({ learnerProfileId: leo.id, firstName: 'Leo', status: 'active', waitlistPosition: null }),
    ]);
    expect(page.myLearners).toEqual([
      { id: mia.id, firstName: 'Mia', ageMin: 9, ageMax: 9, fitsAges: true },
      { id: leo.id, firstName: 'Leo', ageMin: 11, ageMax: 11, fitsAges: true },
    ]);
    // Enrolled learners open the meeting links for the account; another account sees neither seats nor learners.
    expect(page.sessions[0].classTimes[0].meetingUrl).toBe('https://meet.example.com/room-1');
    const other = (await getCourse(ctx.app, await createSignedInUser(ctx.app), courseId)).json();
    expect(other.sessions[0]).toMatchObject({ myEnrolment: null, learnerEnrolments: [] });
    expect(other.myLearners).toEqual([]);
  });

  it("the course page lists a parent's learners before any seat, with whether they fit the ages, and a waitlist place per learner", async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, { session: { capacity: 1 } });
    await setCourseAges(ctx.app, courseId, 10, 12);
    const { parent, mia, leo } = await parentWithTwo();
    const before = (await getCourse(ctx.app, parent, courseId)).json();
    expect(before).toMatchObject({ minAge: 10, maxAge: 12 });
    expect(before.myLearners.map((l: { firstName: string; fitsAges: boolean }) => [l.firstName, l.fitsAges])).toEqual([
      ['Mia', false],
      ['Leo', true],
    ]);
    const taker = await createSignedInUser(ctx.app);
    await enrol(ctx.app, taker, courseId, sessionId);
    expect((await enrolLearners(ctx.app, parent, courseId, sessionId, [leo.id])).json().message).toBe('Leo is number 1 on the waitlist');
    const after = (await getCourse(ctx.app, parent, courseId)).json();
    expect(after.sessions[0].learnerEnrolments).toEqual([
      expect.objectContaining({ learnerProfileId: leo.id, firstName: 'Leo', status: 'waitlisted', waitlistPosition: 1 }),
    ]);
    expect(after.sessions[0].myEnrolment).toBeNull();
    // A waitlisted learner does not open the links.
    expect(after.sessions[0].classTimes[0].meetingUrl).toBeNull();
    void mia;
  });

  it("the holder's own enrolment is unchanged: no body enrols the holder, a learner's seat is separate, each dropped alone", async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, { session: { capacity: 5 } });
    const { parent, mia } = await parentWithTwo();
    const own = await enrol(ctx.app, parent, courseId, sessionId);
    expect(own.json()).toMatchObject({
      enrolment: { status: 'active' },
      message: "You're enrolled",
      enrolments: [{ learnerProfileId: null }],
    });
    expect((await enrol(ctx.app, parent, courseId, sessionId)).json().error).toMatchObject({
      code: 'already_enrolled',
      message: 'You are already enrolled in this session',
    });
    const hers = await enrolLearners(ctx.app, parent, courseId, sessionId, [mia.id]);
    expect(hers.json()).toMatchObject({ message: 'Mia is enrolled' });
    const again = await enrolLearners(ctx.app, parent, courseId, sessionId, [mia.id]);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('Mia is already enrolled in this session');
    expect((await getCourse(ctx.app, parent, courseId)).json().sessions[0].myEnrolment).toMatchObject({ id: own.json().enrolment.id });
    // A bare drop is the holder's own: Mia keeps her seat.
    const dropped = await drop(ctx.app, parent, courseId, sessionId);
    expect(dropped.json()).toMatchObject({ ok: true, message: 'You have left this session' });
    expect((await seatsOf(sessionId)).map((r) => r.learner_profile_id)).toEqual([mia.id]);
    expect(await seatsTaken(ctx.app, sessionId)).toEqual({ seatsTaken: 1, capacity: 5 });
    const herDrop = await dropLearner(ctx.app, parent, courseId, sessionId, mia.id);
    expect(herDrop.json()).toMatchObject({ ok: true, message: 'Mia has left this session' });
    expect(await seatsOf(sessionId)).toEqual([]);
    expect((await dropLearner(ctx.app, parent, courseId, sessionId, mia.id)).json().error.message).toBe(
      'Mia is not enrolled in this session',
    );
  });

  it('more learners than seats: seats for as many as fit in the order chosen, the rest waitlisted in order', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, { session: { capacity: 2 } });
    const { parent, mia, leo } = await parentWithTwo();
    const res = await enrolLearners(ctx.app, parent, courseId, sessionId, ['me', leo.id, mia.id]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      enrolments: [
        { learnerProfileId: null, learnerName: null, status: 'active' },
        { learnerProfileId: leo.id, status: 'active' },
        { learnerProfileId: mia.id, status: 'waitlisted', waitlistPosition: 1 },
      ],
      message: 'You are enrolled; Leo is enrolled; Mia is number 1 on the waitlist',
    });
    expect(await enrolmentCounts(ctx.app, sessionId)).toEqual({ active: 2, waitlisted: 1 });
  });

  it('3 seats, two parents each enrolling 2 learners at once (10 rounds): exactly 3 seated, the 4th waitlisted, seats_taken = 3', async () => {
    for (let round = 0; round < 10; round++) {
      const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, { session: { capacity: 3 } });
      const a = await parentWithTwo(['Ann', 'Bob']);
      const b = await parentWithTwo(['Cy', 'Dee']);
      const answers = await Promise.all([
        enrolLearners(ctx.app, a.parent, courseId, sessionId, [a.mia.id, a.leo.id]),
        enrolLearners(ctx.app, b.parent, courseId, sessionId, [b.mia.id, b.leo.id]),
      ]);
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
      expect(await enrolmentCounts(ctx.app, sessionId)).toEqual({ active: 3, waitlisted: 1 });
      expect(await seatsTaken(ctx.app, sessionId)).toEqual({ seatsTaken: 3, capacity: 3 });
      // The one waiting is the second learner of whichever parent came second (order kept).
      const rows = await seatsOf(sessionId);
      const waiting = rows.find((r) => r.status === 'waitlisted')!;
      expect([a.leo.id, b.leo.id]).toContain(waiting.learner_profile_id);
      const waitingAnswer = answers.flatMap((r) => r.json().enrolments).find((e: { status: string }) => e.status === 'waitlisted');
      expect(waitingAnswer).toMatchObject({ learnerProfileId: waiting.learner_profile_id, waitlistPosition: 1 });
    }
  });

  it("a profile of another account answers 404 and seats nobody (not even the caller's own learner)", async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator);
    const { parent, mia } = await parentWithTwo();
    const other = await parentWithTwo(['Zoe', 'Max']);
    const res = await enrolLearners(ctx.app, parent, courseId, sessionId, [mia.id, other.mia.id]);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatchObject({ message: 'This learner does not exist', fields: { learnerIds: 'Unknown learner' } });
    expect(await seatsOf(sessionId)).toEqual([]);
    // Nor can another account drop a learner's seat it does not own.
    expect((await enrolLearners(ctx.app, other.parent, courseId, sessionId, [other.mia.id])).statusCode).toBe(200);
    const theirs = await dropLearner(ctx.app, parent, courseId, sessionId, other.mia.id);
    expect(theirs.statusCode).toBe(404);
    expect((await seatsOf(sessionId)).map((r) => r.learner_profile_id)).toEqual([other.mia.id]);
  });

  it("ages are checked per learner: 'Mia (7) is younger than this course's ages 8-12'; the holder is not checked", async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator);
    await setCourseAges(ctx.app, courseId, 8, 12);
    const parent = await createSignedInUser(ctx.app);
    const mia = await makeLearnerProfile(ctx.app, parent, { firstName: 'Mia', age: 7 });
    const leo = await makeLearnerProfile(ctx.app, parent, { firstName: 'Leo', age: 10 });
    const teen = await makeLearnerProfile(ctx.app, parent, { firstName: 'Sam', age: 13, ageMax: 14 });
    const young = await enrolLearners(ctx.app, parent, courseId, sessionId, [leo.id, mia.id]);
    expect(young.statusCode).toBe(400);
    expect(young.json().error).toMatchObject({
      code: 'age_out_of_range',
      message: "Mia (7) is younger than this course's ages 8-12",
      fields: { learnerIds: "Mia (7) is younger than this course's ages 8-12" },
    });
    const old = await enrolLearners(ctx.app, parent, courseId, sessionId, [teen.id]);
    expect(old.json().error.message).toBe("Sam (13-14) is older than this course's ages 8-12");
    expect(await seatsOf(sessionId)).toEqual([]);
    // Leo fits; the holder (no recorded age) is not checked.
    const ok = await enrolLearners(ctx.app, parent, courseId, sessionId, ['me', leo.id]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await seatsTaken(ctx.app, sessionId)).toMatchObject({ seatsTaken: 2 });
  });

  it("dropping one learner keeps the other's seat and gives the freed seat to the first on the waitlist", async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, { session: { capacity: 2 } });
    const { parent, mia, leo } = await parentWithTwo();
    expect((await enrolLearners(ctx.app, parent, courseId, sessionId, [mia.id, leo.id])).statusCode).toBe(200);
    const waiting = await createSignedInUser(ctx.app);
    expect((await enrol(ctx.app, waiting, courseId, sessionId)).json().enrolment).toMatchObject({
      status: 'waitlisted',
      waitlistPosition: 1,
    });
    const res = await dropLearner(ctx.app, parent, courseId, sessionId, leo.id);
    expect(res.json()).toMatchObject({ ok: true, message: 'Leo has left this session' });
    const rows = await seatsOf(sessionId);
    expect(rows.map((r) => [r.learner_id, r.learner_profile_id, r.status])).toEqual([
      [parent.id, mia.id, 'active'],
      [waiting.id, null, 'active'],
    ]);
    expect(await seatsTaken(ctx.app, sessionId)).toEqual({ seatsTaken: 2, capacity: 2 });
    // The promoted learner was told (and only them: Mia's seat did not move).
    const told = await queryRows<{ user_id: string; type: string }>(
      ctx.app,
      sql`select user_id, type from notification where type = 'waitlist_promoted' and data->>'sessionId' = ${sessionId}`,
    );
    expect(told.map((t) => t.user_id)).toEqual([waiting.id]);
  });

  it('a sibling promoted from the waitlist is told once, and the sibling already seated is not', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, { session: { capacity: 2 } });
    const { parent, mia, leo } = await parentWithTwo();
    const first = await createSignedInUser(ctx.app);
    expect((await enrol(ctx.app, first, courseId, sessionId)).statusCode).toBe(200);
    const both = await enrolLearners(ctx.app, parent, courseId, sessionId, [mia.id, leo.id]);
    expect(both.json().enrolments.map((e: { status: string }) => e.status)).toEqual(['active', 'waitlisted']);
    await drop(ctx.app, first, courseId, sessionId);
    expect((await seatsOf(sessionId)).map((r) => [r.learner_profile_id, r.status])).toEqual([
      [mia.id, 'active'],
      [leo.id, 'active'],
    ]);
    const told = await queryRows<{ user_id: string }>(
      ctx.app,
      sql`select user_id from notification where type = 'waitlist_promoted' and data->>'sessionId' = ${sessionId}`,
    );
    expect(told.map((t) => t.user_id)).toEqual([parent.id]);
  });

  it('bad learner choices answer 400 with the field', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator);
    const parent = await createSignedInUser(ctx.app);
    for (const learnerIds of [['someone'], [], [42]]) {
      const res = await enrolLearners(ctx.app, parent, courseId, sessionId, learnerIds as string[]);
      expect(res.statusCode, JSON.stringify(learnerIds)).toBe(400);
      expect(Object.keys(res.json().error.fields).join()).toMatch(/^learnerIds/);
    }
    expect(await seatsOf(sessionId)).toEqual([]);
  });
});
