import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { learnerAgeNow } from '../../../src/server/accounts/learner-profiles.js';
import { parseAges } from '../../../src/shared/learner-profile-schemas.js';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { createSignedInUser, type SignedInUser } from '../../support/factories.js';
import { call, del, get, patch, post, randomIp } from '../../support/http.js';
import { enrol, makeEducator, makePublishedCourse, queryRows } from '../../support/courses.js';

/**
 * Family accounts (issue 26 part 3, ADR 0074): an account's learner profiles through
 * /api/me/learners: add, list, edit, remove; another account's profile is an unknown one; a
 * learner with a live seat is not removed, one with only past classes is hidden; the account's
 * deletion takes them.
 */
let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(async () => {
  await app.close();
});

const parent = (firstName = 'Paula') => createSignedInUser(app, { firstName });
const add = (who: SignedInUser, body: Record<string, unknown>) =>
  post(app, '/api/me/learners', body, { cookie: who.cookie, ip: randomIp() });
const list = async (who: SignedInUser) => {
  const res = await get(app, '/api/me/learners', { cookie: who.cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: { id: string; firstName: string; age: string; notes: string | null }[]; max: number };
};

describe('learner profiles: add, list, edit', () => {
  it('adds two learners (an age and a range), lists them oldest first, edits one', async () => {
    const p = await parent();
    expect((await list(p)).items).toEqual([]);
    const ada = await add(p, { firstName: '  Ada ', age: '8' });
    expect(ada.statusCode, ada.body).toBe(201);
    expect(ada.json()).toMatchObject({
      learner: { firstName: 'Ada', age: '8', ageMin: 8, ageMax: 8, notes: null },
      message: 'Ada was added to your learners.',
    });
    const ben = await add(p, { firstName: 'Ben', age: '10 - 12', notes: 'Shy at first; loves drawing.' });
    expect(ben.statusCode, ben.body).toBe(201);
    expect(ben.json().learner).toMatchObject({ firstName: 'Ben', age: '10-12', notes: 'Shy at first; loves drawing.' });

    const listed = await list(p);
    expect(listed.items.map((l) => `${l.firstName} ${l.age}`)).toEqual(['Ada 8', 'Ben 10-12']);
    expect(listed.max).toBe(10);

    const edited = await patch(
      app,
      `/api/me/learners/${ben.json().learner.id}`,
      { firstName: 'Benji', age: '11', notes: '' },
      { cookie: p.cookie },
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ learner: { firstName: 'Benji', age: '11', notes: null }, message: 'Benji was saved.' });
    // Only what was sent changes.
    const renamed = await patch(app, `/api/me/learners/${ada.json().learner.id}`, { firstName: 'Adaline' }, { cookie: p.cookie });
    expect(renamed.json().learner).toMatchObject({ firstName: 'Adaline', age: '8' });
    expect((await list(p)).items.map((l) => `${l.firstName} ${l.age} ${l.notes}`)).toEqual(['Adaline 8 null', 'Benji 11 null']);
  });

  it('refuses bad input with a message and the field at fault', async () => {
    const p = await parent();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ firstName: '', age: '8' }, 'firstName', "Enter the learner's first name"],
      [{ firstName: 'x'.repeat(51), age: '8' }, 'firstName', 'A first name is at most 50 characters'],
      [{ firstName: 'Ada', age: '' }, 'age', 'Enter an age like 8, or a range like 8-10'],
      [{ firstName: 'Ada', age: 'eight' }, 'age', 'Enter an age like 8, or a range like 8-10'],
      [{ firstName: 'Ada', age: '8.5' }, 'age', 'Enter an age like 8, or a range like 8-10'],
      [{ firstName: 'Ada', age: '-3' }, 'age', 'Enter an age like 8, or a range like 8-10'],
      [{ firstName: 'Ada', age: '121' }, 'age', 'An age is a whole number from 0 to 120'],
      [{ firstName: 'Ada', age: '10-8' }, 'age', 'Put the younger age first: 8-10'],
      [{ firstName: 'Ada', age: '8', notes: 'n'.repeat(501) }, 'notes', 'Notes are at most 500 characters'],
      [{ age: '8' }, 'firstName', ''],
    ];
    for (const [body, field, message] of cases) {
      const res = await add(p, body);
      expect(res.statusCode, `${JSON.stringify(body).slice(0, 60)} -> ${res.body}`).toBe(400);
      expect(Object.keys(res.json().error.fields ?? {})).toContain(field);
      if (message) expect(res.json().error.fields[field]).toBe(message);
    }
    const empty = await patch(
      app,
      `/api/me/learners/${(await add(p, { firstName: 'Ada', age: '8' })).json().learner.id}`,
      {},
      { cookie: p.cookie },
    );
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toMatch(/Nothing to update/);
    expect((await list(p)).items).toHaveLength(1);
  });

  it('keeps at most 10 learners per account, also when added at once', async () => {
    const p = await parent();
    const answers = await Promise.all(Array.from({ length: 14 }, (_, i) => add(p, { firstName: `Kid ${i}`, age: '7' })));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(10);
    expect(codes.filter((c) => c === 409)).toHaveLength(4);
    const refused = answers.find((a) => a.statusCode === 409)!;
    expect(refused.json().error.message).toBe('An account can keep up to 10 learners. Remove one you no longer enrol to add another.');
    expect((await list(p)).items).toHaveLength(10);
  });

  it("answers another account's learner as an unknown one (404), and signed out 401", async () => {
    const p = await parent();
    const other = await parent('Mallory');
    const id = (await add(p, { firstName: 'Ada', age: '8', notes: 'Private note' })).json().learner.id as string;
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const target of [id, unknown]) {
      const edit = await patch(app, `/api/me/learners/${target}`, { firstName: 'Taken' }, { cookie: other.cookie });
      expect(edit.statusCode).toBe(404);
      expect(edit.json().error.message).toBe('This learner was not found');
      const remove = await del(app, `/api/me/learners/${target}`, { cookie: other.cookie });
      expect(remove.statusCode).toBe(404);
    }
    expect((await list(other)).items).toEqual([]);
    expect(JSON.stringify(await list(other))).not.toContain('Private note');
    expect((await get(app, '/api/me/learners')).statusCode).toBe(401);
    expect((await list(p)).items.map((l) => l.firstName)).toEqual(['Ada']);
  });
});

