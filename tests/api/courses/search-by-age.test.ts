import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { searchResult } from '../../../src/shared/courses-schemas.js';
import { makeLearner, makePublishedCourse, useCoursesApp } from '../../support/courses.js';
import { setCourseAges } from '../../support/family.js';
import { get } from '../../support/http.js';

/**
 * Course search by a learner's age (ADR 0081): a course whose age range includes the age, and
 * every course with no range (anyone may enrol in those, as enrolment checks ages only where
 * set). The one-word statement reads the range from the title postings (course_term, migration
 * 0056), the other shapes from the course: both are asked here. Courses carry this run's word.
 */
const ctx = useCoursesApp();
const WORD = `zk${randomBytes(4)
  .toString('hex')
  .replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)])}`;
const ids = { juniors: '', seniors: '', open: '' };
let learner: { cookie: string };

beforeAll(async () => {
  const make = async (title: string, ages: { minAge?: number; maxAge?: number }) =>
    (await makePublishedCourse(ctx.app, ctx.educator, { course: { title: `${WORD} ${title}`, ...ages } })).courseId;
  ids.juniors = await make('robotics juniors', { minAge: 8, maxAge: 12 });
  ids.seniors = await make('robotics seniors', { minAge: 14, maxAge: 17 });
  ids.open = await make('robotics for everyone', {});
  learner = await makeLearner(ctx.app);
});

async function found(query: Record<string, string | number>) {
  const res = await get(ctx.app, `/api/courses/search?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, {
    cookie: learner.cookie,
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = searchResult.parse(res.json());
  const names = Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));
  return { names: body.items.map((c) => names[c.id] ?? c.id).sort(), total: body.total, totalKind: body.totalKind };
}

describe('search by a learner age', () => {
  it('one word: the courses whose range includes the age, and those with no range; the total is exact', async () => {
    expect(await found({ q: WORD })).toMatchObject({ names: ['juniors', 'open', 'seniors'], total: 3 });
    expect(await found({ q: WORD, age: 10 })).toEqual({ names: ['juniors', 'open'], total: 2, totalKind: 'exact' });
    expect(await found({ q: WORD, age: 15 })).toEqual({ names: ['open', 'seniors'], total: 2, totalKind: 'exact' });
    expect(await found({ q: WORD, age: 12 })).toMatchObject({ names: ['juniors', 'open'] });
    expect(await found({ q: WORD, age: 5 })).toMatchObject({ names: ['open'], total: 1 });
  });

  it('several words and the other sorts apply the same rule', async () => {
    expect(await found({ q: `${WORD} robotics`, age: 16 })).toMatchObject({ names: ['open', 'seniors'], total: 2 });
    expect(await found({ q: WORD, age: 9, sort: 'soonest' })).toMatchObject({ names: ['juniors', 'open'], total: 2 });
    expect(await found({ q: WORD, age: 9, category: 'coding' })).toMatchObject({ names: [] });
  });

  it('a course whose ages change is found by its new range (the postings follow the course)', async () => {
    await setCourseAges(ctx.app, ids.open, 3, 6);
    expect(await found({ q: WORD, age: 4 })).toMatchObject({ names: ['open'], total: 1 });
    expect(await found({ q: WORD, age: 13 })).toMatchObject({ names: [], total: 0 });
    // (A new age each time: the result cache is emptied by API writes, not by this SQL update.)
    await setCourseAges(ctx.app, ids.open, null, null);
    expect(await found({ q: WORD, age: 30 })).toMatchObject({ names: ['open'], total: 1 });
  });

  it('a bad age answers 400 with the field', async () => {
    for (const [age, message] of [
      ['-1', 'The age cannot be negative'],
      ['121', 'The age must be 120 or less'],
      ['7.5', 'The age must be a whole number'],
      ['ten', 'The age must be a whole number'],
    ]) {
      const res = await get(ctx.app, `/api/courses/search?q=${WORD}&age=${age}`, { cookie: learner.cookie });
      expect(res.statusCode, `${age}: ${res.body}`).toBe(400);
      expect(res.json().error.fields.age).toBe(message);
    }
  });
});
