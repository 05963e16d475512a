import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { courseBody, makeCourse, makeEducator, sessionBody } from '../../support/courses.js';
import { createSignedInUser, newUser, signUp } from '../../support/factories.js';
import { get, post, type Response } from '../../support/http.js';

/**
 * Bad input is the client's mistake: a 400 with a message, never a 500. NUL characters are
 * refused at the edge for every route; values PostgreSQL refuses (impossible dates,
 * overflowing numbers) become 400 in the one error handler.
 */
let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(async () => {
  await app.close();
});

function expectInvalid(res: Response, field?: string) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().error.code).toBe('invalid_input');
  if (field) expect(res.json().error.fields?.[field], res.body).toMatch(/NUL/);
}

describe('a NUL character in any text', () => {
  it('in a sign-up or sign-in field answers 400 naming the field', async () => {
    expectInvalid(await signUp(app, newUser({ firstName: 'Ada\u0000' })), 'firstName');
    expectInvalid(await post(app, '/api/accounts/sign-in', { email: 'ada\u0000@example.com', password: 'Whatever-123' }), 'email');
  });

  it('in a course, a nested list or a search query answers 400', async () => {
    const educator = await makeEducator(app);
    expectInvalid(await post(app, '/api/courses', courseBody({ title: 'Water\u0000colour' }), { cookie: educator.cookie }), 'title');
    expectInvalid(
      await post(app, '/api/educators', { headline: 'x', bio: 'y', subjects: ['ok', 'bad\u0000'], links: [] }, { cookie: educator.cookie }),
      'subjects.1',
    );
    expectInvalid(await get(app, '/api/courses/search?q=py%00thon'), 'q');
  });

  it('in a path parameter answers 400', async () => {
    const user = await createSignedInUser(app);
    expectInvalid(await get(app, '/api/courses/abc%00def', { cookie: user.cookie }), 'courseId');
  });
});

describe('values PostgreSQL refuses', () => {
  it('an impossible date that looks like YYYY-MM-DD answers 400, not 500', async () => {
    const educator = await makeEducator(app);
    const courseId = await makeCourse(app, educator);
    for (const startsOn of ['2027-02-30', '9999-99-99']) {
      const res = await post(app, `/api/courses/${courseId}/sessions`, sessionBody({ startsOn, endsOn: '9999-99-99' }), {
        cookie: educator.cookie,
      });
      expect(res.statusCode, `${startsOn}: ${res.body}`).toBe(400);
    }
  });

  it('a price filter beyond a 32-bit integer answers 400, not 500', async () => {
    const user = await createSignedInUser(app);
    const res = await get(app, '/api/courses/search?minPrice=3000000000', { cookie: user.cookie });
    expect(res.statusCode, res.body).toBe(400);
  });
});
