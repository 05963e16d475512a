import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { createVerifiedUser } from '../../support/factories.js';
import { post, randomIp } from '../../support/http.js';

/**
 * The log-in limit holds under concurrency: attempts are counted before the password is
 * checked, atomically, so 100 wrong passwords sent at once are not all checked.
 */
const LIMIT = 20;
let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp({ AUTH_RATE_LIMIT: String(LIMIT) });
});
afterAll(async () => {
  await app.close();
});

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});

describe('the log-in limit under concurrent attempts', () => {
  it('100 concurrent wrong passwords for one account from one IP: at most the limit are checked, the rest answer 429', async () => {
    const user = await createVerifiedUser(app);
    const ip = randomIp();
    const responses = await Promise.all(
      Array.from({ length: 100 }, () => post(app, '/api/accounts/sign-in', { email: user.email, password: 'Wrong-password-123' }, { ip })),
    );
    const counts = tally(responses.map((r) => r.statusCode));
    // Two counters (IP and account) are taken one after the other: an attempt refused on one
    // gives back the other a moment later, so under a burst a few fewer than the limit may be
    // checked, never more.
    expect(Object.keys(counts).sort()).toEqual(['401', '429']);
    expect(counts[401]).toBeLessThanOrEqual(LIMIT);
    expect(counts[401]).toBeGreaterThanOrEqual(LIMIT / 2);
    expect(counts[401] + counts[429]).toBe(100);
    const limited = responses.find((r) => r.statusCode === 429)!;
    expect(limited.json().error.message).toMatch(/Too many failed attempts/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The counter holds exactly the attempts that were checked: the rest of the limit can be
    // used, one by one, and then the account is locked for everyone, its owner included.
    for (let i = counts[401]; i < LIMIT; i++) {
      const more = await post(app, '/api/accounts/sign-in', { email: user.email, password: 'Wrong-password-123' }, { ip: randomIp() });
      expect(more.statusCode).toBe(401);
    }
    const owner = await post(app, '/api/accounts/sign-in', { email: user.email, password: user.password }, { ip: randomIp() });
    expect(owner.statusCode).toBe(429);
  });

  it('concurrent wrong passwords spread over many accounts from one IP are limited per IP too', async () => {
    const ip = randomIp();
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        post(app, '/api/accounts/sign-in', { email: `nobody-${i}-${ip}@example.com`, password: 'Wrong-password-123' }, { ip }),
      ),
    );
    expect(tally(responses.map((r) => r.statusCode))).toEqual({ 401: LIMIT, 429: 60 - LIMIT });
  });

  it('successful log-ins do not count: more than the limit from one IP, then a wrong password is still checked', async () => {
    const user = await createVerifiedUser(app);
    const ip = randomIp();
    for (let i = 0; i < LIMIT + 5; i++) {
      expect((await post(app, '/api/accounts/sign-in', { email: user.email, password: user.password }, { ip })).statusCode).toBe(200);
    }
    expect((await post(app, '/api/accounts/sign-in', { email: user.email, password: 'Wrong-password-123' }, { ip })).statusCode).toBe(401);
  });
});