describe('learner profiles: removing', () => {
  /** A seat for the learner (as the enrol dialog gives one): the holder's seat, then named for the profile. */
  async function seatFor(p: SignedInUser, profileId: string) {
    const educator = await makeEducator(app);
    const { courseId, sessionId } = await makePublishedCourse(app, educator);
    const res = await enrol(app, p, courseId, sessionId);
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().enrolment.id as string;
    await app.database.db.execute(sql`update enrolment set learner_profile_id = ${profileId} where id = ${id}`);
    return id;
  }

  it('deletes a learner with no classes', async () => {
    const p = await parent();
    const id = (await add(p, { firstName: 'Ada', age: '8' })).json().learner.id as string;
    const res = await del(app, `/api/me/learners/${id}`, { cookie: p.cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Ada was removed from your learners.');
    expect(await queryRows(app, sql`select id from learner_profile where id = ${id}`)).toEqual([]);
    expect((await del(app, `/api/me/learners/${id}`, { cookie: p.cookie })).statusCode).toBe(404);
  });

  it('refuses a learner with a live seat (409: drop the classes first); hides one with only past classes', async () => {
    const p = await parent();
    const id = (await add(p, { firstName: 'Ada', age: '8' })).json().learner.id as string;
    const enrolmentId = await seatFor(p, id);

    const refused = await del(app, `/api/me/learners/${id}`, { cookie: p.cookie });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'learner_has_classes',
      message: "Ada is enrolled or on a waitlist. Drop Ada's classes first (on your dashboard), then remove Ada.",
    });
    expect((await list(p)).items.map((l) => l.firstName)).toEqual(['Ada']);

    // The class is over: only history names Ada now.
    await app.database.db.execute(sql`update enrolment set status = 'completed' where id = ${enrolmentId}`);
    const removed = await del(app, `/api/me/learners/${id}`, { cookie: p.cookie });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await list(p)).items).toEqual([]);
    const [kept] = await queryRows<{ first_name: string; removed: boolean }>(
      app,
      sql`select first_name, removed_at is not null as removed from learner_profile where id = ${id}`,
    );
    expect(kept).toEqual({ first_name: 'Ada', removed: true });
    const [seat] = await queryRows<{ learner_profile_id: string }>(
      app,
      sql`select learner_profile_id from enrolment where id = ${enrolmentId}`,
    );
    expect(seat!.learner_profile_id).toBe(id);
    // A hidden learner is gone for every use: no edit, no second removal.
    expect((await patch(app, `/api/me/learners/${id}`, { firstName: 'Back' }, { cookie: p.cookie })).statusCode).toBe(404);
    expect((await del(app, `/api/me/learners/${id}`, { cookie: p.cookie })).statusCode).toBe(404);
  });

  it("the account's deletion removes its learners (pseudonymised where history names one)", async () => {
    const p = await parent();
    const fresh = (await add(p, { firstName: 'Ada', age: '8', notes: 'Allergic to peanuts' })).json().learner.id as string;
    const withHistory = (await add(p, { firstName: 'Ben', age: '9-10', notes: 'Needs glasses' })).json().learner.id as string;
    const enrolmentId = await seatFor(p, withHistory);
    await app.database.db.execute(sql`update enrolment set status = 'completed' where id = ${enrolmentId}`);

    const res = await call(
      app,
      'POST',
      '/api/accounts/delete',
      { password: p.password, confirmEmail: p.email },
      { cookie: p.cookie, ip: randomIp() },
    );
    expect(res.statusCode, res.body).toBe(200);

    expect(await queryRows(app, sql`select id from learner_profile where id = ${fresh}`)).toEqual([]);
    const left = await queryRows(
      app,
      sql`select first_name, age_min, age_max, notes, removed_at is not null as removed from learner_profile where account_id = ${p.id}`,
    );
    expect(left).toEqual([{ first_name: 'Deleted learner', age_min: 0, age_max: 0, notes: null, removed: true }]);
    const text = JSON.stringify(await queryRows(app, sql`select * from learner_profile where account_id = ${p.id}`));
    for (const secret of ['Ada', 'Ben', 'peanuts', 'glasses']) expect(text).not.toContain(secret);
  });
});

