import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/server/db/client.js';
import { seedClubs } from '../../../scripts/seed-clubs.js';
import { tempDir } from '../../support/app.js';
import { createRunDatabase, type RunDatabase } from '../../support/run-database.js';

/**
 * The clubs scale seed (scripts/seed-clubs.ts, `npm run seed -- --clubs N`) on a database of
 * its own (it drops and rebuilds indexes): two batches of a small seed, then every derived
 * column against the rows it summarizes, and the rules the app keeps.
 */
describe('the clubs scale seed', () => {
  let run: RunDatabase;
  let client: pg.Client;
  const one = async (sql: string) => Number(Object.values((await client.query(sql)).rows[0])[0]);

  beforeAll(async () => {
    const made = await createRunDatabase('agora_clubseed');
    if ('error' in made) throw new Error(made.error);
    run = made;
    const database = await openDatabase({ url: run.url, dataDir: tempDir(), poolSize: 1 }); // migrations
    await database.close();
    client = new pg.Client({ connectionString: run.url });
    await client.connect();
    await seedClubs(client, { clubs: 200 });
    await seedClubs(client, { clubs: 100 });
  }, 120_000);

  afterAll(async () => {
    await client?.end();
    await run?.drop();
  });

  it('writes clubs, memberships, events and RSVPs in realistic numbers', async () => {
    expect(await one(`select count(*) from club`)).toBe(300);
    const memberships = await one(`select count(*) from club_membership`);
    expect(memberships).toBeGreaterThan(300 * 6);
    expect(memberships).toBeLessThan(300 * 20);
    const events = await one(`select count(*) from club_event`);
    expect(events).toBeGreaterThan(300 * 2);
    expect(events).toBeLessThan(300 * 4);
    expect(await one(`select count(*) from club_rsvp`)).toBeGreaterThan(events * 3);
    expect(await one(`select count(*) from club where visibility = 'approval'`)).toBeGreaterThan(5);
    expect(await one(`select count(*) from club where online`)).toBeGreaterThan(20);
    expect(await one(`select count(*) from club_membership where state = 'pending'`)).toBeGreaterThan(0);
    expect(await one(`select count(*) from club_rsvp where status = 'waitlisted'`)).toBeGreaterThan(0);
  });

  it('keeps every derived column consistent with its rows', async () => {
    expect(
      await one(`select count(*) from club c
        where member_count <> (select count(*) from club_membership m where m.club_id = c.id and m.state = 'active')`),
    ).toBe(0);
    expect(
      await one(`select count(*) from club_event e
        where going_count <> (select count(*) from club_rsvp r where r.event_id = e.id and r.status = 'going')`),
    ).toBe(0);
    expect(
      await one(`select count(*) from club c where next_event_at is distinct from
        (select min(starts_at) from club_event e where e.club_id = c.id and e.status = 'scheduled' and e.starts_at > now())`),
    ).toBe(0);
    // A keyed job refreshes next_event_at when that event starts (clubs/attendance.ts).
    expect(
      await one(`select count(*) from club c where next_event_at is not null
        and not exists (select 1 from job j where j.key = 'club-next-event:' || c.id and j.state = 'queued' and j.run_at = c.next_event_at)`),
    ).toBe(0);
  });

  it('keeps the rules of clubs: one owner, RSVPs of active members, capacity, the waitlist only when full', async () => {
    expect(
      await one(
        `select count(*) from club c where (select count(*) from club_membership m where m.club_id = c.id and m.role = 'owner' and m.state = 'active') <> 1`,
      ),
    ).toBe(0);
    expect(
      await one(
        `select count(*) from club c where created_by is distinct from (select user_id from club_membership m where m.club_id = c.id and m.role = 'owner')`,
      ),
    ).toBe(0);
    expect(
      await one(`select count(*) from club_rsvp r join club_event e on e.id = r.event_id
        where not exists (select 1 from club_membership m where m.club_id = e.club_id and m.user_id = r.user_id and m.state = 'active')`),
    ).toBe(0);
    expect(await one(`select count(*) from club_event where capacity is not null and going_count > capacity`)).toBe(0);
    expect(
      await one(`select count(*) from club_event e where (e.capacity is null or e.going_count < e.capacity)
        and exists (select 1 from club_rsvp r where r.event_id = e.id and r.status = 'waitlisted')`),
    ).toBe(0);
    expect(await one(`select count(*) from club_rsvp where (status = 'waitlisted') <> (queue_order is not null)`)).toBe(0);
  });

  it('fills the typo-correction words and the search statistics', async () => {
    expect(
      await one(`select count(*) from (select distinct w from club, regexp_split_to_table(lower(name || ' ' || coalesce(city, '')), '[^[:alnum:]]+') w
        where length(w) >= 3 except select word from club_search_word) missing`),
    ).toBe(0);
    expect(await one(`select freq from club_search_stat where col = 'club' and val = ':rows'`)).toBe(300);
    expect(await one(`select count(*) from club_search_stat where col = 'search'`)).toBeGreaterThan(10);
  });

  it('fills club search\u2019s postings and lexeme counts as the triggers would (both batches)', async () => {
    const want = `select l, id, case when l = any (tsvector_to_array(search_name)) then 1 else 2 end, member_count, category, lower(city),
      online, visibility, next_event_at from club, unnest(tsvector_to_array(search)) l`;
    const got = `select lexeme, club_id, tier, member_count, category, city, online, visibility, next_event_at from club_term`;
    expect(await one(`select count(*) from club_term`)).toBeGreaterThan(300 * 10);
    expect(await one(`select count(*) from ((${want}) except all (${got})) x`)).toBe(0);
    expect(await one(`select count(*) from ((${got}) except all (${want})) x`)).toBe(0);
    const counts = `select word, ndoc from ts_stat('select search from club')`;
    expect(await one(`select count(*) from ((${counts}) except all (select lexeme, n_all from club_lexeme where n_all <> 0)) x`)).toBe(0);
    expect(await one(`select count(*) from ((select lexeme, n_all from club_lexeme where n_all <> 0) except all (${counts})) x`)).toBe(0);
  });

  it('leaves every index it dropped rebuilt', async () => {
    const names = (await client.query(`select indexname from pg_indexes where tablename like 'club%'`)).rows.map((r) => r.indexname);
    for (const name of [
      'club_search_idx',
      'club_search_name_idx',
      'club_members_idx',
      'club_category_idx',
      'club_rsvp_event_idx',
      'club_membership_user_idx',
      'club_term_walk_idx',
    ])
      expect(names).toContain(name);
  });
});
