import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createRunDatabase, type RunDatabase } from '../../support/run-database.js';
import { request, startServer, waitUntil, type ServerProcess } from '../../support/server-process.js';

/**
 * Issue 24 item 2: three app instances (real processes, as `npm start` runs them) started at
 * the same moment on one empty database. Before the advisory locks, 2 of 3 exited with
 * `Failed query: CREATE TABLE "account"`. Now all three serve, every migration is applied
 * once, and the demo data is made once (by whichever instance took the lock).
 */
const usesPostgres = !!inject('databaseUrl');

describe.skipIf(!usesPostgres)('three instances started together on an empty database', () => {
  let run: RunDatabase | undefined;
  let servers: ServerProcess[] = [];
  let admin: pg.Client | undefined;

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await admin?.end();
    await run?.drop();
  });

  it('all come up, and the demo data is made once', { timeout: 600_000 }, async () => {
    const made = await createRunDatabase('agora_fleet', '');
    if ('error' in made) throw new Error(made.error);
    run = made;
    const started = await Promise.allSettled(
      [1, 2, 3].map(() => startServer({ databaseUrl: made.url, env: { SEED_DEMO: 'true', LOG_LEVEL: 'warn' }, startCeilingMs: 400_000 })),
    );
    servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    expect(started.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []))).toEqual([]);

    admin = new pg.Client({ connectionString: made.url });
    await admin.connect();
    const count = async (query: string) => (await admin!.query<{ n: number }>(query)).rows[0].n;
    await waitUntil(
      'the demo data to be complete',
      async () => (await count(`select count(*)::int as n from setup_step where name = 'demo'`)) === 1,
      400_000,
    );

    const journal = JSON.parse(readFileSync('drizzle/meta/_journal.json', 'utf8')) as { entries: unknown[] };
    expect(await count('select count(*)::int as n from drizzle.__drizzle_migrations')).toBe(journal.entries.length);
    expect(await count(`select count(*)::int as n from "user" where email = 'ada@agora.local'`)).toBe(1);
    expect(await count('select count(*)::int as n from course')).toBe(40);
    expect(await count('select count(*)::int as n from club')).toBe(3);
    expect(
      await count(`select count(*)::int as n from purchase p join "user" g on g.id = p.educator_id
                   where g.email = 'grace@agora.local' and p.status not in ('open', 'expired')`),
    ).toBe(6);
    for (const s of servers) {
      expect(s.exit()).toBeNull();
      expect((await request(s.base, 'GET', '/api/health')).status).toBe(200);
      // Every instance signs the demo learner in.
      const signIn = await request(s.base, 'POST', '/api/accounts/sign-in', {
        body: { email: 'ada@agora.local', password: 'Agora-demo-2026' },
      });
      expect(signIn.status, signIn.body).toBe(200);
    }
  });
});
