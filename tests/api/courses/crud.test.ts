import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type SignedInUser } from '../../support/factories.js';
import { call, del, get, post, randomIp } from '../../support/http.js';
import { fileForm } from '../../support/multipart.js';
import { UNKNOWN_ID } from '../../support/test-data.js';
import {
  addClassTimes,
  classTimeBody,
  courseBody,
  getCourse,
  makeClassTimes,
  makeCourse,
  makeEducator,
  makeSession,
  patchSession,
  queryRows,
  sessionBody,
  useCoursesApp,
  type Educator,
} from '../../support/courses.js';

const ctx = useCoursesApp();

async function uploadCover(courseId: string, cookie: string, file: { data: Buffer; filename: string; type: string }) {
  const form = await fileForm(file);
  return ctx.app.inject({
    method: 'POST',
    url: `/api/courses/${courseId}/cover`,
    payload: form.payload,
    headers: { ...form.headers, origin: ctx.app.config.publicUrl, cookie },
    remoteAddress: randomIp(),
  });
}

const png = () =>
  sharp({ create: { width: 1600, height: 900, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .png()
    .toBuffer();

describe('creating and editing a course', () => {
  it('creates a draft (201) that its educator sees with every field', async () => {
    const res = await post(
      ctx.app,
      '/api/courses',
      courseBody({ priceCents: 12000, currency: 'eur', installments: 3, audience: 'Adults, no experience needed' }),
      { cookie: ctx.educator.cookie },
    );
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id;
    const view = await getCourse(ctx.app, ctx.educator, id);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json()).toMatchObject({
      id,
      status: 'draft',
      title: 'Watercolour for beginners',
      category: 'arts',
      level: 'beginner',
      format: 'online',
      priceCents: 12000,
      currency: 'eur',
      installments: 3,
      audience: 'Adults, no experience needed',
      refundPolicy: 'moderate',
      isOwner: true,
      sessions: [],
      reviews: [],
      ratingAvg: 0,
      ratingCount: 0,
      publishedAt: null,
      educator: { userId: ctx.educator.id, name: 'Grace Hopper', headline: 'Painter and patient teacher' },
    });
  });

  it('an in-person course keeps its city and address; an online one drops the address', async () => {
    const inPerson = await makeCourse(ctx.app, ctx.educator, { format: 'in_person', city: 'Lisbon', address: 'Rua Augusta 1' });
    expect((await getCourse(ctx.app, ctx.educator, inPerson)).json()).toMatchObject({
      format: 'in_person',
      city: 'Lisbon',
      address: 'Rua Augusta 1',
    });
    const online = await makeCourse(ctx.app, ctx.educator, { format: 'online', address: 'Rua Augusta 1' });
    expect((await getCourse(ctx.app, ctx.educator, online)).json().address).toBeNull();
  });

  it('the educator edits the course (PUT)', async () => {
    const id = await makeCourse(ctx.app, ctx.educator);
    const res = await call(ctx.app, 'PUT', `/api/courses/${id}`, courseBody({ title: 'Ink and wash', priceCents: 5000 }), {
      cookie: ctx.educator.cookie,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await getCourse(ctx.app, ctx.educator, id)).json()).toMatchObject({ title: 'Ink and wash', priceCents: 5000 });
  });

  const invalid: [string, Record<string, unknown>, string, RegExp][] = [
    ['a negative price', { priceCents: -1 }, 'priceCents', /negative/],
    ['0 installments', { priceCents: 10000, installments: 0 }, 'installments', /between 2 and 24/],
    ['25 installments', { priceCents: 10000, installments: 25 }, 'installments', /between 2 and 24/],
    ['installments on a free course', { priceCents: 0, installments: 3 }, 'installments', /free course/],
    ['an unknown category', { category: 'alchemy' }, 'category', /category/i],
    ['a missing title', { title: undefined }, 'title', /required/i],
    ['a blank title', { title: '   ' }, 'title', /at least 3 characters/],
    ['in person without a city', { format: 'in_person', city: '' }, 'city', /city is required/i],
    ['an unknown level', { level: 'wizard' }, 'level', /level/i],
    ['an unknown currency', { currency: 'btc' }, 'currency', /USD/],
  ];
  it.each(invalid)('%s answers 400 with a message for that field, and stores nothing', async (_, override, field, message) => {
    const [{ n: before }] = await queryRows<{ n: number }>(
      ctx.app,
      sql`select count(*)::int as n from course where educator_id = ${ctx.educator.id}`,
    );
    const res = await post(ctx.app, '/api/courses', courseBody(override), { cookie: ctx.educator.cookie });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('invalid_input');
    expect(res.json().error.fields[field]).toMatch(message);
    const [{ n: after }] = await queryRows<{ n: number }>(
      ctx.app,
      sql`select count(*)::int as n from course where educator_id = ${ctx.educator.id}`,
    );
    expect(after).toBe(before);
  });

  it('several invalid fields answer one message per field', async () => {
    const res = await post(ctx.app, '/api/courses', courseBody({ title: '', priceCents: -5, category: 'nope' }), {
      cookie: ctx.educator.cookie,
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().error.fields)).toEqual(expect.arrayContaining(['title', 'priceCents', 'category']));
  });

  it('the same rules hold when editing (PUT)', async () => {
    const id = await makeCourse(ctx.app, ctx.educator);
    const res = await call(ctx.app, 'PUT', `/api/courses/${id}`, courseBody({ priceCents: 0, installments: 6 }), {
      cookie: ctx.educator.cookie,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toHaveProperty('installments');
    expect((await getCourse(ctx.app, ctx.educator, id)).json().installments).toBeNull();
  });
});

describe('publishing and archiving', () => {
  it('publishing without a session answers 400', async () => {
    const id = await makeCourse(ctx.app, ctx.educator);
    const res = await post(ctx.app, `/api/courses/${id}/publish`, undefined, { cookie: ctx.educator.cookie });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('no_sessions');
    expect((await getCourse(ctx.app, ctx.educator, id)).json().status).toBe('draft');
  });

  it('publishing with only a cancelled session answers 400', async () => {
    const id = await makeCourse(ctx.app, ctx.educator);
    const sessionId = await makeSession(ctx.app, ctx.educator, id);
    expect((await patchSession(ctx.app, ctx.educator, id, sessionId, { status: 'cancelled' })).statusCode).toBe(200);
    expect((await post(ctx.app, `/api/courses/${id}/publish`, undefined, { cookie: ctx.educator.cookie })).statusCode).toBe(400);
  });

  it('a published course is visible to others; archiving it hides it again', async () => {
    const id = await makeCourse(ctx.app, ctx.educator);
    await makeSession(ctx.app, ctx.educator, id);
    const visitor = await createSignedInUser(ctx.app);
    expect((await getCourse(ctx.app, visitor, id)).statusCode).toBe(404);
    const pub = await post(ctx.app, `/api/courses/${id}/publish`, undefined, { cookie: ctx.educator.cookie });
    expect(pub.statusCode, pub.body).toBe(200);
    const seen = await getCourse(ctx.app, visitor, id);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ status: 'published', isOwner: false });
    expect(seen.json().publishedAt).toEqual(expect.any(String));

    expect((await post(ctx.app, `/api/courses/${id}/archive`, undefined, { cookie: ctx.educator.cookie })).statusCode).toBe(200);
    expect((await getCourse(ctx.app, visitor, id)).statusCode).toBe(404);
    expect((await getCourse(ctx.app, ctx.educator, id)).json().status).toBe('archived');
  });

  it('a draft answers 404 to other users (and to anonymous requests 401)', async () => {
    const id = await makeCourse(ctx.app, ctx.educator);
    const other = await makeEducator(ctx.app);
    const res = await getCourse(ctx.app, other, id);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('Watercolour');
    expect((await get(ctx.app, `/api/courses/${id}`)).statusCode).toBe(401);
  });
});

describe('cover image', () => {
  it('a real PNG is stored as /uploads/covers/*.webp, served, and shown on the course', async () => {
    const id = await makeCourse(ctx.app, ctx.educator);
    const res = await uploadCover(id, ctx.educator.cookie, { data: await png(), filename: 'cover.png', type: 'image/png' });
    expect(res.statusCode, res.body).toBe(200);
    const url = res.json().coverImage;
    expect(url).toMatch(/^\/uploads\/covers\/[0-9a-f-]+\.webp$/);
    const file = await get(ctx.app, url);
    expect(file.statusCode).toBe(200);
    const meta = await sharp(file.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 1200, height: 675 });
    expect((await getCourse(ctx.app, ctx.educator, id)).json().coverImage).toBe(url);
  });

  it('a text file answers 400 and keeps the course without a cover', async () => {
    const id = await makeCourse(ctx.app, ctx.educator);
    const res = await uploadCover(id, ctx.educator.cookie, {
      data: Buffer.from('hello, I am not a picture'),
      filename: 'cover.png',
      type: 'image/png',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toHaveProperty('file');
    expect((await getCourse(ctx.app, ctx.educator, id)).json().coverImage).toBeNull();
  });
});

describe("another educator's course: every write answers 403 and changes nothing", () => {
  let owner: Educator;
  let attacker: Educator;
  let learner: SignedInUser;
  let courseId: string;
  let sessionId: string;
  let classTimeId: string;
  beforeAll(async () => {
    owner = await makeEducator(ctx.app);
    attacker = await makeEducator(ctx.app);
    learner = await createSignedInUser(ctx.app);
    courseId = await makeCourse(ctx.app, owner);
    sessionId = await makeSession(ctx.app, owner, courseId);
    [classTimeId] = await makeClassTimes(ctx.app, owner, courseId, sessionId, classTimeBody(31));
  });

  const state = async () => {
    const [c] = await queryRows(ctx.app, sql`select title, status, cover_image from course where id = ${courseId}`);
    const sessions = await queryRows(
      ctx.app,
      sql`select id, capacity, status from course_session where course_id = ${courseId} order by id`,
    );
    const times = await queryRows(ctx.app, sql`select id from class_time where session_id = ${sessionId} order by id`);
    return { c, sessions, times };
  };

  it('PUT, publish, archive, cover, sessions, session edits, class times and the roster', async () => {
    const before = await state();
    for (const who of [attacker, learner]) {
      const opts = { cookie: who.cookie };
      const answers = {
        put: await call(ctx.app, 'PUT', `/api/courses/${courseId}`, courseBody({ title: 'Taken over' }), opts),
        publish: await post(ctx.app, `/api/courses/${courseId}/publish`, undefined, opts),
        archive: await post(ctx.app, `/api/courses/${courseId}/archive`, undefined, opts),
        cover: await uploadCover(courseId, who.cookie, { data: await png(), filename: 'x.png', type: 'image/png' }),
        addSession: await post(ctx.app, `/api/courses/${courseId}/sessions`, sessionBody(), opts),
        editSession: await patchSession(ctx.app, who, courseId, sessionId, { capacity: 1 }),
        cancelSession: await patchSession(ctx.app, who, courseId, sessionId, { status: 'cancelled' }),
        addClassTime: await addClassTimes(ctx.app, who, courseId, sessionId, classTimeBody(40)),
        deleteClassTime: await del(ctx.app, `/api/courses/${courseId}/sessions/${sessionId}/class-times/${classTimeId}`, opts),
        roster: await get(ctx.app, `/api/courses/${courseId}/roster`, opts),
        rosterCsv: await get(ctx.app, `/api/courses/${courseId}/roster.csv`, opts),
      };
      for (const [name, res] of Object.entries(answers)) expect([name, res.statusCode, res.body]).toEqual([name, 403, expect.any(String)]);
    }
    expect(await state()).toEqual(before);
  });

  it("the attacker's own course with the victim's session or class time ids answers 404 and changes nothing", async () => {
    const before = await state();
    const mine = await makeCourse(ctx.app, attacker);
    const mySession = await makeSession(ctx.app, attacker, mine);
    expect((await patchSession(ctx.app, attacker, mine, sessionId, { status: 'cancelled' })).statusCode).toBe(404);
    expect((await addClassTimes(ctx.app, attacker, mine, sessionId, classTimeBody(45))).statusCode).toBe(404);
    expect(
      (await del(ctx.app, `/api/courses/${mine}/sessions/${mySession}/class-times/${classTimeId}`, { cookie: attacker.cookie })).statusCode,
    ).toBe(404);
    expect(await state()).toEqual(before);
  });
});

describe('unknown and malformed ids', () => {
  it('unknown course or session ids answer 404', async () => {
    const opts = { cookie: ctx.educator.cookie };
    expect((await get(ctx.app, `/api/courses/${UNKNOWN_ID}`, opts)).statusCode).toBe(404);
    expect((await call(ctx.app, 'PUT', `/api/courses/${UNKNOWN_ID}`, courseBody(), opts)).statusCode).toBe(404);
    expect((await post(ctx.app, `/api/courses/${UNKNOWN_ID}/publish`, undefined, opts)).statusCode).toBe(404);
    expect((await post(ctx.app, `/api/courses/${UNKNOWN_ID}/archive`, undefined, opts)).statusCode).toBe(404);
    expect((await post(ctx.app, `/api/courses/${UNKNOWN_ID}/sessions`, sessionBody(), opts)).statusCode).toBe(404);
    expect((await get(ctx.app, `/api/courses/${UNKNOWN_ID}/roster`, opts)).statusCode).toBe(404);
    const id = await makeCourse(ctx.app, ctx.educator);
    expect((await patchSession(ctx.app, ctx.educator, id, UNKNOWN_ID, { capacity: 5 })).statusCode).toBe(404);
    expect((await addClassTimes(ctx.app, ctx.educator, id, UNKNOWN_ID, classTimeBody(31))).statusCode).toBe(404);
    const sessionId = await makeSession(ctx.app, ctx.educator, id);
    expect((await del(ctx.app, `/api/courses/${id}/sessions/${sessionId}/class-times/${UNKNOWN_ID}`, opts)).statusCode).toBe(404);
  });

  it('ids that are not uuids answer 400 naming the parameter', async () => {
    const opts = { cookie: ctx.educator.cookie };
    const course = await get(ctx.app, '/api/courses/42', opts);
    expect(course.statusCode).toBe(400);
    expect(course.json().error.fields).toHaveProperty('courseId');
    const id = await makeCourse(ctx.app, ctx.educator);
    const session = await patchSession(ctx.app, ctx.educator, id, 'nope', { capacity: 5 });
    expect(session.statusCode).toBe(400);
    expect(session.json().error.fields).toHaveProperty('sessionId');
    expect((await post(ctx.app, "/api/courses/1'or'1'='1/publish", undefined, opts)).statusCode).toBe(400);
  });
});
