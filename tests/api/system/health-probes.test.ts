import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { createSignedInUser, type SignedInUser } from '../../support/factories.js';
import { get, post } from '../../support/http.js';
import { createRunDatabase, type RunDatabase } from '../../support/run-database.js';

/**
 * Issue 24 item 6: liveness (the process answers) apart from readiness (database reachable,
 * migrations applied, not draining), and a database that refuses connections answers 503 on
 * every route, never 500: SQLSTATE 55000 after ALTER DATABASE ... ALLOW_CONNECTIONS false, on
 * a real PostgreSQL database of the test's own.
 */
const usesPostgres = !!inject('databaseUrl');

async function waitFor(what: string, probe: () => Promise<boolean>, ceilingMs = 60_000): Promise<void> {
  const until = Date.now() + ceilingMs;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!usesPostgres)('health probes and a database that refuses connections', () => {
  let run: RunDatabase;
  let admin: pg.Client;
  let app: TestApp;
  let user: SignedInUser;

  beforeAll(async () => {
    const made = await createRunDatabase('agora_refuse');
    if ('error' in made) throw new Error(made.error);
    run = made;
    app = await buildTestApp({ DATABASE_URL: run.url, DATABASE_CONNECT_TIMEOUT_MS: '3000' });
    const maintenance = new URL(run.url);
    maintenance.pathname = '/postgres';
    admin = new pg.Client({ connectionString: maintenance.toString() });
    await admin.connect();
    user = await createSignedInUser(app);
  });

  afterAll(async () => {
    await admin?.query(`alter database "${run.name}" allow_connections true`).catch(() => {});
    await app?.close();
    await admin?.end();
    await run?.drop();
  });

  it('liveness and readiness answer 200 on a healthy instance, and say what they checked', async () => {
    const live = await get(app, '/api/health/live');
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await get(app, '/api/health/ready');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', database: 'reachable', migrations: 'current', draining: false });
    expect((await get(app, '/api/health')).statusCode).toBe(200);
  });

  it('ALLOW_CONNECTIONS false (SQLSTATE 55000): 503 on API routes, pages and readiness, never 500; liveness 200; all back after', async () => {
    await admin.query(`alter database "${run.name}" allow_connections false`);
    try {
      await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1`, [run.name]);
      // What the app meets: PostgreSQL refuses the connection with 55000.
      const probe = new pg.Client({ connectionString: run.url });
      const refused = await probe.connect().then(
        () => null,
        (err: { code?: string; message?: string }) => err,
      );
      await probe.end().catch(() => {});
      expect(refused?.code).toBe('55000');
      expect(refused?.message).toMatch(/not currently accepting connections/);

      const answers = {
        me: await get(app, '/api/me', { cookie: user.cookie }),
        landing: await get(app, '/api/landing'),
        signIn: await post(app, '/api/accounts/sign-in', { email: user.email, password: user.password }),
        dashboard: await get(app, '/api/dashboard', { cookie: user.cookie }),
      };
      for (const [name, res] of Object.entries(answers)) {
        expect(res.statusCode, `${name}: ${res.body}`).toBe(503);
        expect(res.json().error.code, name).toBe('database_unavailable');
        expect(res.headers['retry-after'], name).toBeDefined();
        expect(res.headers['x-request-id'], name).toBeTruthy();
      }
      // Pages: the shell (200, its data fetched later) or the 503 page; never a 500.
      for (const path of ['/', '/dashboard', '/explore', '/course/search', '/mailbox']) {
        const page = await get(app, path, { cookie: user.cookie });
        expect([200, 503], `${path}: ${page.statusCode}`).toContain(page.statusCode);
        if (page.statusCode === 503) expect(page.headers['content-type']).toMatch(/text\/html/);
      }
      expect((await get(app, '/api/health')).statusCode).toBe(503);
      const ready = await get(app, '/api/health/ready');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', database: 'unreachable', migrations: 'unknown', draining: false });
      expect((await get(app, '/api/health/live')).statusCode).toBe(200);
    } finally {
      await admin.query(`alter database "${run.name}" allow_connections true`);
    }
    await waitFor('readiness to answer 200', async () => (await get(app, '/api/health/ready')).statusCode === 200);
    expect((await get(app, '/api/me', { cookie: user.cookie })).statusCode).toBe(200);
  });

  it('the request id: a sane incoming X-Request-Id is echoed, anything else is replaced by a new one', async () => {
    const sane = await get(app, '/api/health/live', { headers: { 'x-request-id': 'lb-7f3a.42:abc_DEF-1' } });
    expect(sane.headers['x-request-id']).toBe('lb-7f3a.42:abc_DEF-1');
    const none = await get(app, '/api/health/live');
    expect(none.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    for (const bad of ['has spaces in it', 'x'.repeat(129), '<script>', 'a\u00e9b']) {
      const res = await get(app, '/api/health/live', { headers: { 'x-request-id': bad } });
      expect(res.headers['x-request-id'], bad).toMatch(/^[0-9a-f-]{36}$/);
    }
    // Errors carry it too.
    const missing = await get(app, '/api/no-such-route', { headers: { 'x-request-id': 'trace-404' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-request-id']).toBe('trace-404');
  });

  it('an instance that drains: readiness 503 "draining", liveness still 200, other requests 503 shutting_down, the port kept until they stop coming', async () => {
    const other = await buildTestApp({ DATABASE_URL: run.url });
    try {
      await other.drain(1000);
      const ready = await get(other, '/api/health/ready');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'unavailable', database: 'reachable', draining: true });
      expect((await get(other, '/api/health/live')).statusCode).toBe(200);
      const me = await get(other, '/api/me', { cookie: user.cookie });
      expect(me.statusCode).toBe(503);
      expect(me.json().error.code).toBe('shutting_down');

      // The balancer still sending (requests refused): the port waits for a quiet while after
      // the last one; its health checks, refused too, do not count as traffic (ADR 0058).
      const started = Date.now();
      let settledAt = 0;
      const quiet = other.untilUnsent(400, 10_000).then(() => (settledAt = Date.now()));
      for (let i = 0; i < 4; i++) {
        await new Promise((r) => setTimeout(r, 150));
        expect((await get(other, '/api/me', { cookie: user.cookie })).statusCode).toBe(503);
      }
      const lastRefused = Date.now();
      expect(settledAt, 'still sent requests: not quiet yet').toBe(0);
      for (let i = 0; i < 6; i++) {
        expect((await get(other, '/api/health')).statusCode).toBe(503);
        await new Promise((r) => setTimeout(r, 100));
      }
      await quiet;
      expect(settledAt - lastRefused).toBeGreaterThanOrEqual(350);
      expect(settledAt - lastRefused).toBeLessThan(2000);
      expect(settledAt - started).toBeGreaterThanOrEqual(950);
      // Nothing sent at all: at most the quiet while, far from the ceiling (a busy machine's timers run late, hence 1 s not 0).
      const t = Date.now();
      await other.untilUnsent(0, 10_000);
      expect(Date.now() - t).toBeLessThan(1000);
      const sending = setInterval(() => void get(other, '/api/me'), 50);
      try {
        await new Promise((r) => setTimeout(r, 120));
        const c = Date.now();
        await other.untilUnsent(300, 700);
        expect(Date.now() - c).toBeGreaterThanOrEqual(650);
      } finally {
        clearInterval(sending);
      }
    } finally {
      await other.close();
    }
  });

  it('migrations not applied (MIGRATE_ON_START=false on an empty database): readiness 503 "pending", liveness 200', async () => {
    const empty = await createRunDatabase('agora_unmigrated', '');
    if ('error' in empty) throw new Error(empty.error);
    let lazy: TestApp | undefined;
    try {
      lazy = await buildTestApp({ DATABASE_URL: empty.url, MIGRATE_ON_START: 'false' });
      const ready = await get(lazy, '/api/health/ready');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', database: 'reachable', migrations: 'pending', draining: false });
      expect((await get(lazy, '/api/health/live')).statusCode).toBe(200);
    } finally {
      await lazy?.close();
      await empty.drop();
    }
  });
});
