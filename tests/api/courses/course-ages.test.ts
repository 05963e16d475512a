import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseAgesText } from '../../../src/shared/courses.js';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { courseBody, getCourse, makeEducator, makeLearner, makePublishedCourse } from '../../support/courses.js';
import { call, get, post } from '../../support/http.js';

/**
 * Family accounts (ADR 0074): a course's age range. The educator sets "ages from / to"
 * (optional, whole years 0-120, from <= to); the course page (cached per educator version,
 * ADR 0031) and the course cards of search and explore carry it.
 */
let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(async () => {
  await app.close();
});

describe('course age range', () => {
  it('refuses ages that are not whole years 0-120 or run backwards, with the field at fault', async () => {
    const educator = await makeEducator(app);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ minAge: -1 }, 'minAge', 'The youngest age must be between 0 and 120'],
      [{ maxAge: 121 }, 'maxAge', 'The oldest age must be between 0 and 120'],
      [{ minAge: 8.5 }, 'minAge', 'The youngest age must be a whole number of years'],
      [{ minAge: '8' }, 'minAge', 'The youngest age must be a number'],
      [{ minAge: 12, maxAge: 8 }, 'maxAge', 'The oldest age must be at least the youngest (12)'],
    ];
    for (const [ages, field, message] of cases) {
      const res = await post(app, '/api/courses', courseBody(ages), { cookie: educator.cookie });
      expect(res.statusCode, `${JSON.stringify(ages)} -> ${res.body}`).toBe(400);
      expect(res.json().error.fields[field]).toBe(message);
    }
  });

  it('is kept on create, changed on edit (the cached course page shows the edit), cleared when omitted', async () => {
    const educator = await makeEducator(app);
    const visitor = await makeLearner(app);
    const title = `Junior robotics ${randomUUID().slice(0, 8)}`;
    const { courseId } = await makePublishedCourse(app, educator, { course: { title, minAge: 8, maxAge: 12 } });

    const first = await getCourse(app, visitor, courseId);
    expect(first.json()).toMatchObject({ minAge: 8, maxAge: 12 });
    // Twice: the second answer is the cached one.
    expect((await getCourse(app, visitor, courseId)).json()).toMatchObject({ minAge: 8, maxAge: 12 });

    const edited = await call(app, 'PUT', `/api/courses/${courseId}`, courseBody({ title, minAge: 9, maxAge: null }), {
      cookie: educator.cookie,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await getCourse(app, visitor, courseId)).json()).toMatchObject({ minAge: 9, maxAge: null });

    // Search and explore cards say whom it is for.
    const search = await get(app, `/api/courses/search?q=${encodeURIComponent(title)}`, { cookie: visitor.cookie });
    expect(search.statusCode, search.body).toBe(200);
    expect(search.json().items.find((c: { id: string }) => c.id === courseId)).toMatchObject({ minAge: 9, maxAge: null });
    const explore = await get(app, '/api/explore', { cookie: visitor.cookie });
    expect(explore.statusCode, explore.body).toBe(200);
    // The shelves hold a few courses of the whole database (other files' courses too), so this
    // one may not be on them: every card they show carries its ages (the same card as search's).
    const cards = Object.values(explore.json() as Record<string, unknown>)
      .filter(Array.isArray)
      .flat() as Record<string, unknown>[];
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) expect(Object.keys(card)).toEqual(expect.arrayContaining(['minAge', 'maxAge']));

    // A PUT without ages is a course for everyone.
    await call(app, 'PUT', `/api/courses/${courseId}`, courseBody({ title }), { cookie: educator.cookie });
    expect((await getCourse(app, visitor, courseId)).json()).toMatchObject({ minAge: null, maxAge: null });
    const again = await get(app, `/api/courses/search?q=${encodeURIComponent(title)}`, { cookie: visitor.cookie });
    expect(again.json().items.find((c: { id: string }) => c.id === courseId)).toMatchObject({ minAge: null, maxAge: null });
  });

  it('reads as people say it', () => {
    expect(courseAgesText(8, 12)).toBe('Ages 8-12');
    expect(courseAgesText(8, null)).toBe('Ages 8+');
    expect(courseAgesText(null, 12)).toBe('Ages up to 12');
    expect(courseAgesText(10, 10)).toBe('Age 10');
    expect(courseAgesText(null, null)).toBeNull();
  });
});
