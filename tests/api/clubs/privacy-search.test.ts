import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser } from '../../support/factories.js';
import { useTestApp } from '../../support/app.js';
import { join, makeClub, makeEvents, makeUser } from '../../support/clubs.js';
import { call, get, post } from '../../support/http.js';

const ctx = useTestApp();
const put = (url: string, body: unknown, cookie: string) => call(ctx.app, 'PUT', url, body, { cookie });

describe('an approval club: members and events are for members only, on every API', () => {
  let owner: SignedInUser;
  let member: SignedInUser;
  let outsider: SignedInUser;
  let clubId: string;
  let eventId: string;
  const secretTitle = `Secret strategy night ${Date.now()}`;

  beforeAll(async () => {
    owner = await makeUser(ctx.app, 'Owner');
    member = await makeUser(ctx.app, 'Insider');
    outsider = await makeUser(ctx.app, 'Outsider');
    clubId = await makeClub(ctx.app, owner, { name: 'Quiet Grandmasters Society', visibility: 'approval', city: 'Porto' });
    await join(ctx.app, member, clubId);
    await post(ctx.app, `/api/clubs/${clubId}/members/${member.id}`, { action: 'approve' }, { cookie: owner.cookie });
    [eventId] = await makeEvents(ctx.app, owner, clubId, { title: secretTitle });
    await put(`/api/clubs/${clubId}/events/${eventId}/rsvp`, { answer: 'going' }, member.cookie);
    // The outsider is a requester (pending): still outside.
    await join(ctx.app, outsider, clubId, 'Let me in');
  });

  it('the club page shows the public part only', async () => {
    const res = await get(ctx.app, `/api/clubs/${clubId}`, { cookie: outsider.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Quiet Grandmasters Society',
      memberCount: 2,
      membersVisible: false,
      organisers: [],
      memberPreview: [],
      upcomingEvents: [],
      pastEvents: [],
      myMembership: { state: 'pending' },
    });
    expect(res.body).not.toContain(secretTitle);
    expect(res.body).not.toContain(member.id);
    const inside = (await get(ctx.app, `/api/clubs/${clubId}`, { cookie: member.cookie })).json();
    expect(inside.upcomingEvents.map((e: { title: string }) => e.title)).toEqual([secretTitle]);
  });

  it('no other API answers its members or events to a non-member', async () => {
    const urls = [
      `/api/clubs/${clubId}/members`,
      `/api/clubs/${clubId}/events/${eventId}`,
      `/api/clubs/${clubId}/events/${eventId}/event.ics`,
      `/api/clubs/${clubId}/events/${eventId}/attendees.csv`,
    ];
    for (const url of urls) {
      const res = await get(ctx.app, url, { cookie: outsider.cookie });
      expect([403, 404], url).toContain(res.statusCode);
      expect(res.body).not.toContain(secretTitle);
      expect(res.body).not.toContain(member.email);
    }
    expect([403, 404]).toContain(
      (await put(`/api/clubs/${clubId}/events/${eventId}/rsvp`, { answer: 'going' }, outsider.cookie)).statusCode,
    );
    for (const url of [
      '/api/clubs/search?q=grandmasters',
      '/api/clubs/search?upcoming=true',
      '/api/clubs/search?sort=next_event',
      '/api/clubs/mine',
      '/api/clubs/explore',
    ]) {
      const res = await get(ctx.app, url, { cookie: outsider.cookie });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain(secretTitle);
      expect(res.body, url).not.toContain(eventId);
    }
    // Found by name, with no event date; not under "has upcoming events".
    const found = (await get(ctx.app, '/api/clubs/search?q=grandmasters', { cookie: outsider.cookie })).json();
    expect(found.items.find((c: { id: string }) => c.id === clubId)).toMatchObject({
      visibility: 'approval',
      nextEventAt: null,
      memberCount: 2,
    });
    const upcoming = (await get(ctx.app, '/api/clubs/search?upcoming=true&city=Porto', { cookie: outsider.cookie })).json();
    expect(upcoming.items.map((c: { id: string }) => c.id)).not.toContain(clubId);
    // The outsider's calendar feed has nothing of it; the member's has the event.
    for (const [who, has] of [
      [outsider, false],
      [member, true],
    ] as const) {
      const feed = (await post(ctx.app, '/api/calendar/feed', undefined, { cookie: who.cookie })).json().url as string;
      expect((await get(ctx.app, new URL(feed).pathname)).body.includes(secretTitle)).toBe(has);
    }
  });

  it('once approved, the new member sees the events', async () => {
    await post(ctx.app, `/api/clubs/${clubId}/members/${outsider.id}`, { action: 'approve' }, { cookie: owner.cookie });
    const res = await get(ctx.app, `/api/clubs/${clubId}/events/${eventId}`, { cookie: outsider.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json().attendees.map((a: { id: string }) => a.id)).toEqual([member.id]);
  });
});

describe('club search', () => {
  let owner: SignedInUser;
  const tag = Date.now().toString(36);
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    owner = await makeUser(ctx.app);
    ids.photo = await makeClub(ctx.app, owner, { name: `Photography walkers ${tag}`, category: 'arts', city: 'Ghent' });
    ids.run = await makeClub(ctx.app, owner, { name: `Ghent runners ${tag}`, category: 'sport', city: 'Ghent' });
    ids.online = await makeClub(ctx.app, owner, { name: `Online photography critique ${tag}`, category: 'arts', city: null, online: true });
    for (let i = 0; i < 3; i++) await join(ctx.app, await makeUser(ctx.app), ids.online);
    await makeEvents(ctx.app, owner, ids.run);
  });
  const search = async (q: string) => (await get(ctx.app, `/api/clubs/search?${q}`, { cookie: owner.cookie })).json();
  const idsOf = (r: { items: { id: string }[] }) => r.items.map((i) => i.id);

  it('finds by name, description and city, with a typo', async () => {
    expect(idsOf(await search(`q=${tag}`)).sort()).toEqual(Object.values(ids).sort());
    const typo = await search(`q=photograpy ${tag}`);
    expect(typo.correctedQuery).toBe(`photography ${tag}`);
    expect(idsOf(typo).sort()).toEqual([ids.photo, ids.online].sort());
    expect(idsOf(await search(`q=ghent ${tag}`)).sort()).toEqual([ids.photo, ids.run].sort());
    expect(idsOf(await search(`q=boards ${tag}`))).toHaveLength(3); // a word of the description
    expect(idsOf(await search(`q=xylophone ${tag}`))).toHaveLength(0);
  });

  it('filters, sorts and pages', async () => {
    expect(idsOf(await search(`q=${tag}&category=arts`)).sort()).toEqual([ids.photo, ids.online].sort());
    expect(idsOf(await search(`q=${tag}&online=true`))).toEqual([ids.online]);
    expect(idsOf(await search(`q=${tag}&city=ghent`)).sort()).toEqual([ids.photo, ids.run].sort());
    expect(idsOf(await search(`q=${tag}&upcoming=true`))).toEqual([ids.run]);
    expect(idsOf(await search(`q=${tag}&sort=members`))[0]).toBe(ids.online);
    expect(idsOf(await search(`q=${tag}&sort=next_event`))[0]).toBe(ids.run);
    const p1 = await search(`q=${tag}&sort=members&pageSize=2&page=1`);
    const p2 = await search(`q=${tag}&sort=members&pageSize=2&page=2`);
    expect(p1.total).toBe(3);
    expect([...idsOf(p1), ...idsOf(p2)].sort()).toEqual(Object.values(ids).sort());
    const bad = await get(ctx.app, '/api/clubs/search?category=astrology', { cookie: owner.cookie });
    expect(bad.statusCode).toBe(400);
  });

  it('stores user text as given (rendering is the web app\u2019s job, tested there)', async () => {
    const id = await makeClub(ctx.app, owner, {
      name: `<script>alert(1)</script> ${tag}`,
      description: '<img src=x onerror=alert(1)> hello there',
    });
    const view = (await get(ctx.app, `/api/clubs/${id}`, { cookie: owner.cookie })).json();
    expect(view.name).toContain('<script>');
    expect(await ctx.app.database.db.execute(sql`select 1`)).toBeTruthy();
  });
});
