import { sql } from 'drizzle-orm';
import type { Response } from 'light-my-request';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { analyticsResult } from '../../../src/shared/analytics-schemas.js';
import { clubSearchResult, eventView } from '../../../src/shared/clubs-schemas.js';
import { courseView, searchResult } from '../../../src/shared/courses-schemas.js';
import { join, localIn, makeClub, makeEvents, makeUser } from '../../support/clubs.js';
import {
  classTimeBody,
  enrol,
  firstClassTookPlace,
  makeClassTimes,
  makeCourse,
  makeEducator,
  makeLearner,
  makeSession,
  publish,
  putReview,
  type Educator,
} from '../../support/courses.js';
import type { SignedInUser } from '../../support/factories.js';
import { useTestApp } from '../../support/app.js';
import { call, get } from '../../support/http.js';

/**
 * The routes that send JSON text as it is (built by PostgreSQL, or serialized once and
 * cached) skip their declared response schema: Fastify never runs it (ADR 0034, ADR 0036).
 * Here each answer is parsed and checked against that schema, on data with its optional
 * and null fields both filled and empty: a missing field, a wrong type, or a key the schema
 * does not declare (which the serializer would have dropped) fails.
 */
function asDeclared<S extends z.ZodType>(schema: S, res: Response, what: string): z.infer<S> {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(200);
  expect(res.headers['content-type'], what).toMatch(/^application\/json/);
  const body: unknown = JSON.parse(res.body);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error(`${what} does not match its declared schema:\n${z.prettifyError(parsed.error)}`);
  // Nothing the schema would drop or change: the answer is exactly what it declares.
  expect(parsed.data, `${what}: keys or values the schema does not declare`).toStrictEqual(body);
  return parsed.data;
}

const ctx = useTestApp();
const TOK = `jsontext${Date.now().toString(36)}`;

describe('the course page and course search', () => {
  let educator: Educator;
  let learner: SignedInUser;
  let waitlisted: SignedInUser;
  let paidId: string;
  let freeId: string;

  beforeAll(async () => {
    educator = await makeEducator(ctx.app);
    learner = await makeLearner(ctx.app);
    waitlisted = await makeLearner(ctx.app);
    // A free online course: one session full (capacity 1) with a waitlist, class times with a link.
    freeId = await makeCourse(ctx.app, educator, { title: `${TOK} watercolour evenings` });
    const full = await makeSession(ctx.app, educator, freeId, { capacity: 1 });
    await makeClassTimes(ctx.app, educator, freeId, full);
    await makeClassTimes(ctx.app, educator, freeId, full, classTimeBody(40, { meetingUrl: null, location: 'Studio 4' }));
    await publish(ctx.app, educator, freeId);
    expect((await enrol(ctx.app, learner, freeId, full)).statusCode).toBe(200);
    expect((await enrol(ctx.app, waitlisted, freeId, full)).statusCode).toBe(200);
    await firstClassTookPlace(ctx.app, freeId);
    expect((await putReview(ctx.app, learner, freeId, { rating: 4, text: 'Patient and clear.' })).statusCode).toBeLessThan(300);
    // A second session with no class time yet.
    await makeSession(ctx.app, educator, freeId);
    // A paid in-person course in installments, with a cover and an audience.
    paidId = await makeCourse(ctx.app, educator, {
      title: `${TOK} life drawing in person`,
      format: 'in_person',
      city: 'Lisbon',
      address: 'Rua Augusta 10',
      audience: 'Adults who have never drawn',
      priceCents: 30000,
      installments: 3,
    });
    const session = await makeSession(ctx.app, educator, paidId);
    await makeClassTimes(ctx.app, educator, paidId, session, classTimeBody(35, { meetingUrl: null, location: 'Room 2' }));
    await publish(ctx.app, educator, paidId);
    await ctx.app.database.db.execute(sql`update course set cover_image = '/uploads/covers/life-drawing.webp' where id = ${paidId}`);
  });

  it('the course page, as its owner, a learner who reviewed, one on the waitlist and a stranger', async () => {
    const stranger = await makeLearner(ctx.app);
    const seen = [];
    for (const [who, user] of [
      ['owner', educator],
      ['learner', learner],
      ['waitlisted', waitlisted],
      ['stranger', stranger],
    ] as const) {
      for (const id of [freeId, paidId]) {
        seen.push(asDeclared(courseView, await get(ctx.app, `/api/courses/${id}`, { cookie: user.cookie }), `course page (${who})`));
      }
    }
    const free = seen[2];
    // The data covered both sides of the optional fields.
    expect(free.reviews).toHaveLength(1);
    expect(free.reviews[0].mine).toBe(true);
    expect(free.sessions.map((s) => s.classTimes.length)).toEqual(expect.arrayContaining([0, 2]));
    expect(free.sessions.flatMap((s) => s.classTimes).map((t) => t.meetingUrl === null)).toEqual(expect.arrayContaining([true, false]));
    expect(free.sessions.some((s) => s.myEnrolment?.status === 'active')).toBe(true);
    expect(seen[4].sessions.some((s) => s.myEnrolment?.status === 'waitlisted' && s.myEnrolment.waitlistPosition === 1)).toBe(true);
    expect(free).toMatchObject({ coverImage: null, audience: null, installments: null, city: null });
    expect(seen[3]).toMatchObject({ coverImage: '/uploads/covers/life-drawing.webp', installments: 3, city: 'Lisbon' });
    expect(seen[0].isOwner).toBe(true);
  });

  it('course search: one word, a typo, filters and sorts', async () => {
    for (const query of [
      `q=${TOK}`,
      `q=${TOK}&sort=price`,
      `q=${TOK}&free=false&hasSeats=true`,
      `q=${TOK.slice(0, -1)}x`,
      `q=${TOK}&format=in_person&city=Lisbon`,
      'q=qqqqxxxxzzzz',
    ]) {
      const res = await get(ctx.app, `/api/courses/search?${query}`, { cookie: learner.cookie });
      asDeclared(searchResult, res, `course search ${query}`);
    }
    const all = asDeclared(searchResult, await get(ctx.app, `/api/courses/search?q=${TOK}`, { cookie: learner.cookie }), 'course search');
    expect(all.items.map((c) => c.id).sort()).toEqual([freeId, paidId].sort());
    expect(all.items.map((c) => c.coverImage === null)).toEqual(expect.arrayContaining([true, false]));
    expect(all.items.map((c) => c.city === null)).toEqual(expect.arrayContaining([true, false]));
  });

  it('the analytics answer (serialized once and sent as text)', async () => {
    const res = await get(ctx.app, `/api/educator/${educator.id}/analytics`, { cookie: educator.cookie });
    const body = asDeclared(analyticsResult, res, 'analytics');
    expect(body.hasActivity).toBe(true);
    asDeclared(
      analyticsResult,
      await get(ctx.app, `/api/educator/${educator.id}/analytics?course=${freeId}`, { cookie: educator.cookie }),
      'analytics of a course',
    );
  });
});

