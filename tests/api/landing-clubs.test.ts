import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.js';
import { join, makeClub, makeUser, rows } from '../support/clubs.js';
import { get } from '../support/http.js';

const ctx = useTestApp();

describe('GET /api/landing: featured clubs', () => {
  it('shows a few public clubs, the most members first, never an approval club, to a visitor', async () => {
    const owner = await makeUser(ctx.app);
    const people = [await makeUser(ctx.app), await makeUser(ctx.app), await makeUser(ctx.app)];
    const big = await makeClub(ctx.app, owner, { name: 'Big Public Club' });
    const small = await makeClub(ctx.app, owner, { name: 'Small Public Club', description: '## Hello\n\nWe **read** together.' });
    const hidden = await makeClub(ctx.app, owner, { name: 'Hidden Approval Club', visibility: 'approval' });
    for (const p of people) await join(ctx.app, p, big);
    await join(ctx.app, people[0], small);
    await ctx.app.database.db.execute(sql`update club set member_count = 50 where id = ${hidden}`);

    const res = await get(ctx.app, '/api/landing');
    expect(res.statusCode).toBe(200);
    const clubs = res.json().featuredClubs as { id: string; name: string; summary: string; memberCount: number }[];
    expect(clubs.length).toBeGreaterThanOrEqual(2);
    expect(clubs.length).toBeLessThanOrEqual(6);
    expect(clubs.map((c) => c.id)).not.toContain(hidden);
    const ids = clubs.map((c) => c.id);
    expect(ids.indexOf(big)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(big)).toBeLessThan(ids.indexOf(small));
    expect(clubs.find((c) => c.id === big)).toMatchObject({ name: 'Big Public Club', memberCount: 4 });
    expect(clubs.find((c) => c.id === small)).toMatchObject({ summary: 'Hello We read together.', memberCount: 2 });
    // Every one public, in order of members.
    const vis = await rows<{ id: string; visibility: string }>(ctx.app, sql`select id, visibility from club`);
    for (const c of clubs) expect(vis.find((v) => v.id === c.id)?.visibility).toBe('public');
    expect(clubs.map((c) => c.memberCount)).toEqual([...clubs.map((c) => c.memberCount)].sort((a, b) => b - a));
  });
});
