import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { createSignedInUser } from '../../support/factories.js';
import { get, post, uniqueEmail } from '../../support/http.js';
import { openSocket, opened } from '../../support/realtime.js';
import { signedWebhook } from '../../support/payments.js';
import { createRunDatabase, type RunDatabase } from '../../support/run-database.js';
import { freePort } from '../../support/server-process.js';

/**
 * Issue 24 item 6: Prometheus metrics, never on the public port without a token: on a port of
 * their own (METRICS_PORT) or behind a bearer token (METRICS_TOKEN). Each figure is moved by
 * the real thing it counts, on a database of the test's own.
 */
const usesPostgres = !!inject('databaseUrl');
const TOKEN = 'metrics-token-for-the-test-0123456789';

/** One sample's value from the exposition text (labels in any order), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe('metrics are not served unless configured', () => {
  it('GET /metrics is not there by default', async () => {
    const app = await buildTestApp();
    try {
      const res = await get(app, '/metrics');
      expect(res.statusCode).not.toBe(200);
      expect(res.body).not.toMatch(/agora_http_request_duration_seconds/);
    } finally {
      await app.close();
    }
  });
});

describe.skipIf(!usesPostgres)('metrics behind a token (METRICS_TOKEN)', () => {
  let run: RunDatabase;
  let app: TestApp;
  let admin: pg.Client;
  const scrape = async () => {
    const res = await get(app, '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.body;
  };

  beforeAll(async () => {
    const made = await createRunDatabase('agora_metrics');
    if ('error' in made) throw new Error(made.error);
    run = made;
    app = await buildTestApp({ DATABASE_URL: run.url, METRICS_TOKEN: TOKEN, DATABASE_STATEMENT_TIMEOUT_MS: '500' });
    admin = new pg.Client({ connectionString: run.url });
    await admin.connect();
  });
  afterAll(async () => {
    await app?.close();
    await admin?.end();
    await run?.drop();
  });

  it('answers 401 without the token or with a wrong one', async () => {
    expect((await get(app, '/metrics')).statusCode).toBe(401);
    const wrong = await get(app, '/metrics', { headers: { authorization: `Bearer ${TOKEN.slice(1)}x` } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toMatch(/agora_/);
  });

  it('times requests by route pattern (never the raw path) and status', async () => {
    await get(app, '/api/health/live');
    await get(app, '/api/health/live');
    await get(app, '/api/no-such-route-4711');
    const text = await scrape();
    expect(sample(text, 'agora_http_request_duration_seconds_count', { route: '/api/health/live', method: 'GET', status: '200' })).toBe(2);
    expect(sample(text, 'agora_http_request_duration_seconds_count', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toMatch(/no-such-route-4711/);
  });

  it('counts emails sent (a sign-up mails its verification link) and payments webhooks processed, duplicate and rejected', async () => {
    const before = sample(await scrape(), 'agora_emails_total', { transport: 'outbox', outcome: 'sent' }) ?? 0;
    const up = await post(app, '/api/accounts/sign-up', {
      email: uniqueEmail(),
      firstName: 'Ada',
      lastName: 'Tester',
      password: 'Analytical-Engine-1843',
      birthdate: '1990-12-10',
    });
    expect(up.statusCode, up.body).toBe(201);
    const hook = await app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=forged' },
      payload: JSON.stringify({ id: 'evt_forged', type: 'checkout.session.completed' }),
    });
    expect(hook.statusCode).toBe(400);
    // A signed event, delivered twice: processed, then a duplicate.
    const event = JSON.stringify({ id: `evt_metrics_${Date.now()}`, object: 'event', type: 'customer.updated', data: { object: {} } });
    expect((await signedWebhook(app, event)).statusCode).toBe(200);
    expect((await signedWebhook(app, event)).statusCode).toBe(200);
    const text = await scrape();
    expect(sample(text, 'agora_payments_webhooks_total', { type: 'customer.updated', outcome: 'processed' })).toBe(1);
    expect(sample(text, 'agora_payments_webhooks_total', { type: 'customer.updated', outcome: 'duplicate' })).toBe(1);
    expect(sample(text, 'agora_emails_total', { transport: 'outbox', outcome: 'sent' })).toBe(before + 1);
    expect(sample(text, 'agora_payments_webhooks_total', { type: 'unknown', outcome: 'rejected' })).toBe(1);
  });

  it('counts statement timeouts, and shows the pool and the job queue', async () => {
    const user = await createSignedInUser(app);
    await admin.query('begin');
    try {
      await admin.query('lock table "session" in access exclusive mode');
      const me = await get(app, '/api/me', { cookie: user.cookie });
      expect(me.statusCode).toBe(503);
    } finally {
      await admin.query('rollback');
    }
    // A job due 90 s ago that a (dead) worker still holds: running, and the oldest is 90 s old.
    await admin.query(
      `insert into job (kind, payload, state, run_at, locked_until) values ('metrics-test', '{}', 'queued', now() - interval '90 seconds', now() + interval '1 hour')`,
    );
    // The queue's figures are read at most once a second (a scrape storm costs one statement): the
    // first scrape may still answer from the previous test's read.
    let text = await scrape();
    for (let i = 0; i < 20 && (sample(text, 'agora_jobs', { state: 'running' }) ?? 0) < 1; i++) {
      await new Promise((r) => setTimeout(r, 250));
      text = await scrape();
    }
    expect(sample(text, 'agora_db_statement_timeouts_total')).toBeGreaterThanOrEqual(1);
    // Idle connections close after a while: the pool may hold none between two requests.
    expect(sample(text, 'agora_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'agora_db_pool_connections', { state: 'waiting' })).toBe(0);
    expect(sample(text, 'agora_jobs', { state: 'running' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'agora_jobs_oldest_due_seconds')).toBeGreaterThanOrEqual(90);
    expect(sample(text, 'agora_realtime_sockets_open')).toBe(0);
    // A socket opened (the app listening): counted while open.
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const tab = opened(await openSocket(base, { cookie: user.cookie }));
    try {
      expect(sample(await scrape(), 'agora_realtime_sockets_open')).toBe(1);
      // An event published through the fan-out (NOTIFY and back) is timed from its publish to the socket's write.
      const lagged = () => sample(text, 'agora_realtime_delivery_lag_seconds_count') ?? 0;
      const before = lagged();
      await app.realtime.publish(user.id, { type: 'metrics.test' });
      await tab.next((m) => m.type === 'metrics.test');
      text = await scrape();
      expect(lagged()).toBe(before + 1);
      const sum = sample(text, 'agora_realtime_delivery_lag_seconds_sum')!;
      expect(sum).toBeGreaterThanOrEqual(0);
      expect(sum).toBeLessThan(5);
      expect(sample(text, 'agora_realtime_delivery_lag_seconds_bucket', { le: '+Inf' })).toBe(before + 1);
    } finally {
      tab.close();
      await tab.closed;
    }
    expect(sample(text, 'agora_process_cpu_seconds_total')).toBeGreaterThan(0);
  });
});

describe.skipIf(!usesPostgres)('metrics on a port of their own (METRICS_PORT)', () => {
  it('serve GET /metrics there and nothing on the public port', async () => {
    const port = await freePort();
    const app = await buildTestApp({ METRICS_PORT: String(port) });
    try {
      await get(app, '/api/health/live');
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(sample(text, 'agora_http_request_duration_seconds_count', { route: '/api/health/live' })).toBe(1);
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
      expect((await get(app, '/metrics')).statusCode).not.toBe(200);
    } finally {
      await app.close();
    }
    // Closed with the app.
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });

  it('asks for the token there too when both are set', async () => {
    const port = await freePort();
    const app = await buildTestApp({ METRICS_PORT: String(port), METRICS_TOKEN: TOKEN });
    try {
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
      expect((await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
