import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.js';

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
      production: false, devTools: true, port: 3000, publicUrl: 'http://localhost:3000',
      databaseUrl: undefined, smtpUrl: undefined, google: null,
    });
    expect(loadConfig({ PORT: '4100' }).publicUrl).toBe('http://localhost:4100');
  });

  it('production without AUTH_SECRET refuses to start with one line naming AUTH_SECRET', () => {
    expect(failure({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example.com', PUBLIC_URL: 'https://agora.example' }))
      .toMatch(/^Invalid configuration: AUTH_SECRET /);
  });

  it('production without SMTP_URL refuses to start naming SMTP_URL', () => {
    expect(failure({ NODE_ENV: 'production', AUTH_SECRET: SECRET, PUBLIC_URL: 'https://agora.example' }))
      .toMatch(/^Invalid configuration: SMTP_URL /);
  });

  it('production with neither names one of them in one line', () => {
    expect(failure({ NODE_ENV: 'production' })).toMatch(/^Invalid configuration: (AUTH_SECRET|SMTP_URL|PUBLIC_URL) /);
  });

  it('production with everything set turns the dev tools off', () => {
    const config = loadConfig({ NODE_ENV: 'production', AUTH_SECRET: SECRET, SMTP_URL: 'smtp://mail.example.com', PUBLIC_URL: 'https://agora.example/' });
    expect(config).toMatchObject({ production: true, devTools: false, publicUrl: 'https://agora.example', authSecret: SECRET });
  });

  it('a bad DATABASE_URL is named', () => {
    expect(failure({ DATABASE_URL: 'mysql://root@localhost/agora' })).toMatch(/^Invalid configuration: DATABASE_URL must be a URL starting with postgres:\/\//);
    expect(failure({ DATABASE_URL: 'not a url' })).toMatch(/^Invalid configuration: DATABASE_URL /);
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
