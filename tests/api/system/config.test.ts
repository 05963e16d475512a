import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/server/config.js';

const SECRET = 'a-real-secret-that-is-long-enough-1234567890';

/** The error message loadConfig throws for this environment. */
function failure(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('configuration', () => {
  it('runs locally with nothing configured: port 3000, PGlite, outbox, dev tools on', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      production: false,
      devTools: true,
      port: 3000,
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      smtpUrl: undefined,
      google: null,
    });
    expect(loadConfig({ PORT: '4100' }).publicUrl).toBe('http://localhost:4100');
  });

  it('migrations at start by default; metrics off unless a port or token is given, never on the public port (issue 24)', () => {
    expect(loadConfig({})).toMatchObject({ migrateOnStart: true, metrics: null });
    expect(loadConfig({ MIGRATE_ON_START: 'false' }).migrateOnStart).toBe(false);
    expect(failure({ MIGRATE_ON_START: 'no' })).toMatch(/^Invalid configuration: MIGRATE_ON_START /);
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ port: 9464, token: null });
    expect(loadConfig({ METRICS_TOKEN: 'x'.repeat(16) }).metrics).toEqual({ port: null, token: 'x'.repeat(16) });
    expect(failure({ METRICS_PORT: '3000' })).toMatch(/^Invalid configuration: METRICS_PORT must differ from PORT/);
    expect(failure({ METRICS_PORT: '70000' })).toMatch(/^Invalid configuration: METRICS_PORT /);
    expect(failure({ METRICS_TOKEN: 'short' })).toMatch(/^Invalid configuration: METRICS_TOKEN must be at least 16 characters/);
  });

  it('production without AUTH_SECRET refuses to start with one line naming AUTH_SECRET', () => {
    expect(failure({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example.com', PUBLIC_URL: 'https://agora.example' })).toMatch(
      /^Invalid configuration: AUTH_SECRET /,
    );
  });

  it('production without SMTP_URL refuses to start naming SMTP_URL', () => {
    expect(failure({ NODE_ENV: 'production', AUTH_SECRET: SECRET, PUBLIC_URL: 'https://agora.example' })).toMatch(
      /^Invalid configuration: SMTP_URL /,
    );
  });

  it('production with neither names one of them in one line', () => {
    expect(failure({ NODE_ENV: 'production' })).toMatch(/^Invalid configuration: (AUTH_SECRET|SMTP_URL|PUBLIC_URL) /);
  });

  const STRIPE = { STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_PUBLISHABLE_KEY: 'pk_live_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' };

  it('production with everything set turns the dev tools off', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      AUTH_SECRET: SECRET,
      SMTP_URL: 'smtp://mail.example.com',
      PUBLIC_URL: 'https://agora.example/',
      ...STRIPE,
    });
    expect(config).toMatchObject({ production: true, devTools: false, publicUrl: 'https://agora.example', authSecret: SECRET });
    expect(config.payments).toMatchObject({
      mode: 'stripe',
      secretKey: 'sk_live_abc',
      webhookSecret: 'whsec_abc',
      connectWebhookSecret: 'whsec_abc',
      platformFeePercent: 10,
    });
  });

  it('production without Stripe keys refuses to start: the payments sandbox is a development tool', () => {
    expect(
      failure({ NODE_ENV: 'production', AUTH_SECRET: SECRET, SMTP_URL: 'smtp://mail.example.com', PUBLIC_URL: 'https://agora.example' }),
    ).toMatch(/^Invalid configuration: STRIPE_SECRET_KEY is required in production/);
  });

  it('without Stripe keys the payments sandbox is used, with its own webhook secrets', () => {
    const config = loadConfig({});
    expect(config.payments.mode).toBe('sandbox');
    expect(config.payments.webhookSecret).toMatch(/^whsec_[0-9a-f]{32}$/);
    expect(config.payments.connectWebhookSecret).not.toBe(config.payments.webhookSecret);
  });

  it('half of the Stripe settings, a wrong key or a bad fee is named', () => {
    expect(failure({ STRIPE_SECRET_KEY: 'sk_test_abc' })).toMatch(
      /^Invalid configuration: (STRIPE_PUBLISHABLE_KEY|STRIPE_WEBHOOK_SECRET) is required when STRIPE_SECRET_KEY is set/,
    );
    expect(failure({ ...STRIPE, STRIPE_SECRET_KEY: 'pk_test_abc' })).toMatch(
      /^Invalid configuration: STRIPE_SECRET_KEY must be a Stripe secret key/,
    );
    expect(failure({ PLATFORM_FEE_PERCENT: '80' })).toMatch(/^Invalid configuration: PLATFORM_FEE_PERCENT /);
    expect(failure({ PLATFORM_FEE_PERCENT: '7.5' })).toMatch(/^Invalid configuration: PLATFORM_FEE_PERCENT must be a whole number/);
    expect(loadConfig({ PLATFORM_FEE_PERCENT: '15' }).payments.platformFeePercent).toBe(15);
  });

  it('a bad DATABASE_URL is named', () => {
    expect(failure({ DATABASE_URL: 'mysql://root@localhost/agora' })).toMatch(
      /^Invalid configuration: DATABASE_URL must be a URL starting with postgres:\/\//,
    );
    expect(failure({ DATABASE_URL: 'not a url' })).toMatch(/^Invalid configuration: DATABASE_URL /);
  });

  it('SHUTDOWN_DELAY_MS: 0 unless set, a number of milliseconds up to a minute, else named', () => {
    expect(loadConfig({}).shutdownDelayMs).toBe(0);
    expect(loadConfig({ SHUTDOWN_DELAY_MS: '2000' }).shutdownDelayMs).toBe(2000);
    expect(failure({ SHUTDOWN_DELAY_MS: 'soon' })).toMatch(/^Invalid configuration: SHUTDOWN_DELAY_MS /);
    expect(failure({ SHUTDOWN_DELAY_MS: '-1' })).toMatch(/^Invalid configuration: SHUTDOWN_DELAY_MS /);
    expect(failure({ SHUTDOWN_DELAY_MS: '600000' })).toMatch(/^Invalid configuration: SHUTDOWN_DELAY_MS /);
  });

  it('a bad PORT is named', () => {
    expect(failure({ PORT: 'eighty' })).toMatch(/^Invalid configuration: PORT /);
    expect(failure({ PORT: '70000' })).toMatch(/^Invalid configuration: PORT /);
  });

  it('a short AUTH_SECRET, a bad SMTP_URL or half of the Google settings is named', () => {
    expect(failure({ AUTH_SECRET: 'short' })).toMatch(/^Invalid configuration: AUTH_SECRET must be at least 32 characters/);
    expect(failure({ SMTP_URL: 'http://mail.example.com' })).toMatch(/^Invalid configuration: SMTP_URL /);
    expect(failure({ GOOGLE_CLIENT_ID: 'id-only' })).toMatch(/^Invalid configuration: GOOGLE_CLIENT_SECRET /);
  });
});
