import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunDatabase } from '../../support/run-database.js';
import {
  courseBody,
  educatorUser,
  request,
  runLoad,
  startServer,
  tally,
  waitUntil,
  type ServerProcess,
} from '../../support/server-process.js';
import { databaseBehindProxy, type TcpProxy } from '../../support/tcp-proxy.js';

/**
 * The real server process loses its database in the middle of a write load: every
 * connection it holds is terminated by PostgreSQL (pg_terminate_backend, 57P01) and for a
 * while no new one can be opened (the proxy in front of the database refuses). The process
 * rides it out without a restart: health 503 while the database is gone, 200 when it is
 * back; writes answer 201 or 503 (never another 5xx), and every write answered 201 is in
 * the database afterwards.
 */
const usesPostgres = !!inject('databaseUrl') && process.env.AGORA_TEST_PGLITE !== '1';
if (!usesPostgres) console.warn('  reliability-database-loss skipped: it terminates PostgreSQL connections (PGlite run)');

describe.skipIf(!usesPostgres)('the server process losing its database under load', () => {
  let run: RunDatabase;
  let proxy: TcpProxy;
  let admin: pg.Client;
  let server: ServerProcess | undefined;
  let viaProxy: string;

  beforeAll(async () => {
    ({ run, proxy, url: viaProxy } = await databaseBehindProxy('agora_reliability'));
    admin = new pg.Client({ connectionString: run.url });
    await admin.connect();
  });

  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await admin?.end();
    await run?.drop();
  });

  it('health goes 503 then 200, writes answer 201 or 503, and no acknowledged write is lost', { timeout: 300_000 }, async () => {
    server = await startServer({
      databaseUrl: viaProxy,
      env: { DATABASE_CONNECT_TIMEOUT_MS: '3000', DATABASE_STATEMENT_TIMEOUT_MS: '5000' },
    });
    const { base } = server;
    const pid = server.child.pid;
    const educator = await educatorUser(base, 'reliability-db');
    const tag = `db-loss-${Date.now()}`;

    // Health is watched all along, so the 503 -> 200 sequence is seen as it happens.
    const healthSeen: number[] = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const h = await request(base, 'GET', '/api/health', { timeoutMs: 15_000 });
        if (h.status !== healthSeen.at(-1)) healthSeen.push(h.status ?? 0);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    let phase: 'before' | 'outage' | 'after' = 'before';
    let acknowledged = 0;
    let refusedWrites = 0;
    let sentAfter = 0;
    let outageStarted: Promise<void> | null = null;
    const startOutage = async () => {
      // Every connection of the app is ended by PostgreSQL, then the database stays unreachable.
      const ended = await admin.query<{ n: number }>(
        'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      expect(ended.rows[0].n).toBeGreaterThan(0);
      await proxy.refuse();
    };
    const load = runLoad({
      concurrency: 6,
      maxRequests: 300,
      // Slower while the database is gone: 503s come fast and would spend the whole budget.
      pauseMs: () => (phase === 'outage' ? 200 : 20),
      send: (i) => {
        if (phase === 'after') sentAfter++;
        return request(base, 'POST', '/api/courses', { cookie: educator.cookie, body: courseBody(`${tag} #${i}`), timeoutMs: 60_000 });
      },
      // Enough writes after the database is back to show they are accepted again.
      more: () => phase !== 'after' || sentAfter < 60,
      onAnswer: ({ answer }) => {
        if (answer.status === 503 && phase === 'outage') refusedWrites++;
        if (answer.status === 201 && ++acknowledged === 80 && phase === 'before') {
          phase = 'outage';
          outageStarted = startOutage();
        }
      },
    });

    await waitUntil('the load to reach the outage', () => outageStarted !== null, 120_000);
    await outageStarted;
    // The outage lasts until health and writes have both said 503 (conditions, not a sleep).
    await waitUntil(
      'health and writes to answer 503 while the database is gone',
      () => healthSeen.includes(503) && refusedWrites >= 3,
      120_000,
    );
    await proxy.restore();
    phase = 'after';

    await waitUntil('health to answer 200 again', () => healthSeen.at(-1) === 200, 120_000);
    const sent = await load;
    watching = false;
    await watcher;

    const answers = sent.map((s) => s.answer);
    const counts = tally(answers);
    const acknowledgedIds = answers.filter((a) => a.status === 201).map((a) => a.json().id as string);
    const stored = await admin.query<{ id: string }>('select id from course where title like $1', [`${tag} #%`]);
    const storedIds = new Set(stored.rows.map((r) => r.id));
    const lost = acknowledgedIds.filter((id) => !storedIds.has(id));
    console.log(
      `  [reliability] database loss: requests ${counts.requests}, 2xx ${counts.ok}, 503 ${counts.unavailable}, 5xx other ${counts.otherServerErrors}, 4xx ${counts.other}, no answer ${counts.noAnswer}, lost writes ${lost.length}; health ${healthSeen.join(' -> ')}`,
    );

    // The same process throughout: no crash, no restart.
    expect(server.exit(), server.stderr()).toBeNull();
    expect(server.child.pid).toBe(pid);
    expect(healthSeen.indexOf(503)).toBeGreaterThanOrEqual(0);
    expect(healthSeen.slice(healthSeen.indexOf(503))).toContain(200);
    expect(answers.filter((a) => a.status !== null && a.status >= 500 && a.status !== 503).map((a) => a.body)).toEqual([]);
    for (const a of answers.filter((x) => x.status === 503)) expect(a.json().error.code).toBe('database_unavailable');
    expect(answers.filter((a) => a.status === null).map((a) => a.error)).toEqual([]);
    expect(lost).toEqual([]);
    // Writes were accepted before the outage and again after it.
    expect(counts.ok).toBeGreaterThan(80);
    expect(answers.slice(-10).filter((a) => a.status === 201).length).toBeGreaterThan(0);
  });
});
