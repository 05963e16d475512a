import { describe, expect, it } from 'vitest';
import { makeClub } from '../../support/clubs.js';
import { makeCourse, makeLearner, makePublishedCourse, useCoursesApp } from '../../support/courses.js';
import { get } from '../../support/http.js';

/**
 * Issue 23, item 8: a real route with an id that names nothing (/course/<unknown id>,
 * /club/<unknown id>) is the not-found page, and answers 404 as an unknown path does.
 */
const ctx = useCoursesApp();
const NIL = '00000000-0000-0000-0000-000000000000';

describe('pages of one resource answer 404 when it does not exist', () => {
  it('an unknown course or club id, or one that is not an id, is a 404 page', async () => {
    const ada = await makeLearner(ctx.app);
    for (const path of [`/course/${NIL}`, `/club/${NIL}`, '/course/not-an-id', '/club/not-an-id']) {
      const res = await get(ctx.app, path, { cookie: ada.cookie });
      expect(res.statusCode, path).toBe(404);
      expect(res.headers['content-type'], path).toMatch(/text\/html/);
      expect(res.headers['cache-control'], path).toBe('private, no-store');
      expect(res.body, path).toContain('id="agora-bootstrap"');
    }
  });

  it('a course or club that exists (or a draft its author sees) is a 200 page; someone else’s draft is a 404', async () => {
    const ada = await makeLearner(ctx.app);
    const { courseId } = await makePublishedCourse(ctx.app, ctx.educator);
    const draft = await makeCourse(ctx.app, ctx.educator);
    const clubId = await makeClub(ctx.app, ada);
    expect((await get(ctx.app, `/course/${courseId}`, { cookie: ada.cookie })).statusCode).toBe(200);
    expect((await get(ctx.app, `/club/${clubId}`, { cookie: ada.cookie })).statusCode).toBe(200);
    expect((await get(ctx.app, `/course/${draft}`, { cookie: ctx.educator.cookie })).statusCode).toBe(200);
    expect((await get(ctx.app, `/course/${draft}`, { cookie: ada.cookie })).statusCode).toBe(404);
  });

  it('without a session the page still redirects to log in first (nothing is looked up)', async () => {
    const res = await get(ctx.app, `/course/${NIL}`);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toMatch(/^\/login\?next=/);
  });
});
