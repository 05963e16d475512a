import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { join, localIn, makeClub, makeEvents, makeUser } from '../../support/clubs.js';
import { get, post } from '../../support/http.js';
import { createRunDatabase, type RunDatabase } from '../../support/run-database.js';

/** /explore's upcoming club events: the next date of each repeat once, with how many more. */
const ctx = {} as { app: TestApp };
let db: RunDatabase | null = null;
beforeAll(async () => {
  // A database of its own: explore lists the next events of every club there is.
  const made = await createRunDatabase('agora_clubs_explore');
  db = 'error' in made ? null : made;
  ctx.app = await buildTestApp(db ? { DATABASE_URL: db.url } : {}, { ownDatabase: !db });
});
afterAll(async () => {
  await ctx.app?.close();
  await db?.drop();
});

interface Card {
  id: string;
  clubId: string;
  title: string;
  seriesId: string | null;
  moreDates?: number;
}

describe('GET /api/clubs/explore: upcoming events', () => {
  it('lists a repeat once (its next date, "and N more dates"), one-offs as they are, never members-only events', async () => {
    const owner = await makeUser(ctx.app);
    const viewer = await makeUser(ctx.app);
    const tag = Date.now().toString(36);
    const weeklyClub = await makeClub(ctx.app, owner, { name: `Weekly walkers ${tag}` });
    const oneOffClub = await makeClub(ctx.app, owner, { name: `One-off cinema ${tag}` });
    const privateClub = await makeClub(ctx.app, owner, { name: `Quiet circle ${tag}`, visibility: 'approval' });
    const weekly = await makeEvents(ctx.app, owner, weeklyClub, {
      title: `Walk ${tag}`,
      startsAt: localIn(2, '10:00'),
      endsAt: localIn(2, '12:00'),
      repeat: { frequency: 'weekly', interval: 1, count: 6 },
    });
    const monthly = await makeEvents(ctx.app, owner, weeklyClub, {
      title: `Picnic ${tag}`,
      startsAt: localIn(4, '12:00'),
      endsAt: localIn(4, '14:00'),
      repeat: { frequency: 'monthly', count: 3 },
    });
    const [film] = await makeEvents(ctx.app, owner, oneOffClub, {
      title: `Film ${tag}`,
      startsAt: localIn(3, '20:00'),
      endsAt: localIn(3, '22:00'),
    });
    await makeEvents(ctx.app, owner, privateClub, { title: `Secret ${tag}`, startsAt: localIn(1), endsAt: localIn(1, '21:00') });
    await join(ctx.app, viewer, weeklyClub);

    const events = async () =>
      ((await get(ctx.app, '/api/clubs/explore', { cookie: viewer.cookie })).json().events as Card[]).filter((e) => e.title.endsWith(tag));
    const first = await events();
    expect(first.map((e) => [e.id, e.moreDates])).toEqual([
      [weekly[0], 5],
      [film, 0],
      [monthly[0], 2],
    ]);
    expect(first.some((e) => e.title.startsWith('Secret'))).toBe(false);

    // The next date of the walks is cancelled: the one after it stands for the series.
    expect(
      (await post(ctx.app, `/api/clubs/${weeklyClub}/events/${weekly[0]}/cancel`, undefined, { cookie: owner.cookie })).statusCode,
    ).toBe(200);
    const after = await events();
    expect(after.map((e) => [e.id, e.moreDates])).toEqual([
      [film, 0],
      [monthly[0], 2],
      [weekly[1], 4],
    ]);
  });

  it('finds the next date of each series past many dates of one repeat (several pages of dates)', async () => {
    const owner = await makeUser(ctx.app);
    const clubId = await makeClub(ctx.app, owner, { name: 'Long-running club' });
    const tag = `busy${Date.now().toString(36)}`;
    // 100 weekly dates, then a one-off after the 70th of them: past the first pages read.
    const weekly = await makeEvents(ctx.app, owner, clubId, {
      title: `Every week ${tag}`,
      startsAt: localIn(1, '09:00'),
      endsAt: localIn(1, '10:00'),
      repeat: { frequency: 'weekly', interval: 1, count: 100 },
    });
    const [later] = await makeEvents(ctx.app, owner, clubId, {
      title: `Anniversary ${tag}`,
      startsAt: localIn(7 * 70 + 3, '18:00'),
      endsAt: localIn(7 * 70 + 3, '23:00'),
    });
    const res = (await get(ctx.app, '/api/clubs/explore', { cookie: owner.cookie })).json().events as Card[];
    expect(res.filter((e) => e.title.endsWith(tag)).map((e) => [e.id, e.moreDates])).toEqual([
      [weekly[0], 99],
      [later, 0],
    ]);
    expect(new Set(res.map((e) => e.seriesId ?? e.id)).size).toBe(res.length);
  });
});
