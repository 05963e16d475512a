import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createSignedInUser } from '../../support/factories.js';
import { rows } from '../../support/clubs.js';
import { createDemoClubs } from '../../../src/server/seed/demo-clubs.js';

const ctx = useTestApp();

it('the dev seed writes demo clubs, events and RSVPs with consistent counts', async () => {
  for (const [email, firstName] of [
    ['ada@agora.local', 'Ada'],
    ['grace@agora.local', 'Grace'],
    ['alan@agora.local', 'Alan'],
  ])
    await createSignedInUser(ctx.app, { email, firstName });
  await createDemoClubs(ctx.app);
  const clubs = await rows<{ name: string; member_count: number; counted: number; visibility: string }>(
    ctx.app,
    sql`select name, member_count, visibility, (select count(*)::int from club_membership m where m.club_id = club.id and m.state = 'active') as counted
        from club where name in ('London Chess Evenings', 'Manchester Morning Runners', 'Science Fiction Book Circle') order by name`,
  );
  expect(clubs.map((c) => c.name)).toEqual(['London Chess Evenings', 'Manchester Morning Runners', 'Science Fiction Book Circle']);
  for (const c of clubs) expect(c.member_count).toBe(c.counted);
  const chess = await rows<{ going_count: number; capacity: number }>(
    ctx.app,
    sql`select going_count, capacity from club_event e join club c on c.id = e.club_id where c.name = 'London Chess Evenings' order by starts_at limit 1`,
  );
  expect(chess[0]).toEqual({ going_count: 2, capacity: 2 });
});
