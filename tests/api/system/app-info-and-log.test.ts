import { Writable } from 'node:stream';
import Fastify, { LogController } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config.js';
import { loggerOptions, logRequests } from '../../../src/server/http/logger.js';
import { buildApp } from '../../../src/server/app.js';
import { buildTestApp, testConfig, type TestApp } from '../../support/app.js';
import { uniqueEmail } from '../../support/http.js';
import { get } from '../../support/http.js';

/**
 * Issue 14: the web app hides "Continue with Google" unless GET /api/version says Google is
 * configured (friction 8); the server log is pretty and quieter in development, JSON in
 * production (friction 18).
 */
describe('GET /api/version tells whether Google log-in is offered', () => {
  let plain: TestApp;
  let withGoogle: TestApp;
  beforeAll(async () => {
    plain = await buildTestApp();
    withGoogle = await buildTestApp({
      GOOGLE_CLIENT_ID: 'agora-test-client',
      GOOGLE_CLIENT_SECRET: 'agora-test-client-secret',
      GOOGLE_DISCOVERY_URL: 'http://127.0.0.1:9/.well-known/openid-configuration',
    });
  });
  afterAll(async () => {
    await plain?.close();
    await withGoogle?.close();
  });

  it('false without GOOGLE_CLIENT_ID, true with it; never cached', async () => {
    const off = await get(plain, '/api/version');
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ googleLogin: false });
    expect(off.headers['cache-control']).toBe('no-store');
    expect((await get(withGoogle, '/api/version')).json()).toMatchObject({ googleLogin: true });
  });
});

describe('the server log', () => {
  const base = { SEED_DEMO: 'false', DATA_DIR: '/tmp/agora-log-test' };
  const production = {
    ...base,
    NODE_ENV: 'production',
    AUTH_SECRET: 'x'.repeat(40),
    SMTP_URL: 'smtp://localhost:2525',
    PUBLIC_URL: 'https://agora.example',
    STRIPE_SECRET_KEY: 'sk_test_123',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_123',
    STRIPE_WEBHOOK_SECRET: 'whsec_123',
  };

  it('is pretty (pino-pretty) in development and JSON in production; LOG_FORMAT overrides', () => {
    const dev = loadConfig({ ...base, NODE_ENV: 'development' });
    expect(dev.logFormat).toBe('pretty');
    expect(loggerOptions(dev)).toMatchObject({ level: 'info', transport: { target: 'pino-pretty' } });
    const prod = loadConfig(production);
    expect(prod.logFormat).toBe('json');
    expect(loggerOptions(prod)).toEqual({ level: 'info', mixin: expect.any(Function) });
    expect(loadConfig({ ...base, NODE_ENV: 'development', LOG_FORMAT: 'json' }).logFormat).toBe('json');
    // Silent needs no transport (no worker thread for nothing).
    expect(loggerOptions({ logLevel: 'silent', logFormat: 'pretty' })).toEqual({ level: 'silent' });
  });

  it('logs one line per request: at debug in development, at info in production', async () => {
    for (const [logFormat, level] of [
      ['pretty', 20],
      ['json', 30],
    ] as const) {
      const lines: { level: number; msg: string; statusCode?: number }[] = [];
      const stream = new Writable({
        write(chunk, _encoding, done) {
          lines.push(JSON.parse(chunk.toString()));
          done();
        },
      });
      const app = Fastify({ logger: { level: 'debug', stream }, logController: new LogController({ disableRequestLogging: true }) });
      logRequests(app, { logFormat });
      app.get('/x', async () => 'ok');
      await app.inject({ url: '/x' });
      await app.close();
      expect(lines.filter((l) => l.msg.startsWith('GET /x'))).toEqual([
        expect.objectContaining({ level, msg: 'GET /x 200', statusCode: 200 }),
      ]);
      // Fastify's own "incoming request" / "request completed" lines are gone.
      expect(lines.filter((l) => /incoming request|request completed/.test(l.msg))).toEqual([]);
    }
  });

  it("carries the request's id on every line written while serving it, the app logger's included, and echoes it (issue 24)", async () => {
    const lines: { reqId?: string; msg: string }[] = [];
    const stream = { write: (line: string) => void lines.push(JSON.parse(line)) };
    const config = testConfig({ LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
    const app = await buildApp({ config, logStream: stream });
    try {
      await app.ready();
      const email = uniqueEmail();
      // Sign-up: the mailer (given the app's logger, not the request's) logs the verification email.
      const res = await app.inject({
        method: 'POST',
        url: '/api/accounts/sign-up',
        headers: { origin: config.publicUrl, 'x-request-id': 'edge-trace-0001' },
        payload: { email, firstName: 'Ada', lastName: 'Tester', password: 'Analytical-Engine-1843', birthdate: '1990-12-10' },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.headers['x-request-id']).toBe('edge-trace-0001');
      const emailLine = lines.find((l) => /email kept in the local outbox/.test(l.msg));
      expect(emailLine, JSON.stringify(lines)).toBeDefined();
      expect(emailLine!.reqId).toBe('edge-trace-0001');
      const requestLine = lines.find((l) => l.msg.startsWith('POST /api/accounts/sign-up'));
      expect(requestLine?.reqId).toBe('edge-trace-0001');
      // Once, not twice, on a line the request's own logger wrote.
      const raw = JSON.stringify(requestLine);
      expect(raw.match(/"reqId"/g)).toHaveLength(1);
      // Lines written outside any request carry none.
      app.log.info('outside any request');
      expect(lines.find((l) => l.msg === 'outside any request')?.reqId).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});
