import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { UNKNOWN_ID } from '../../support/test-data.js';
import { createSignedInUser } from '../../support/factories.js';
import { call, get, post, randomIp } from '../../support/http.js';
import { fileForm } from '../../support/multipart.js';
import { sql } from 'drizzle-orm';
import { courseBody, educatorBody, makeCourse, makeEducator, makePublishedCourse, queryRows } from '../../support/courses.js';

const ctx = useTestApp();

describe('educator onboarding (POST /api/educators)', () => {
  it('creates the educator record, and /api/me then shows it', async () => {
    const user = await createSignedInUser(ctx.app);
    expect((await get(ctx.app, '/api/me', { cookie: user.cookie })).json().educator).toBeNull();

    const res = await post(ctx.app, '/api/educators', educatorBody(), { cookie: user.cookie });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ ok: true });

    const me = (await get(ctx.app, '/api/me', { cookie: user.cookie })).json();
    expect(me.educator).toMatchObject({ userId: user.id, bio: educatorBody().bio, stripeConnectAccountId: null });

    const profile = await get(ctx.app, `/api/educators/${user.id}`, { cookie: user.cookie });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({
      userId: user.id,
      name: 'Ada Lovelace',
      headline: educatorBody().headline,
      subjects: ['watercolour', 'drawing'],
      links: ['https://example.com/portfolio'],
      isMe: true,
      payoutsReady: false,
      courses: [],
    });
  });

  it('a second time answers 409 and keeps the first profile', async () => {
    const user = await createSignedInUser(ctx.app);
    expect((await post(ctx.app, '/api/educators', educatorBody(), { cookie: user.cookie })).statusCode).toBe(201);
    const again = await post(ctx.app, '/api/educators', educatorBody({ headline: 'Someone else entirely' }), { cookie: user.cookie });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('already_educator');
    expect((await get(ctx.app, `/api/educators/${user.id}`, { cookie: user.cookie })).json().headline).toBe(educatorBody().headline);
  });

  it('two onboarding requests at once: one 201, one 409 (never a 500)', async () => {
    const user = await createSignedInUser(ctx.app);
    const answers = await Promise.all([0, 1].map(() => post(ctx.app, '/api/educators', educatorBody(), { cookie: user.cookie })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('a short bio answers 400 naming the field, and creates nothing', async () => {
    const user = await createSignedInUser(ctx.app);
    const res = await post(ctx.app, '/api/educators', educatorBody({ bio: 'Too short' }), { cookie: user.cookie });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.bio).toMatch(/at least 20 characters/);
    expect((await get(ctx.app, '/api/me', { cookie: user.cookie })).json().educator).toBeNull();
  });

  it('a missing headline, a bad link and too many subjects each answer 400 with their field', async () => {
    const user = await createSignedInUser(ctx.app);
    const noHeadline = await post(ctx.app, '/api/educators', educatorBody({ headline: undefined }), { cookie: user.cookie });
    expect(noHeadline.statusCode).toBe(400);
    expect(noHeadline.json().error.fields).toHaveProperty('headline');
    const badLink = await post(ctx.app, '/api/educators', educatorBody({ links: ['javascript:alert(1)'] }), { cookie: user.cookie });
    expect(badLink.statusCode).toBe(400);
    expect(badLink.json().error.fields['links.0']).toMatch(/https/);
    const subjects = await post(ctx.app, '/api/educators', educatorBody({ subjects: Array.from({ length: 11 }, (_, i) => `s${i}`) }), {
      cookie: user.cookie,
    });
    expect(subjects.statusCode).toBe(400);
    expect(subjects.json().error.fields).toHaveProperty('subjects');
  });

  it('without a session answers 401', async () => {
    expect((await post(ctx.app, '/api/educators', educatorBody())).statusCode).toBe(401);
  });
});

describe('editing an educator profile', () => {
  it('the owner edits their profile', async () => {
    const me = await makeEducator(ctx.app);
    const res = await call(ctx.app, 'PUT', `/api/educators/${me.id}`, educatorBody({ headline: 'Watercolour and ink' }), {
      cookie: me.cookie,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await get(ctx.app, `/api/educators/${me.id}`, { cookie: me.cookie })).json().headline).toBe('Watercolour and ink');
  });

  it("someone else's educator profile answers 403 and is unchanged (PUT and photo)", async () => {
    const victim = await makeEducator(ctx.app);
    const attacker = await makeEducator(ctx.app);
    const res = await call(ctx.app, 'PUT', `/api/educators/${victim.id}`, educatorBody({ headline: 'Hacked' }), {
      cookie: attacker.cookie,
    });
    expect(res.statusCode).toBe(403);
    const learner = await createSignedInUser(ctx.app);
    expect(
      (await call(ctx.app, 'PUT', `/api/educators/${victim.id}`, educatorBody({ headline: 'Hacked' }), { cookie: learner.cookie }))
        .statusCode,
    ).toBe(403);

    const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const form = await fileForm({ data: png, filename: 'me.png', type: 'image/png' });
    const photo = await ctx.app.inject({
      method: 'POST',
      url: `/api/educators/${victim.id}/photo`,
      payload: form.payload,
      headers: { ...form.headers, origin: ctx.app.config.publicUrl, cookie: attacker.cookie },
      remoteAddress: randomIp(),
    });
    expect(photo.statusCode).toBe(403);
    expect((await get(ctx.app, `/api/educators/${victim.id}`, { cookie: victim.cookie })).json().headline).toBe(educatorBody().headline);
  });

  it('the owner uploads a photo, stored as WebP', async () => {
    const me = await makeEducator(ctx.app);
    const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const form = await fileForm({ data: png, filename: 'me.png', type: 'image/png' });
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/educators/${me.id}/photo`,
      payload: form.payload,
      headers: { ...form.headers, origin: ctx.app.config.publicUrl, cookie: me.cookie },
      remoteAddress: randomIp(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().profileImage).toMatch(/^\/uploads\/educators\/[0-9a-f-]+\.webp$/);
    expect((await get(ctx.app, `/api/educators/${me.id}`, { cookie: me.cookie })).json().profileImage).toBe(res.json().profileImage);
  });
});

describe('the public educator profile', () => {
  it('shows published courses only to others, and drafts too to the owner', async () => {
    const educator = await makeEducator(ctx.app);
    const { courseId: published } = await makePublishedCourse(ctx.app, educator, { course: { title: 'Published course' } });
    const draft = await makeCourse(ctx.app, educator, { title: 'Draft course' });

    const visitor = await createSignedInUser(ctx.app);
    const seen = await get(ctx.app, `/api/educators/${educator.id}`, { cookie: visitor.cookie });
    expect(seen.statusCode).toBe(200);
    expect(seen.json().isMe).toBe(false);
    expect(seen.json().courses.map((c: { id: string }) => c.id)).toEqual([published]);

    const own = (await get(ctx.app, `/api/educators/${educator.id}`, { cookie: educator.cookie })).json();
    expect(own.isMe).toBe(true);
    expect(own.courses.map((c: { id: string }) => c.id).sort()).toEqual([published, draft].sort());
    expect(own.courses.find((c: { id: string }) => c.id === draft).status).toBe('draft');
  });

  it('an unknown educator answers 404, a user who is not an educator too, a malformed id 400', async () => {
    const visitor = await createSignedInUser(ctx.app);
    expect((await get(ctx.app, `/api/educators/${UNKNOWN_ID}`, { cookie: visitor.cookie })).statusCode).toBe(404);
    expect((await get(ctx.app, `/api/educators/${visitor.id}`, { cookie: visitor.cookie })).statusCode).toBe(404);
    const bad = await get(ctx.app, '/api/educators/not-a-uuid', { cookie: visitor.cookie });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toHaveProperty('educatorId');
  });
});

describe('educator-only actions', () => {
  it('a user who is not an educator creating a course answers 403 not_educator, pointing to onboarding', async () => {
    const learner = await createSignedInUser(ctx.app);
    const res = await post(ctx.app, '/api/courses', courseBody(), { cookie: learner.cookie });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('not_educator');
    expect(res.json().error.fields?.next).toBe('/educator/onboard');
  });
});

describe('an educator renames themselves (accounts announces, courses keeps its copy)', () => {
  it('their courses carry the new name at once: the course page and search find it', async () => {
    const educator = await makeEducator(ctx.app, { firstName: 'Ottoline', lastName: `Morrell${randomIp().replace(/\D/g, '')}` });
    const { courseId } = await makePublishedCourse(ctx.app, educator);
    const newLast = `Quixotez${randomIp().replace(/\D/g, '')}`;
    const res = await call(ctx.app, 'PATCH', `/api/users/${educator.id}`, { lastName: newLast }, { cookie: educator.cookie });
    expect(res.statusCode, res.body).toBe(200);

    const rows = await queryRows(ctx.app, sql`select educator_name from course where id = ${courseId}`);
    expect(rows).toEqual([{ educator_name: `Ottoline ${newLast}` }]);
    const search = await get(ctx.app, `/api/courses/search?q=${newLast}`, { cookie: educator.cookie });
    expect(search.json().items.map((c: { id: string }) => c.id)).toContain(courseId);
  });

  it('a refused rename changes nothing anywhere', async () => {
    const educator = await makeEducator(ctx.app, { firstName: 'Vita', lastName: 'Sackville' });
    const { courseId } = await makePublishedCourse(ctx.app, educator);
    const other = await createSignedInUser(ctx.app);
    const res = await call(ctx.app, 'PATCH', `/api/users/${educator.id}`, { lastName: 'Hijacked' }, { cookie: other.cookie });
    expect(res.statusCode).toBe(403);
    const rows = await queryRows(ctx.app, sql`select educator_name from course where id = ${courseId}`);
    expect(rows).toEqual([{ educator_name: 'Vita Sackville' }]);
  });
});
