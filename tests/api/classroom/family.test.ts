import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { makeLearner, makePublishedCourse, queryRows, useCoursesApp } from '../../support/courses.js';
import { famcDropProfileSeat, famcSeatForLearnerProfile } from '../../support/family.js';
import { call } from '../../support/http.js';

/**
 * The classroom of a session where a parent holds seats for their children (issue 26 part 3,
 * ADR 0072, 0074): the parent reads it while any of their seats is active, the educator's
 * members list names the children, access is removed per account.
 */
const ctx = useCoursesApp();

interface Member {
  id: string;
  name: string;
  learners: string[];
  access: string;
}

describe("a parent's classroom", () => {
  it('readable while one of their seats is active, not after the last drop; the members name the children; a stranger gets 404', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, {
      course: { title: 'Chess for Kids', priceCents: 0 },
      session: { capacity: 2 },
    });
    const base = `/api/courses/${courseId}/sessions/${sessionId}/classroom`;
    const ana = await makeLearner(ctx.app, { firstName: 'Ana', lastName: 'Ruiz' });
    const stranger = await makeLearner(ctx.app);
    const read = (who: { cookie: string }) => call(ctx.app, 'GET', base, undefined, { cookie: who.cookie });
    const members = async () => (await read(ctx.educator)).json().members as Member[];
    const at = { courseId, sessionId };

    expect((await read(ana)).statusCode).toBe(404);
    const mia = await famcSeatForLearnerProfile(ctx.app, ana, at, 'Mia');
    const leo = await famcSeatForLearnerProfile(ctx.app, ana, at, 'Leo');
    const res = await read(ana);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ role: 'learner', members: [] });
    expect(await members()).toEqual([{ id: ana.id, name: 'Ana Ruiz (for Leo, Mia)', learners: ['Leo', 'Mia'], access: 'active' }]);
    expect((await read(stranger)).statusCode).toBe(404);

    // A third child on the waitlist (the session is full) does not hide the active seats.
    const zoe = await famcSeatForLearnerProfile(ctx.app, ana, at, 'Zoe');
    const [{ status }] = await queryRows<{ status: string }>(
      ctx.app,
      sql`select status from enrolment where learner_profile_id = ${zoe.profileId}`,
    );
    expect(status).toBe('waitlisted');
    expect((await read(ana)).statusCode).toBe(200);
    expect((await members())[0].learners).toEqual(['Leo', 'Mia']);

    // Removing access is the account's: both children's parent loses it, and gets it back.
    expect(
      (await call(ctx.app, 'PUT', `${base}/access/${ana.id}`, { access: 'removed' }, { cookie: ctx.educator.cookie })).statusCode,
    ).toBe(200);
    expect((await read(ana)).statusCode).toBe(404);
    expect((await members())[0].access).toBe('removed');
    expect(
      (await call(ctx.app, 'PUT', `${base}/access/${ana.id}`, { access: 'restored' }, { cookie: ctx.educator.cookie })).statusCode,
    ).toBe(200);

    // One child drops: the parent keeps the classroom; Zoe took the freed seat; the list says so.
    await famcDropProfileSeat(ctx.app, ana, at, mia);
    expect((await read(ana)).statusCode).toBe(200);
    expect(await members()).toEqual([{ id: ana.id, name: 'Ana Ruiz (for Leo, Zoe)', learners: ['Leo', 'Zoe'], access: 'active' }]);
    await famcDropProfileSeat(ctx.app, ana, at, leo);
    expect((await read(ana)).statusCode).toBe(200);
    expect(await members()).toEqual([{ id: ana.id, name: 'Ana Ruiz (for Zoe)', learners: ['Zoe'], access: 'active' }]);
    // The last seat goes: 404, as for anyone else.
    await famcDropProfileSeat(ctx.app, ana, at, zoe);
    expect((await read(ana)).statusCode).toBe(404);
    expect(await members()).toEqual([]);
    expect((await read(stranger)).statusCode).toBe(404);
  });

  it('a parent seated with a child is listed once, "and" the child', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, { course: { priceCents: 0 } });
    const ana = await makeLearner(ctx.app, { firstName: 'Ana', lastName: 'Ruiz' });
    const enrolled = await call(ctx.app, 'POST', `/api/courses/${courseId}/sessions/${sessionId}/enrol`, undefined, { cookie: ana.cookie });
    expect(enrolled.statusCode, enrolled.body).toBe(200);
    await famcSeatForLearnerProfile(ctx.app, ana, { courseId, sessionId }, 'Mia');
    const view = await call(ctx.app, 'GET', `/api/courses/${courseId}/sessions/${sessionId}/classroom`, undefined, {
      cookie: ctx.educator.cookie,
    });
    expect(view.json().members).toEqual([{ id: ana.id, name: 'Ana Ruiz (and Mia)', learners: ['Mia'], access: 'active' }]);
  });
});
