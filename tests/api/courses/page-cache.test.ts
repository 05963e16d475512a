import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call } from '../../support/http.js';
import {
  courseBody,
  enrol,
  firstClassTookPlace,
  getCourse,
  makeClassTimes,
  makeLearner,
  makePublishedCourse,
  putReview,
  queryRows,
  useCoursesApp,
  classTimeBody,
} from '../../support/courses.js';

/**
 * The course page's shared part is kept by each server and built again when the educator's
 * page version moves (docs/decisions/0031-course-page-cache.md). Every change the page shows
 * must move it, whether it comes through this server's API or from elsewhere (another
 * server, a script: written here in SQL, past the app): each step reads the page first, so
 * the copy is there to go stale, then changes one thing and expects to see it.
 */
describe('the course page follows every change it shows', () => {
  const ctx = useCoursesApp();

  it('seats, titles, class times, reviews, names and profiles, through the API or straight in the database', async () => {
    const { app, educator } = ctx;
    const { courseId, sessionId } = await makePublishedCourse(app, educator);
    const visitor = await makeLearner(app);
    const learner = await makeLearner(app, { firstName: 'Rosalind', lastName: 'Franklin' });
    const page = async () => {
      const res = await getCourse(app, visitor, courseId);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };

    expect((await page()).sessions[0].seatsTaken).toBe(0);
    expect((await enrol(app, learner, courseId, sessionId)).statusCode).toBe(200);
    expect((await page()).sessions[0].seatsTaken).toBe(1);

    const res = await call(app, 'PUT', `/api/courses/${courseId}`, courseBody({ title: 'Watercolour, the second edition' }), {
      cookie: educator.cookie,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await page()).title).toBe('Watercolour, the second edition');

    const before = (await page()).sessions[0].classTimes.length;
    await makeClassTimes(app, educator, courseId, sessionId, classTimeBody(45));
    expect((await page()).sessions[0].classTimes).toHaveLength(before + 1);

    await firstClassTookPlace(app, courseId);
    await page();
    expect((await putReview(app, learner, courseId, { rating: 4, text: 'Calm and clear' })).statusCode).toBe(200);
    const withReview = await page();
    expect(withReview.reviews.map((r: { authorName: string; mine: boolean }) => [r.authorName, r.mine])).toEqual([['Rosalind F.', false]]);
    expect(withReview.ratingCount).toBe(1);
    expect(withReview.educator.ratingCount).toBe(1);

    // Past the app: a reviewer's new name, the educator's new headline, a session's seats.
    await queryRows(app, sql`update "user" set last_name = 'Elion' where id = ${learner.id}`);
    expect((await page()).reviews[0].authorName).toBe('Rosalind E.');
    await queryRows(app, sql`update educator set headline = 'Paint with water' where user_id = ${educator.id}`);
    expect((await page()).educator.headline).toBe('Paint with water');
    await queryRows(app, sql`update course_session set capacity = 99 where id = ${sessionId}`);
    expect((await page()).sessions[0].capacity).toBe(99);

    // A sign-in touches the user row without changing what the page shows: the copy stays.
    const version = async () =>
      (await queryRows<{ version: string }>(app, sql`select version::text from course_page_version where educator_id = ${educator.id}`))[0]
        ?.version;
    const kept = await version();
    await queryRows(app, sql`update "user" set last_sign_in_at = now() where id = ${learner.id}`);
    expect(await version()).toBe(kept);
  });

  it("each viewer's own part comes with the shared one: their enrolment, links, review and rights", async () => {
    const { app, educator } = ctx;
    const { courseId, sessionId } = await makePublishedCourse(app, educator);
    await queryRows(app, sql`update class_time set meeting_url = 'https://meet.example/room' where session_id = ${sessionId}`);
    const visitor = await makeLearner(app);
    const learner = await makeLearner(app);
    expect((await getCourse(app, visitor, courseId)).statusCode).toBe(200); // the copy is built

    expect((await enrol(app, learner, courseId, sessionId)).statusCode).toBe(200);
    await firstClassTookPlace(app, courseId);
    expect((await putReview(app, learner, courseId, { rating: 5, text: 'Lovely' })).statusCode).toBe(200);

    const mine = (await getCourse(app, learner, courseId)).json();
    expect(mine.isOwner).toBe(false);
    expect(mine.sessions[0].myEnrolment).toMatchObject({ status: 'active', waitlistPosition: null });
    expect(mine.sessions[0].classTimes.every((t: { meetingUrl: string | null }) => t.meetingUrl === 'https://meet.example/room')).toBe(
      true,
    );
    expect(mine.reviews.map((r: { mine: boolean }) => r.mine)).toEqual([true]);
    expect(mine.canReview).toBe(true);

    const theirs = (await getCourse(app, visitor, courseId)).json();
    expect(theirs.sessions[0].myEnrolment).toBeNull();
    expect(theirs.sessions[0].classTimes.every((t: { meetingUrl: string | null }) => t.meetingUrl === null)).toBe(true);
    expect(theirs.reviews.map((r: { mine: boolean }) => r.mine)).toEqual([false]);
    expect(theirs.canReview).toBe(false);
    expect(theirs.reviewOpensAt).toBeNull();

    const owner = (await getCourse(app, educator, courseId)).json();
    expect(owner.isOwner).toBe(true);
    expect(owner.sessions[0].myEnrolment).toBeNull();
    expect(owner.sessions[0].classTimes[0].meetingUrl).toBe('https://meet.example/room');
    expect(owner.canReview).toBe(false);
    // The same keys, in the same order, for everyone (the courseView schema's).
    expect(Object.keys(theirs)).toEqual(Object.keys(mine));
    expect(Object.keys(owner.sessions[0])).toEqual(Object.keys(mine.sessions[0]));
  });
});