describe('club search and the event page', () => {
  let owner: SignedInUser;
  let member: SignedInUser;
  let second: SignedInUser;
  let publicId: string;
  let approvalId: string;
  let eventId: string;
  let onlineId: string;

  beforeAll(async () => {
    owner = await makeUser(ctx.app, 'Owner');
    member = await makeUser(ctx.app, 'Member');
    second = await makeUser(ctx.app, 'Second');
    publicId = await makeClub(ctx.app, owner, { name: `${TOK} Chess Circle`, city: 'Lisbon' });
    approvalId = await makeClub(ctx.app, owner, { name: `${TOK} Quiet Society`, visibility: 'approval', online: true, city: null });
    // A club with no event: its card has no next event.
    await makeClub(ctx.app, owner, { name: `${TOK} Sleepy Readers`, city: 'Porto' });
    await ctx.app.database.db.execute(sql`update club set cover_image = '/uploads/covers/chess.webp' where id = ${publicId}`);
    await join(ctx.app, member, publicId);
    await join(ctx.app, second, publicId);
    // Capacity 1: one going, one on the waitlist; an RSVP deadline.
    [eventId] = await makeEvents(ctx.app, owner, publicId, { title: 'Blitz night', capacity: 1, rsvpDeadline: localIn(6, '12:00') });
    [onlineId] = await makeEvents(ctx.app, owner, publicId, {
      title: 'Online puzzles',
      address: null,
      onlineUrl: 'https://meet.example.com/puzzles',
    });
    await makeEvents(ctx.app, owner, approvalId, { title: 'Members only' });
    for (const user of [member, second]) {
      const res = await call(ctx.app, 'PUT', `/api/clubs/${publicId}/events/${eventId}/rsvp`, { answer: 'going' }, { cookie: user.cookie });
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('club search: one word, a typo, filters and sorts', async () => {
    const stranger = await makeUser(ctx.app, 'Stranger');
    for (const query of [
      `q=${TOK}`,
      `q=${TOK}&sort=members`,
      `q=${TOK}&city=Lisbon&upcoming=true`,
      `q=${TOK}&online=true`,
      `q=${TOK} chess`,
      `q=${TOK} chesss`,
      'q=qqqqxxxxzzzz',
      `city=Lisbon&pageSize=5`,
    ]) {
      asDeclared(
        clubSearchResult,
        await get(ctx.app, `/api/clubs/search?${encodeURI(query)}`, { cookie: stranger.cookie }),
        `club search ${query}`,
      );
    }
    const found = asDeclared(
      clubSearchResult,
      await get(ctx.app, `/api/clubs/search?q=${TOK}`, { cookie: stranger.cookie }),
      'club search',
    );
    expect(found.items).toHaveLength(3);
    expect(found.items.map((c) => c.nextEventAt === null)).toEqual(expect.arrayContaining([true, false]));
    expect(found.items.map((c) => c.coverImage === null)).toEqual(expect.arrayContaining([true, false]));
    expect(found.items.map((c) => c.city === null)).toEqual(expect.arrayContaining([true, false]));
    const typo = asDeclared(
      clubSearchResult,
      await get(ctx.app, `/api/clubs/search?q=${encodeURIComponent(`${TOK} chesss`)}`, { cookie: stranger.cookie }),
      'club search typo',
    );
    expect(typo.correctedQuery).not.toBeNull();
  });

  it('the event page, as its organiser, a member going, one on the waitlist, and a stranger', async () => {
    const stranger = await makeUser(ctx.app, 'Stranger');
    const views = [];
    for (const [who, user] of [
      ['organiser', owner],
      ['going', member],
      ['waitlisted', second],
      ['stranger', stranger],
    ] as const) {
      for (const id of [eventId, onlineId]) {
        const res = await get(ctx.app, `/api/clubs/${publicId}/events/${id}`, { cookie: user.cookie });
        views.push(asDeclared(eventView, res, `event page (${who})`));
      }
    }
    expect(views[0]).toMatchObject({ canManage: true, capacity: 1, goingCount: 1, waitlistCount: 1 });
    expect(views[0].rsvpDeadline).not.toBeNull();
    expect(views[1]).toMatchObject({ capacity: null, rsvpDeadline: null, address: null, online: true });
    expect(views[2].myRsvp).toMatchObject({ status: 'going', waitlistPosition: null });
    expect(views[4].myRsvp).toMatchObject({ status: 'waitlisted', waitlistPosition: 1 });
    expect(views[6]).toMatchObject({ myRsvp: null, isMember: false });
  });
});
