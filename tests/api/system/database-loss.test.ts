import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, tempDir, type TestApp } from '../../support/app.js';
import { createSignedInUser, type SignedInUser } from '../../support/factories.js';
import { get, post } from '../../support/http.js';
import type { RunDatabase } from '../../support/run-database.js';
import { databaseBehindProxy, type TcpProxy } from '../../support/tcp-proxy.js';
import { serverCommand } from '../../support/server-command.js';

/**
 * The app rides out a lost database: connections ended by the server, a database that
 * refuses connections, one that stops answering, a statement that runs too long. Each case
 * on a throwaway database of its own (its connections are terminated without touching the
 * other test files), reached through a proxy the test can break.
 */

/** Polls `probe` until it is true; fails after a generous ceiling (a busy machine is slow, not broken). */
async function waitFor(what: string, probe: () => Promise<boolean>, ceilingMs = 60_000, hopeless = () => false): Promise<void> {
  const until = Date.now() + ceilingMs;
  while (!(await probe().catch(() => false))) {
    if (hopeless()) throw new Error(`${what}: can no longer happen`);
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const usesPostgres = !!inject('databaseUrl');

describe.skipIf(!usesPostgres)('losing the database', () => {
  let run: RunDatabase;
  let proxy: TcpProxy;
  let admin: pg.Client;
  let app: TestApp;
  let user: SignedInUser;
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);

  /** Ends every connection to the throwaway database but the test's own; answers how many. */
  async function terminateBackends(): Promise<number> {
    const res = await admin.query<{ n: number }>(
      'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    return res.rows[0].n;
  }

  beforeAll(async () => {
    let url: string;
    ({ run, proxy, url } = await databaseBehindProxy('agora_trust'));
    app = await buildTestApp({
      DATABASE_URL: url,
      DATABASE_CONNECT_TIMEOUT_MS: '3000',
      DATABASE_STATEMENT_TIMEOUT_MS: '3000',
    });
    admin = new pg.Client({ connectionString: run.url });
    await admin.connect();
    user = await createSignedInUser(app);
    process.on('uncaughtException', onUncaught);
  });

  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await app?.close();
    await proxy?.close();
    await admin?.end();
    await run?.drop();
  });

  it('connections ended by the server (pg_terminate_backend) do not end the process; requests are answered again', async () => {
    // Several requests at once leave several idle connections in the pool.
    const warm = await Promise.all(Array.from({ length: 4 }, () => get(app, '/api/me', { cookie: user.cookie })));
    expect(warm.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);

    expect(await terminateBackends()).toBeGreaterThan(0);
    // A request may meet a connection whose end the pool has not heard of yet: 503, never a crash.
    await waitFor('GET /api/me to answer 200', async () => (await get(app, '/api/me', { cookie: user.cookie })).statusCode === 200);
    expect((await get(app, '/api/health')).statusCode).toBe(200);
    expect(uncaught.map(String)).toEqual([]);
  });

  it('a database that refuses connections: health 503, API calls 503 database_unavailable; 200 again when it is back', async () => {
    await proxy.refuse();
    try {
      const health = await get(app, '/api/health');
      expect(health.statusCode).toBe(503);
      expect(health.json()).toMatchObject({ status: 'unavailable' });
      const me = await get(app, '/api/me', { cookie: user.cookie });
      expect(me.statusCode, me.body).toBe(503);
      expect(me.json().error.code).toBe('database_unavailable');
      expect(me.json().error.message).toMatch(/temporarily unavailable/);
      expect(me.headers['retry-after']).toBeDefined();
      const signIn = await post(app, '/api/accounts/sign-in', { email: user.email, password: user.password });
      expect(signIn.statusCode, signIn.body).toBe(503);
      expect(signIn.json().error.code).toBe('database_unavailable');
    } finally {
      await proxy.restore();
    }
    await waitFor('health to answer 200', async () => (await get(app, '/api/health')).statusCode === 200);
    expect((await get(app, '/api/me', { cookie: user.cookie })).statusCode).toBe(200);
    expect(uncaught.map(String)).toEqual([]);
  });

  it('a database that stops answering: requests answer 503 after the timeouts instead of hanging', async () => {
    proxy.hang();
    try {
      const started = Date.now();
      const [me, health] = await Promise.all([get(app, '/api/me', { cookie: user.cookie }), get(app, '/api/health')]);
      expect(me.statusCode, me.body).toBe(503);
      expect(me.json().error.code).toBe('database_unavailable');
      expect(health.statusCode).toBe(503);
      // Timeouts of 3 s (connect and statement, 5 s for the client): an answer, not a hang.
      expect(Date.now() - started).toBeLessThan(60_000);
    } finally {
      await proxy.restore();
    }
    await waitFor('health to answer 200', async () => (await get(app, '/api/health')).statusCode === 200);
    await waitFor('GET /api/me to answer 200', async () => (await get(app, '/api/me', { cookie: user.cookie })).statusCode === 200);
    expect(uncaught.map(String)).toEqual([]);
  });

  it('a statement held up longer than the statement timeout answers 503 and releases its connection', async () => {
    const locker = new pg.Client({ connectionString: run.url });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table "session" in access exclusive mode');
      const me = await get(app, '/api/me', { cookie: user.cookie });
      expect(me.statusCode, me.body).toBe(503);
      expect(me.json().error.code).toBe('database_unavailable');
    } finally {
      await locker.query('rollback').catch(() => {});
      await locker.end();
    }
    expect((await get(app, '/api/me', { cookie: user.cookie })).statusCode).toBe(200);
  });

  it('the real server process survives its connections being terminated and answers again', { timeout: 240_000 }, async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const base = `http://127.0.0.1:${port}`;
    const server: ChildProcess = spawn(...serverCommand(), {
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: base,
        DATABASE_URL: run.url,
        DATA_DIR: tempDir('server-'),
        SEED_DEMO: 'false',
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    let exited: number | string | null = null;
    server.once('exit', (code, signal) => {
      exited = code ?? signal;
    });
    const health = () => fetch(`${base}/api/health`).then((r) => r.status);
    try {
      const died = () => exited !== null;
      await waitFor('the server to start', async () => (await health()) === 200, 180_000, died);
      expect(await terminateBackends()).toBeGreaterThan(0);
      await waitFor('health to answer 200 after the terminations', async () => (await health()) === 200, 60_000, died);
      // Give an unhandled 'error' event time to end the process, then look again.
      await new Promise((r) => setTimeout(r, 500));
      expect(exited).toBeNull();
      expect(await health()).toBe(200);
    } finally {
      if (exited === null) {
        server.kill('SIGTERM');
        await new Promise((r) => server.once('exit', r));
      }
    }
  });
});
