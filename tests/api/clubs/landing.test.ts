import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { join, makeClub, makeUser } from '../../support/clubs.js';
import { get } from '../../support/http.js';
import { createRunDatabase, type RunDatabase } from '../../support/run-database.js';

/** The landing page's clubs shelf (composed in system/, courses never import clubs). */
let app: TestApp;
let db: RunDatabase | null = null;
beforeAll(async () => {
  // A database of its own: the shelf is the top of every club there is.
  const made = await createRunDatabase('agora_landing_clubs');
  db = 'error' in made ? null : made;
  app = await buildTestApp(db ? { DATABASE_URL: db.url } : {}, { ownDatabase: !db });
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

describe('GET /api/landing: featured clubs', () => {
  it('shows to a visitor at most 6 public clubs, the most members first, never an approval club', async () => {
    const owner = await makeUser(app);
    const people = [await makeUser(app), await makeUser(app), await makeUser(app)];
    const big = await makeClub(app, owner, { name: 'Big Public Club' });
    const small = await makeClub(app, owner, { name: 'Small Public Club', description: '## Hello\n\nWe **read** together.' });
    const hidden = await makeClub(app, owner, { name: 'Hidden Approval Club', visibility: 'approval' });
    for (const p of people) {
      await join(app, p, big);
      await join(app, p, hidden, 'Let me in');
    }
    await join(app, people[0], small);
    const rest: string[] = [];
    for (let i = 0; i < 5; i++) rest.push(await makeClub(app, owner, { name: `Quiet club ${i}` }));

    const res = await get(app, '/api/landing');
    expect(res.statusCode).toBe(200);
    const clubs = res.json().featuredClubs as { id: string; name: string; summary: string; memberCount: number }[];
    expect(clubs).toHaveLength(6);
    expect(clubs.map((c) => c.id)).not.toContain(hidden);
    expect(clubs.slice(0, 2).map((c) => c.id)).toEqual([big, small]);
    expect(clubs[0]).toMatchObject({ name: 'Big Public Club', memberCount: 4, category: 'social', coverImage: null });
    expect(clubs[1]).toMatchObject({ summary: 'Hello. We read together.', memberCount: 2 });
    expect(clubs.slice(2).every((c) => c.memberCount === 1 && rest.includes(c.id))).toBe(true);
  });
});
