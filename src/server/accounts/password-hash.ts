import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Password hashing: scrypt with better-auth's own parameters (N 2^14, r 16, p 1, 64-byte key)
 * and its format (`salt:key`, hex), so hashes stay readable by the library and by older rows.
 *
 * Test servers may lower N (PASSWORD_HASH_COST, a power of two; refused in production,
 * docs/decisions/0064-cheap-password-hashes-for-test-servers.md): a test run makes hundreds of
 * accounts and ~130 ms of CPU per hash adds up to minutes. A cheaper hash names its N
 * (`n<N>$salt:key`), so any server verifies it whatever its own setting; a production server
 * refuses it (a password stored by a test server never signs in there).
 */
export const DEFAULT_PASSWORD_HASH_COST = 16384;
const R = 16;
const P = 1;
const KEY_LENGTH = 64;

function derive(password: string, salt: string, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N: n, r: R, p: P, maxmem: 128 * n * R * 2 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(input: { hash: string; password: string }): Promise<boolean>;
}

export function createPasswordHasher(opts: { cost: number; production: boolean }): PasswordHasher {
  const { cost, production } = opts;
  if (production && cost !== DEFAULT_PASSWORD_HASH_COST) throw new Error('PASSWORD_HASH_COST cannot be changed in production');
  return {
    async hash(password) {
      const salt = randomBytes(16).toString('hex');
      const key = (await derive(password, salt, cost)).toString('hex');
      return cost === DEFAULT_PASSWORD_HASH_COST ? `${salt}:${key}` : `n${cost}$${salt}:${key}`;
    },
    async verify({ hash, password }) {
      const marked = /^n(\d+)\$(.*)$/.exec(hash);
      const n = marked ? Number(marked[1]) : DEFAULT_PASSWORD_HASH_COST;
      // A weaker hash than the default was written by a test server: never good in production.
      if (marked && (production || !Number.isSafeInteger(n) || n < 2 || n > DEFAULT_PASSWORD_HASH_COST || (n & (n - 1)) !== 0))
        return false;
      const [salt, key] = (marked ? marked[2] : hash).split(':');
      if (!salt || !key) throw new Error('Invalid password hash');
      const expected = Buffer.from(key, 'hex');
      const actual = await derive(password, salt, n);
      return expected.length === actual.length && timingSafeEqual(expected, actual);
    },
  };
}
