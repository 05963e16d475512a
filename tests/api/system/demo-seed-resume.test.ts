import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { keepSeedingDemo, seedDemoOnce, seedDemoUsers } from '../../../src/server/seed/demo-seed.js';
import type { TestApp } from '../../support/app.js';
import { buildPaymentsApp } from '../../support/payments.js';
import type { RunDatabase } from '../../support/run-database.js';
import { databaseBehindProxy, type TcpProxy } from '../../support/tcp-proxy.js';
import { CITY_CLUBS } from '../../../src/server/seed/demo-clubs-data.js';

const FIRST_CLUBS = ['London Chess Evenings', 'Manchester Morning Runners', 'Science Fiction Book Circle'];

/**
 * Issue 23 item 16: a database lost during the first seconds of a first start left 0 of 40
 * demo courses until the next restart. Now the demo is made again, where it stopped, as soon
 * as the database is back, and is recorded complete only when it is. The database is cut
 * (connections refused, open ones cut) twice while the demo is being made: once its courses
 * are written, and once its first club is.
 */
const usesPostgres = !!inject('databaseUrl');

describe.skipIf(!usesPostgres)('the demo data after a database lost during a first start', () => {
  let run: RunDatabase;
  let proxy: TcpProxy;
  let admin: pg.Client;
  let app: TestApp;

  const count = async (query: string) => (await admin.query<{ n: number }>(query)).rows[0].n;
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  beforeAll(async () => {
    let url: string;
    ({ run, proxy, url } = await databaseBehindProxy('agora_resume'));
    app = await buildPaymentsApp({
      SEED_DEMO: 'true',
      DATABASE_URL: url,
      DATABASE_CONNECT_TIMEOUT_MS: '2000',
      DATABASE_STATEMENT_TIMEOUT_MS: '10000',
    });
    admin = new pg.Client({ connectionString: run.url });
    await admin.connect();
  });

  afterAll(async () => {
    // Bounded: once (of many runs, under load beside other files) closing this app, whose
    // connections went through the cut proxy, outlasted the 180 s hook; the subject here is the
    // seed, so a slow close is reported, not waited for (noted for its own issue).
    const closed = await Promise.race([app?.close().then(() => true), pause(60_000).then(() => false)]);
    if (!closed) console.warn('  app.close() took over 60 s after the database cuts');
    await proxy?.close();
    await admin?.end();
    await run?.drop();
  });

  it('is completed once the database is back, each part once, and recorded complete only then', { timeout: 300_000 }, async () => {
    await seedDemoUsers(app);
    expect(await count(`select count(*)::int as n from "user" where email = 'ada@agora.local'`)).toBe(1);

    let stop = false;
    const seeding = keepSeedingDemo(app, { stopped: () => stop, firstRetryMs: 300, maxRetryMs: 1000, busyPollMs: 200 });
    const cuts: string[] = [];
    /** Cuts the database as soon as `probe` holds and the demo is not complete yet. */
    const cutWhen = async (what: string, probe: string) => {
      const until = Date.now() + 180_000;
      while (Date.now() < until) {
        if ((await count(`select count(*)::int as n from setup_step where name = 'demo'`)) > 0) return;
        if ((await count(probe)) > 0) {
          await proxy.refuse();
          cuts.push(what);
          await pause(1500);
          await proxy.restore();
          return;
        }
        await pause(25);
      }
    };
    try {
      await cutWhen('courses written', 'select count(*)::int as n from course');
      await cutWhen('first club written', 'select count(*)::int as n from club');
      const { outcome, failures } = await seeding;
      console.log(`  demo seed: database cut when ${cuts.join(' and ') || 'never'}; ${failures} attempt(s) failed, then complete`);
      expect(outcome).toBe('made');
      // The cuts landed while the demo was being made, and attempts failed on them.
      expect(cuts.length).toBeGreaterThanOrEqual(1);
      expect(failures).toBeGreaterThanOrEqual(1);
    } finally {
      stop = true;
      await proxy.restore();
    }

    // Complete, and each part once.
    expect(await count(`select count(*)::int as n from setup_step where name = 'demo'`)).toBe(1);
    expect(await count(`select count(*)::int as n from "user" where email in ('ada@agora.local', 'grace@agora.local')`)).toBe(2);
    expect(await count(`select count(*)::int as n from course`)).toBe(40);
    expect(await count(`select count(*)::int as n from (select educator_id, title from course group by 1, 2 having count(*) > 1) d`)).toBe(
      0,
    );
    const clubs = (
      await admin.query<{ name: string; events: number; members: number }>(
        `select c.name, (select count(*)::int from club_event e where e.club_id = c.id) as events, c.member_count as members from club c order by c.name`,
      )
    ).rows;
    // Each club once: the first three as written, and one in every city of the catalogue.
    expect(clubs.map((c) => c.name)).toEqual([...FIRST_CLUBS, ...CITY_CLUBS.map((c) => c.name)].sort());
    expect(clubs.filter((c) => FIRST_CLUBS.includes(c.name))).toEqual([
      { name: 'London Chess Evenings', events: 8, members: 3 },
      { name: 'Manchester Morning Runners', events: 4, members: expect.any(Number) },
      { name: 'Science Fiction Book Circle', events: 7, members: 2 },
    ]);
    // Grace's six sales, each paid once (one dropped and refunded), and views for the funnel.
    const sales = (
      await admin.query<{ buyer: string; status: string; n: number }>(
        `select b.email as buyer, p.status, count(*)::int as n from purchase p join "user" g on g.id = p.educator_id join "user" b on b.id = p.user_id
          where g.email = 'grace@agora.local' and p.status not in ('open', 'expired') group by 1, 2 order by 1`,
      )
    ).rows;
    expect(sales.map((s) => s.buyer)).toEqual(
      ['arjun@agora.local', 'chloe@agora.local', 'maya@agora.local', 'mei@agora.local', 'alan@agora.local', 'noah@agora.local'].sort(),
    );
    expect(sales.every((s) => s.n === 1)).toBe(true);
    expect(sales.find((s) => s.buyer === 'chloe@agora.local')!.status).not.toBe('fulfilled');
    expect(await count(`select count(*)::int as n from course_view_day`)).toBeGreaterThan(0);

    // A later start finds it complete and does nothing.
    expect(await seedDemoOnce(app)).toBe('already');
    expect(await count(`select count(*)::int as n from course`)).toBe(40);
  });
});
