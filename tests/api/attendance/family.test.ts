import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { moveLearnerProfileRecords } from '../../../src/server/attendance/certificates.js';
import { get, post } from '../../support/http.js';
import {
  classTimeBody,
  dayFromNow,
  enrol,
  makeClassTimes,
  makeLearner,
  makePublishedCourse,
  queryRows,
  useCoursesApp,
} from '../../support/courses.js';
import type { SignedInUser } from '../../support/factories.js';
import { famcSeatForLearnerProfile, type ProfileSeat } from '../../support/family.js';
import { certificatesOf, mark, sessionEnded, setRule, sheet } from './support.js';

const ctx = useCoursesApp();

interface SheetLearner {
  id: string;
  name: string;
  contactName: string | null;
  certificate: { code: string } | null;
}
interface Mine {
  sessionId: string;
  learnerProfileId: string | null;
  learnerName: string | null;
  attended: number;
  classes: { classTimeId: string; mark: string | null }[];
  certificate: { code: string } | null;
}

/**
 * Family accounts in attendance and certificates (issue 26 part 3, ADR 0074): a parent's two
 * children in one session are two learners, marked one by one, each with their record and
 * their certificate; the rate counts seats.
 */
describe('two learners of one parent', () => {
  let courseId: string;
  let sessionId: string;
  let times: string[];
  let ana: SignedInUser;
  let mia: ProfileSeat;
  let leo: ProfileSeat;
  let bob: SignedInUser;
  const at = (classTimeId: string, learnerId: string) => ({ courseId, sessionId, classTimeId, learnerId });

  beforeAll(async () => {
    let first: string[];
    ({ courseId, sessionId, classTimeIds: first } = await makePublishedCourse(ctx.app, ctx.educator, { session: { capacity: 6 } }));
    times = [...first, ...(await makeClassTimes(ctx.app, ctx.educator, courseId, sessionId, classTimeBody(40)))];
    ana = await makeLearner(ctx.app, { firstName: 'Ana', lastName: 'Ruiz' });
    bob = await makeLearner(ctx.app, { firstName: 'Bob', lastName: 'Jones' });
    mia = await famcSeatForLearnerProfile(ctx.app, ana, { courseId, sessionId }, 'Mia');
    leo = await famcSeatForLearnerProfile(ctx.app, ana, { courseId, sessionId }, 'Leo');
    expect((await enrol(ctx.app, bob, courseId, sessionId)).statusCode).toBe(200);
  });

  it('the sheet lists each learner by name with the parent as contact; each is marked alone, concurrently too', async () => {
    const s = (await sheet(ctx.app, ctx.educator, courseId, sessionId)).json();
    expect(s.learners.map((l: SheetLearner) => [l.id, l.name, l.contactName])).toEqual([
      [bob.id, 'Bob Jones', null],
      [leo.profileId, 'Leo', 'Ana Ruiz'],
      [mia.profileId, 'Mia', 'Ana Ruiz'],
    ]);
    // Taps on both children and Bob at once, many times: one record per learner, the two children apart.
    const values = ['present', 'late', 'absent'];
    const learners = [mia.profileId, leo.profileId, bob.id];
    const answers = await Promise.all(
      Array.from({ length: 18 }, (_, i) => mark(ctx.app, ctx.educator, at(times[0], learners[i % 3]), values[i % 3 === 1 ? 1 : 0])),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
    expect(answers[0].json().learnerId).toBe(mia.profileId);
    const rows = await queryRows<{ learner_id: string; learner_profile_id: string | null; mark: string }>(
      ctx.app,
      sql`select learner_id, learner_profile_id, mark from attendance_mark where class_time_id = ${times[0]} order by mark`,
    );
    expect(rows).toHaveLength(3);
    expect(rows.filter((r) => r.learner_id === ana.id).map((r) => [r.learner_profile_id, r.mark])).toEqual(
      expect.arrayContaining([
        [mia.profileId, 'present'],
        [leo.profileId, 'late'],
      ]),
    );
    // The sheet shows each child's own mark.
    const after = (await sheet(ctx.app, ctx.educator, courseId, sessionId)).json();
    const markOf = (id: string) =>
      after.marks.find((m: { classTimeId: string; learnerId: string }) => m.classTimeId === times[0] && m.learnerId === id)?.mark;
    expect([markOf(mia.profileId), markOf(leo.profileId), markOf(bob.id)]).toEqual(['present', 'late', 'present']);
    // The parent's account id is no learner of its own here (Ana holds no seat for herself).
    expect((await mark(ctx.app, ctx.educator, at(times[0], ana.id), 'present')).statusCode).toBe(404);
  });

  it("the parent sees each child's record, apart; another learner sees none of them", async () => {
    await mark(ctx.app, ctx.educator, at(times[1], mia.profileId), 'absent');
    const mine = (await get(ctx.app, '/api/attendance/mine', { cookie: ana.cookie })).json().sessions as Mine[];
    const here = mine.filter((s) => s.sessionId === sessionId);
    expect(here.map((s) => [s.learnerName, s.learnerProfileId])).toEqual([
      ['Leo', leo.profileId],
      ['Mia', mia.profileId],
    ]);
    const [leos, mias] = here;
    expect(mias.classes.map((c) => c.mark)).toEqual(['present', 'absent']);
    expect(leos.classes.map((c) => c.mark)).toEqual(['late', null]);
    expect([mias.attended, leos.attended]).toEqual([1, 1]);
    const bobs = (await get(ctx.app, '/api/attendance/mine', { cookie: bob.cookie })).json();
    expect(bobs.sessions.map((s: Mine) => s.learnerName)).toEqual([null]);
    expect(JSON.stringify(bobs)).not.toContain(mia.profileId);
    expect(JSON.stringify(bobs)).not.toContain('Mia');
  });

  it('the attendance rate of the session counts seats, not accounts', async () => {
    await mark(ctx.app, ctx.educator, at(times[1], leo.profileId), 'absent');
    await mark(ctx.app, ctx.educator, at(times[1], bob.id), 'present');
    // Marks: class 1 Mia present, Leo late, Bob present; class 2 Mia absent, Leo absent, Bob present: 4 of 6.
    await ctx.app.database.db.execute(sql`update course_session set starts_on = ${dayFromNow(-3)}::date where id = ${sessionId}`);
    const res = await get(
      ctx.app,
      `/api/educator/${ctx.educator.id}/analytics?from=${dayFromNow(-10)}&to=${dayFromNow(0)}&course=${courseId}`,
      { cookie: ctx.educator.cookie },
    );
    expect(res.statusCode, res.body).toBe(200);
    const row = res.json().series.fill.find((s: { sessionId: string }) => s.sessionId === sessionId);
    expect(row.attendanceRate).toBeCloseTo(4 / 6);
  });
});

describe('certificates of a parent’s learners', () => {
  it('one per learner, each in the learner’s name, downloaded by the parent; the public lookup says who', async () => {
    const { courseId, sessionId, classTimeIds } = await makePublishedCourse(ctx.app, ctx.educator, {
      course: { title: 'Chess for Kids' },
    });
    const ana = await makeLearner(ctx.app, { firstName: 'Ana', lastName: 'Ruiz' });
    const stranger = await makeLearner(ctx.app);
    const mia = await famcSeatForLearnerProfile(ctx.app, ana, { courseId, sessionId }, 'Mia');
    const leo = await famcSeatForLearnerProfile(ctx.app, ana, { courseId, sessionId }, 'Leo');
    await setRule(ctx.app, ctx.educator, courseId, 100);
    await sessionEnded(ctx.app, sessionId);
    // Marked after the end: each mark issues that learner's certificate, the other's not yet.
    await mark(ctx.app, ctx.educator, { courseId, sessionId, classTimeId: classTimeIds[0], learnerId: mia.profileId }, 'present');
    expect(await certificatesOf(ctx.app, sessionId)).toHaveLength(1);
    await mark(ctx.app, ctx.educator, { courseId, sessionId, classTimeId: classTimeIds[0], learnerId: leo.profileId }, 'late');
    const issued = await queryRows<{ code: string; learner_id: string; learner_profile_id: string; learner_name: string }>(
      ctx.app,
      sql`select code, learner_id, learner_profile_id, learner_name from certificate where session_id = ${sessionId} order by learner_name`,
    );
    expect(issued.map((c) => [c.learner_id, c.learner_profile_id, c.learner_name])).toEqual([
      [ana.id, leo.profileId, 'Leo'],
      [ana.id, mia.profileId, 'Mia'],
    ]);
    const [leoCode, miaCode] = issued.map((c) => c.code);
    // The public lookup: the learner's name, nothing of the parent.
    const lookup = (await get(ctx.app, `/api/certificates/${miaCode}`)).json();
    expect(lookup).toMatchObject({ learnerName: 'Mia', courseTitle: 'Chess for Kids', status: 'valid' });
    expect(JSON.stringify(lookup)).not.toMatch(/Ana|Ruiz/);
    // The dashboard's record: a certificate on each child's entry; the parent downloads both.
    const mine = (await get(ctx.app, '/api/attendance/mine', { cookie: ana.cookie })).json().sessions as Mine[];
    expect(mine.map((s) => [s.learnerName, s.certificate?.code])).toEqual([
      ['Leo', leoCode],
      ['Mia', miaCode],
    ]);
    for (const code of [leoCode, miaCode]) {
      const pdf = await get(ctx.app, `/api/certificates/${code}/pdf`, { cookie: ana.cookie });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect((await get(ctx.app, `/api/certificates/${code}/pdf`, { cookie: stranger.cookie })).statusCode).toBe(404);
    }
    // The sheet shows each child's certificate on their own line.
    const s = (await sheet(ctx.app, ctx.educator, courseId, sessionId)).json();
    expect(s.learners.map((l: SheetLearner) => [l.name, l.certificate?.code])).toEqual([
      ['Leo', leoCode],
      ['Mia', miaCode],
    ]);
  });

  it('certificates issued before (the holder’s own, no learner profile) stay valid and are not issued twice', async () => {
    const { courseId, sessionId, classTimeIds } = await makePublishedCourse(ctx.app, ctx.educator);
    const ana = await makeLearner(ctx.app, { firstName: 'Ana', lastName: 'Ruiz' });
    expect((await enrol(ctx.app, ana, courseId, sessionId)).statusCode).toBe(200);
    const mia = await famcSeatForLearnerProfile(ctx.app, ana, { courseId, sessionId }, 'Mia');
    await setRule(ctx.app, ctx.educator, courseId, 100);
    await sessionEnded(ctx.app, sessionId);
    await mark(ctx.app, ctx.educator, { courseId, sessionId, classTimeId: classTimeIds[0], learnerId: ana.id }, 'present');
    await mark(ctx.app, ctx.educator, { courseId, sessionId, classTimeId: classTimeIds[0], learnerId: mia.profileId }, 'present');
    // Marked again: nothing more.
    await mark(ctx.app, ctx.educator, { courseId, sessionId, classTimeId: classTimeIds[0], learnerId: ana.id }, 'late');
    const issued = await queryRows<{ learner_name: string; learner_profile_id: string | null }>(
      ctx.app,
      sql`select learner_name, learner_profile_id from certificate where session_id = ${sessionId} order by learner_name`,
    );
    expect(issued).toEqual([
      { learner_name: 'Ana Ruiz', learner_profile_id: null },
      { learner_name: 'Mia', learner_profile_id: mia.profileId },
    ]);
  });
});

describe('erasure and a learner profile becoming an account', () => {
  it("deleting the parent's account removes the children's marks and certificates", async () => {
    const { courseId, sessionId, classTimeIds } = await makePublishedCourse(ctx.app, ctx.educator);
    const ana = await makeLearner(ctx.app);
    const mia = await famcSeatForLearnerProfile(ctx.app, ana, { courseId, sessionId }, 'Mia');
    const leo = await famcSeatForLearnerProfile(ctx.app, ana, { courseId, sessionId }, 'Leo');
    await setRule(ctx.app, ctx.educator, courseId, 100);
    await sessionEnded(ctx.app, sessionId);
    for (const s of [mia, leo])
      await mark(ctx.app, ctx.educator, { courseId, sessionId, classTimeId: classTimeIds[0], learnerId: s.profileId }, 'present');
    expect(await certificatesOf(ctx.app, sessionId)).toHaveLength(2);
    const deleted = await post(
      ctx.app,
      '/api/accounts/delete',
      { password: ana.password, confirmEmail: ana.email },
      { cookie: ana.cookie },
    );
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await certificatesOf(ctx.app, sessionId)).toEqual([]);
    const [left] = await queryRows<{ n: number }>(
      ctx.app,
      sql`select count(*)::int as n from attendance_mark where learner_profile_id in (${mia.profileId}, ${leo.profileId}) or learner_id = ${ana.id}`,
    );
    expect(left.n).toBe(0);
  });

  it("moveLearnerProfileRecords gives the profile's marks and certificates to its new account, codes and names kept", async () => {
    const { courseId, sessionId, classTimeIds } = await makePublishedCourse(ctx.app, ctx.educator);
    const ana = await makeLearner(ctx.app);
    const mia = await famcSeatForLearnerProfile(ctx.app, ana, { courseId, sessionId }, 'Mia');
    const leo = await famcSeatForLearnerProfile(ctx.app, ana, { courseId, sessionId }, 'Leo');
    await setRule(ctx.app, ctx.educator, courseId, 100);
    await sessionEnded(ctx.app, sessionId);
    for (const s of [mia, leo])
      await mark(ctx.app, ctx.educator, { courseId, sessionId, classTimeId: classTimeIds[0], learnerId: s.profileId }, 'present');
    const [before] = await queryRows<{ code: string }>(
      ctx.app,
      sql`select code from certificate where learner_profile_id = ${mia.profileId}`,
    );
    const miaOwn = await makeLearner(ctx.app, { firstName: 'Mia', lastName: 'Ruiz' });
    // Another account's profile is not moved by naming the wrong account.
    const stranger = await makeLearner(ctx.app);
    const none = await ctx.app.database.db.transaction((tx) =>
      moveLearnerProfileRecords(tx, { profileId: mia.profileId, accountId: stranger.id, userId: miaOwn.id }),
    );
    expect(none).toEqual({ marks: 0, certificates: 0 });
    const moved = await ctx.app.database.db.transaction((tx) =>
      moveLearnerProfileRecords(tx, { profileId: mia.profileId, accountId: ana.id, userId: miaOwn.id }),
    );
    expect(moved).toEqual({ marks: 1, certificates: 1 });
    const certs = await queryRows<{ learner_id: string; learner_profile_id: string | null; code: string; learner_name: string }>(
      ctx.app,
      sql`select learner_id, learner_profile_id, code, learner_name from certificate where session_id = ${sessionId} order by learner_name`,
    );
    expect(certs.map((c) => [c.learner_id, c.learner_profile_id, c.learner_name])).toEqual([
      [ana.id, leo.profileId, 'Leo'],
      [miaOwn.id, null, 'Mia'],
    ]);
    expect(certs[1].code).toBe(before.code);
    // Mia downloads her certificate herself now; her parent no longer does.
    expect((await get(ctx.app, `/api/certificates/${before.code}/pdf`, { cookie: miaOwn.cookie })).statusCode).toBe(200);
    expect((await get(ctx.app, `/api/certificates/${before.code}/pdf`, { cookie: ana.cookie })).statusCode).toBe(404);
    const [mark1] = await queryRows<{ learner_id: string; learner_profile_id: string | null }>(
      ctx.app,
      sql`select learner_id, learner_profile_id from attendance_mark where class_time_id = ${classTimeIds[0]} and learner_id = ${miaOwn.id}`,
    );
    expect(mark1).toEqual({ learner_id: miaOwn.id, learner_profile_id: null });
  });
});
