import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/server/config.js';

const PRODUCTION = {
  NODE_ENV: 'production',
  AUTH_SECRET: 'a-real-secret-that-is-long-enough-1234567890',
  SMTP_URL: 'smtp://mail.example.com',
  PUBLIC_URL: 'https://agora.example',
  STRIPE_SECRET_KEY: 'sk_test_config',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_config',
  STRIPE_WEBHOOK_SECRET: 'whsec_config',
};

describe('safe defaults of the configuration', () => {
  it('listens on 127.0.0.1 unless HOST is set (the outbox and the sandbox stay off the network)', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig(PRODUCTION).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('gives the database connection and statement timeouts, configurable', () => {
    expect(loadConfig({}).databaseTimeouts).toEqual({ connectMs: 5000, statementMs: 15_000 });
    expect(loadConfig({ DATABASE_CONNECT_TIMEOUT_MS: '2500', DATABASE_STATEMENT_TIMEOUT_MS: '60000' }).databaseTimeouts).toEqual({
      connectMs: 2500,
      statementMs: 60_000,
    });
    expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: 'soon' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_CONNECT_TIMEOUT_MS: '0' })).toThrow(/DATABASE_CONNECT_TIMEOUT_MS/);
  });
});