describe('ages grow', () => {
  it('learnerAgeNow adds the whole years since the age was given (birthdays count)', () => {
    const given = { ageMin: 8, ageMax: 10, agesAsOf: '2024-03-15' };
    expect(learnerAgeNow(given, '2024-03-15')).toEqual({ min: 8, max: 10 });
    expect(learnerAgeNow(given, '2025-03-14')).toEqual({ min: 8, max: 10 });
    expect(learnerAgeNow(given, '2025-03-15')).toEqual({ min: 9, max: 11 });
    expect(learnerAgeNow(given, '2027-01-01')).toEqual({ min: 10, max: 12 });
    expect(learnerAgeNow({ ageMin: 5, ageMax: 5, agesAsOf: '2024-02-29' }, '2025-02-28')).toEqual({ min: 5, max: 5 });
    expect(learnerAgeNow({ ageMin: 5, ageMax: 5, agesAsOf: '2024-02-29' }, '2025-03-01')).toEqual({ min: 6, max: 6 });
  });

  it('the list shows the age today: given two years ago as 8-10, it reads 10-12', async () => {
    const p = await parent();
    const id = (await add(p, { firstName: 'Ada', age: '8-10' })).json().learner.id as string;
    await app.database.db.execute(sql`update learner_profile set ages_as_of = current_date - interval '2 years' where id = ${id}`);
    expect((await list(p)).items[0]).toMatchObject({ age: '10-12', ageMin: 10, ageMax: 12 });
  });

  it('parseAges reads what people type', () => {
    expect(parseAges('8')).toEqual({ min: 8, max: 8 });
    expect(parseAges(' 8–10 ')).toEqual({ min: 8, max: 10 });
    expect(parseAges('8 to 10')).toEqual({ min: 8, max: 10 });
    expect(parseAges('0')).toEqual({ min: 0, max: 0 });
    expect(parseAges('10-8')).toEqual({ error: 'Put the younger age first: 8-10' });
    expect(parseAges('8-')).toEqual({ error: 'Enter an age like 8, or a range like 8-10' });
  });
});
