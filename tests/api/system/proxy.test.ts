import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/server/config.js';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { post, uniqueEmail } from '../../support/http.js';

/**
 * X-Forwarded-For is believed only from a configured proxy: a client that rotates the
 * header cannot pass for many clients (log-in limits per IP, the device list).
 */
const PRODUCTION = {
  NODE_ENV: 'production',
  AUTH_SECRET: 'a-real-secret-that-is-long-enough-1234567890',
  SMTP_URL: 'smtp://127.0.0.1:9',
  PUBLIC_URL: 'https://agora.example',
  STRIPE_SECRET_KEY: 'sk_test_trust_proxy',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_trust_proxy',
  STRIPE_WEBHOOK_SECRET: 'whsec_trust_proxy',
  AUTH_RATE_LIMIT: '3',
};

describe('TRUST_PROXY configuration', () => {
  it('trusts no proxy by default, in production too', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig(PRODUCTION).trustProxy).toBe(false);
  });

  it('takes a hop count or proxy addresses and CIDR ranges', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 172.16.0.0/12,::1' }).trustProxy).toEqual(['10.0.0.5', '172.16.0.0/12', '::1']);
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toEqual(['loopback']);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  it('refuses anything else with one line naming TRUST_PROXY', () => {
    for (const value of ['true', 'proxy.example', '10.0.0.0/40', '10.0.0.1,']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY/);
    }
  });
});

/** Failed log-ins from one connection, each claiming another client address. */
async function rotatingFailures(app: TestApp, remote: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await post(
      app,
      '/api/accounts/sign-in',
      { email: uniqueEmail('nobody'), password: 'Wrong-password-123' },
      {
        ip: remote,
        headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
      },
    );
    statuses.push(res.statusCode);
  }
  return statuses;
}

describe('the client address in production', () => {
  let app: TestApp;
  let behindProxy: TestApp;
  let oneHop: TestApp;
  beforeAll(async () => {
    app = await buildTestApp(PRODUCTION);
    behindProxy = await buildTestApp({ ...PRODUCTION, TRUST_PROXY: '203.0.113.0/24' });
    oneHop = await buildTestApp({ ...PRODUCTION, TRUST_PROXY: '1' });
  });
  afterAll(async () => {
    await app.close();
    await behindProxy.close();
    await oneHop.close();
  });

  it('ignores X-Forwarded-For by default: rotating it does not get past the per-IP log-in limit', async () => {
    const statuses = await rotatingFailures(app, '192.0.2.77', 4);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('believes X-Forwarded-For from a configured proxy (each forwarded client counted on its own)', async () => {
    const statuses = await rotatingFailures(behindProxy, '203.0.113.10', 4);
    expect(statuses).toEqual([401, 401, 401, 401]);
  });

  it('with a hop count, believes the address the nearest proxy forwarded', async () => {
    const statuses = await rotatingFailures(oneHop, '203.0.113.11', 4);
    expect(statuses).toEqual([401, 401, 401, 401]);
  });

  it('does not believe X-Forwarded-For from an address outside the configured proxies', async () => {
    const statuses = await rotatingFailures(behindProxy, '192.0.2.78', 4);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});
