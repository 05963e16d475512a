import { hashPassword as libraryHash, verifyPassword as libraryVerify } from 'better-auth/crypto';
import { describe, expect, it } from 'vitest';
import { createPasswordHasher, DEFAULT_PASSWORD_HASH_COST } from '../../../src/server/accounts/password-hash.js';
import { ConfigError, loadConfig } from '../../../src/server/config.js';
import { buildTestApp } from '../../support/app.js';
import { createVerifiedUser, signIn } from '../../support/factories.js';

/**
 * Password hashes: the default is better-auth's own scrypt and format, both ways; the cheaper
 * cost the test servers use (PASSWORD_HASH_COST) names itself in the hash and is refused in
 * production, as a setting and as a stored hash (docs/decisions/0064-cheap-password-hashes-for-test-servers.md).
 */
const PRODUCTION = {
  NODE_ENV: 'production',
  AUTH_SECRET: 'a-real-secret-that-is-long-enough-1234567890',
  SMTP_URL: 'smtp://mail.example.com',
  PUBLIC_URL: 'https://agora.example',
  STRIPE_SECRET_KEY: 'sk_test_x',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
  STRIPE_WEBHOOK_SECRET: 'whsec_x',
};

describe('password hashes', () => {
  it('at the default cost: better-auth reads ours and we read better-auth’s', async () => {
    const hasher = createPasswordHasher({ cost: DEFAULT_PASSWORD_HASH_COST, production: true });
    const ours = await hasher.hash('correct horse battery');
    expect(ours).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    expect(await libraryVerify({ hash: ours, password: 'correct horse battery' })).toBe(true);
    expect(await libraryVerify({ hash: ours, password: 'correct horse batteryx' })).toBe(false);
    const theirs = await libraryHash('correct horse battery');
    expect(await hasher.verify({ hash: theirs, password: 'correct horse battery' })).toBe(true);
    expect(await hasher.verify({ hash: theirs, password: 'Correct horse battery' })).toBe(false);
  });

  it('a cheaper cost names itself, verifies anywhere but in production, and only its own password', async () => {
    const cheap = createPasswordHasher({ cost: 256, production: false });
    const hash = await cheap.hash('pässword 1');
    expect(hash).toMatch(/^n256\$[0-9a-f]{32}:[0-9a-f]{128}$/);
    expect(await cheap.verify({ hash, password: 'pässword 1' })).toBe(true);
    expect(await cheap.verify({ hash, password: 'pässword 2' })).toBe(false);
    // A development server at the default cost still reads it (a database a test server wrote)...
    expect(
      await createPasswordHasher({ cost: DEFAULT_PASSWORD_HASH_COST, production: false }).verify({ hash, password: 'pässword 1' }),
    ).toBe(true);
    // ...a production server never does, nor does anyone a hash whose cost is not a valid one.
    expect(
      await createPasswordHasher({ cost: DEFAULT_PASSWORD_HASH_COST, production: true }).verify({ hash, password: 'pässword 1' }),
    ).toBe(false);
    for (const forged of [hash.replace('n256$', 'n1$'), hash.replace('n256$', 'n300$'), hash.replace('n256$', 'n32768$')])
      expect(await cheap.verify({ hash: forged, password: 'pässword 1' }), forged).toBe(false);
  });

  it('PASSWORD_HASH_COST: a power of two up to 16384, never changed in production', () => {
    expect(loadConfig({}).passwordHashCost).toBe(16384);
    expect(loadConfig({ PASSWORD_HASH_COST: '1024' }).passwordHashCost).toBe(1024);
    for (const bad of ['1000', '0', '32768', 'cheap', '-2'])
      expect(() => loadConfig({ PASSWORD_HASH_COST: bad }), bad).toThrow(/^Invalid configuration: PASSWORD_HASH_COST /);
    expect(loadConfig(PRODUCTION).passwordHashCost).toBe(16384);
    expect(() => loadConfig({ ...PRODUCTION, PASSWORD_HASH_COST: '256' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...PRODUCTION, PASSWORD_HASH_COST: '256' })).toThrow(/PASSWORD_HASH_COST must be left at its default/);
    expect(() => createPasswordHasher({ cost: 256, production: true })).toThrow(/PASSWORD_HASH_COST/);
  });

  it('an app at the default cost signs up and signs in (the cost the test servers do not use)', async () => {
    const app = await buildTestApp({ PASSWORD_HASH_COST: '16384' });
    try {
      const user = await createVerifiedUser(app);
      expect(await signIn(app, user.email, user.password)).toContain('session_token=');
      const ctx = await app.auth.$context;
      const stored = await ctx.internalAdapter.findUserByEmail(user.email);
      const accounts = await ctx.internalAdapter.findAccounts(stored!.user.id);
      const hash = accounts.find((a) => a.providerId === 'credential')?.password ?? '';
      expect(hash).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
      expect(await libraryVerify({ hash, password: user.password })).toBe(true);
    } finally {
      await app.close();
    }
  });
});
