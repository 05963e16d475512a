import { describe, expect, it } from 'vitest';
import { createSignedInUser } from '../../support/factories.js';
import { get, post } from '../../support/http.js';
import { enrol, makeEducator, makePublishedCourse, useCoursesApp } from '../../support/courses.js';
import { dropLearner, enrolLearners, makeLearnerProfile } from '../../support/family.js';

const ctx = useCoursesApp();

/** The calendar's events' SUMMARY lines, unfolded. */
const summaries = (ics: string) =>
  ics
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter((l) => l.startsWith('SUMMARY:'))
    .map((l) => l.slice('SUMMARY:'.length));

describe('family accounts: whom each seat is for (roster, dashboard, calendar)', () => {
  it("the roster names the learner (first name, age) with the account holder as contact and whom Message reaches; the notes are the course's educator's only", async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, { course: { title: 'Pottery for kids' } });
    const parent = await createSignedInUser(ctx.app, { firstName: 'Pat', lastName: 'Parker' });
    const mia = await makeLearnerProfile(ctx.app, parent, { firstName: 'Mia', age: 8, ageMax: 9, notes: 'Allergic to latex gloves' });
    const leo = await makeLearnerProfile(ctx.app, parent, { firstName: 'Leo', age: 11 });
    expect((await enrolLearners(ctx.app, parent, courseId, sessionId, [mia.id, 'me'])).statusCode).toBe(200);
    const roster = await get(ctx.app, `/api/courses/${courseId}/roster`, { cookie: ctx.educator.cookie });
    expect(roster.statusCode, roster.body).toBe(200);
    const rows = roster.json().rows;
    expect(rows).toEqual([
      expect.objectContaining({
        learnerId: parent.id,
        learnerName: 'Mia',
        learnerAge: '8-9',
        learnerProfileId: mia.id,
        contactName: 'Pat Parker',
        learnerEmail: parent.email,
        notes: 'Allergic to latex gloves',
        status: 'active',
      }),
      expect.objectContaining({
        learnerId: parent.id,
        learnerName: 'Pat Parker',
        learnerProfileId: null,
        learnerAge: null,
        contactName: null,
        notes: null,
      }),
    ]);
    const csv = (await get(ctx.app, `/api/courses/${courseId}/roster.csv`, { cookie: ctx.educator.cookie })).body;
    expect(csv).toContain(`"Mia","${parent.email}"`);
    expect(csv).toContain('"8-9","Pat Parker"');
    // Leo is not in any of this educator's sessions: nothing of his anywhere in the roster.
    expect(roster.body).not.toContain('Leo');
    expect(roster.body).not.toContain(leo.id);

    // Another educator, another learner of the course, the parent themself: no roster, no notes.
    const otherEducator = await makeEducator(ctx.app);
    const classmate = await createSignedInUser(ctx.app);
    expect((await enrol(ctx.app, classmate, courseId, sessionId)).statusCode).toBe(200);
    for (const who of [otherEducator, classmate, parent]) {
      const res = await get(ctx.app, `/api/courses/${courseId}/roster`, { cookie: who.cookie });
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain('latex');
    }
    // The other educator's own course roster (with its own learners) says nothing of Mia.
    const theirs = await makePublishedCourse(ctx.app, otherEducator);
    expect((await enrol(ctx.app, classmate, theirs.courseId, theirs.sessionId)).statusCode).toBe(200);
    const theirRoster = await get(ctx.app, `/api/courses/${theirs.courseId}/roster`, { cookie: otherEducator.cookie });
    expect(theirRoster.statusCode).toBe(200);
    expect(theirRoster.body).not.toContain('latex');
    expect(theirRoster.body).not.toContain('Mia');
    // The classmate's view of the course page names nobody's learners.
    const page = (await get(ctx.app, `/api/courses/${courseId}`, { cookie: classmate.cookie })).body;
    expect(page).not.toContain('Mia');
    expect(page).not.toContain('latex');

    // Once Mia is dropped, her row stays in the roster's history without her notes.
    expect((await dropLearner(ctx.app, parent, courseId, sessionId, mia.id)).statusCode).toBe(200);
    const after = (await get(ctx.app, `/api/courses/${courseId}/roster`, { cookie: ctx.educator.cookie })).json().rows;
    expect(after.find((r: { learnerProfileId: string | null }) => r.learnerProfileId === mia.id)).toMatchObject({
      learnerName: 'Mia',
      status: 'dropped',
      notes: null,
    });
  });

  it('the dashboard and the calendar say whom each class is for; a class two learners share comes once', async () => {
    const { courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, { course: { title: 'Chess club' } });
    const parent = await createSignedInUser(ctx.app);
    const mia = await makeLearnerProfile(ctx.app, parent, { firstName: 'Mia', age: 9 });
    const leo = await makeLearnerProfile(ctx.app, parent, { firstName: 'Leo', age: 11 });
    expect((await enrolLearners(ctx.app, parent, courseId, sessionId, [mia.id, leo.id])).statusCode).toBe(200);
    const d = (await get(ctx.app, '/api/dashboard', { cookie: parent.cookie })).json();
    expect(d.courses.map((c: { learnerName: string | null }) => c.learnerName).sort()).toEqual(['Leo', 'Mia']);
    const classes = [...d.thisWeek, ...d.later].filter((t: { courseId: string }) => t.courseId === courseId);
    expect(classes).toHaveLength(1);
    expect(classes[0]).toMatchObject({ forLearners: ['Mia', 'Leo'], forYou: false, forWhom: 'Mia and Leo' });

    const ics = (await get(ctx.app, '/api/calendar.ics', { cookie: parent.cookie })).body;
    expect(summaries(ics)).toEqual(['Chess club (for Mia and Leo)']);
    const feed = (await post(ctx.app, '/api/calendar/feed', undefined, { cookie: parent.cookie })).json().url as string;
    const viaFeed = (await get(ctx.app, new URL(feed).pathname)).body;
    expect(summaries(viaFeed)).toEqual(['Chess club (for Mia and Leo)']);

    // Leo dropped, the holder enrolled themself: "you and Mia".
    expect((await dropLearner(ctx.app, parent, courseId, sessionId, leo.id)).statusCode).toBe(200);
    expect((await enrol(ctx.app, parent, courseId, sessionId)).statusCode).toBe(200);
    const again = (await get(ctx.app, '/api/dashboard', { cookie: parent.cookie })).json();
    const [one] = [...again.thisWeek, ...again.later].filter((t: { courseId: string }) => t.courseId === courseId);
    expect(one.forWhom).toBe('you and Mia');
    expect(summaries((await get(ctx.app, '/api/calendar.ics', { cookie: parent.cookie })).body)).toEqual(['Chess club (for you and Mia)']);

    // A learner on their own: unchanged (no "for").
    const solo = await createSignedInUser(ctx.app);
    expect((await enrol(ctx.app, solo, courseId, sessionId)).statusCode).toBe(200);
    const soloDash = (await get(ctx.app, '/api/dashboard', { cookie: solo.cookie })).json();
    expect(soloDash.courses[0]).toMatchObject({ learnerName: null, learnerProfileId: null });
    expect([...soloDash.thisWeek, ...soloDash.later][0]).toMatchObject({ forWhom: null, forLearners: [], forYou: true });
    expect(summaries((await get(ctx.app, '/api/calendar.ics', { cookie: solo.cookie })).body)).toEqual(['Chess club']);
  });
});
