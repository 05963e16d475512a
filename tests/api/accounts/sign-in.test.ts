import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { createVerifiedUser, signIn } from '../../support/factories.js';
import { get, post, randomIp, setCookies, uniqueEmail } from '../../support/http.js';

let app: TestApp;
/** The same app with a sign-in limit of 3 failures per IP and per account. */
let limited: TestApp;
beforeAll(async () => {
  app = await buildTestApp();
  limited = await buildTestApp({ AUTH_RATE_LIMIT: '3' });
});
afterAll(async () => {
  await app.close();
  await limited.close();
});

const signInBody = (email: string, password: string) => ({ email, password });

describe('sign-in', () => {
  it('trims the email and password and ignores the capitals of the email', async () => {
    const user = await createVerifiedUser(app);
    const res = await post(app, '/api/accounts/sign-in', signInBody(`  ${user.email.toUpperCase()} `, ` ${user.password}  `));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ email: user.email, firstName: user.firstName, lastName: user.lastName, verified: true });
  });

  it('a wrong password answers 401 "Incorrect Email or Password"', async () => {
    const user = await createVerifiedUser(app);
    const res = await post(app, '/api/accounts/sign-in', signInBody(user.email, `${user.password}x`));
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe('Incorrect Email or Password');
    expect(setCookies(res).filter((c) => c.name.endsWith('session_token') && c.value)).toEqual([]);
  });

  it('an unknown email answers the same 401 "Incorrect Email or Password"', async () => {
    const res = await post(app, '/api/accounts/sign-in', signInBody(uniqueEmail('ghost'), 'Whatever-Password-1'));
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe('Incorrect Email or Password');
  });

  it('an empty email or password answers 400 "Empty Fields" naming the field', async () => {
    const noPassword = await post(app, '/api/accounts/sign-in', signInBody(uniqueEmail(), '   '));
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().error).toMatchObject({ message: 'Empty Fields', fields: { password: expect.any(String) } });
    const nothing = await post(app, '/api/accounts/sign-in', {});
    expect(nothing.statusCode).toBe(400);
    expect(Object.keys(nothing.json().error.fields).sort()).toEqual(['email', 'password']);
  });

  it('a successful sign-in sets an HttpOnly, SameSite=Lax, Path=/ session cookie lasting 400 days', async () => {
    const user = await createVerifiedUser(app);
    const res = await post(app, '/api/accounts/sign-in', signInBody(user.email, user.password));
    expect(res.statusCode).toBe(200);
    const cookie = setCookies(res).find((c) => c.name === 'agora.session_token');
    expect(cookie).toBeDefined();
    expect(cookie!.value).not.toBe('');
    expect(cookie!.attributes).toHaveProperty('httponly');
    expect(cookie!.attributes.samesite?.toLowerCase()).toBe('lax');
    expect(cookie!.attributes.path).toBe('/');
    const days = Number(cookie!.attributes['max-age']) / 86400;
    expect(days).toBeGreaterThan(399);
    expect(days).toBeLessThanOrEqual(400);
    // Not Secure outside production (http://localhost).
    expect(cookie!.attributes).not.toHaveProperty('secure');
    // The answer is the current user, the cookie opens /api/me.
    const me = await get(app, '/api/me', { cookie: `${cookie!.name}=${cookie!.value}` });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(res.json().id);
  });

  it('updates last_sign_in_at', async () => {
    const user = await createVerifiedUser(app);
    const read = async () => {
      const result = await app.database.db.execute<{ last_sign_in_at: Date | string | null }>(
        sql`select last_sign_in_at from "user" where email = ${user.email}`,
      );
      const value = (result as unknown as { rows: { last_sign_in_at: Date | string | null }[] }).rows[0].last_sign_in_at;
      return value === null ? null : new Date(value).getTime();
    };
    const before = await read();
    const cookie = await signIn(app, user.email, user.password);
    const after = await read();
    expect(after).not.toBeNull();
    if (before !== null) expect(after!).toBeGreaterThan(before);
    const me = await get(app, '/api/me', { cookie });
    expect(new Date(me.json().lastSignInAt).getTime()).toBe(after);
  });
});

describe('sign-in rate limits', () => {
  it('after 3 failures for one account, the next attempt answers 429 with a retry time, even with the right password', async () => {
    const user = await createVerifiedUser(limited);
    for (let i = 0; i < 3; i++) {
      // From a different address each time: the account limit holds regardless of IP.
      const res = await post(limited, '/api/accounts/sign-in', signInBody(user.email, 'Wrong-Password-9'), { ip: randomIp() });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await post(limited, '/api/accounts/sign-in', signInBody(user.email, user.password), { ip: randomIp() });
    expect(blocked.statusCode).toBe(429);
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(blocked.json().error).toMatchObject({ code: 'rate_limited', retryAfterSeconds: retryAfter });
    expect(blocked.json().error.message).toMatch(/Try again in \d+ minutes?\./);
    expect(setCookies(blocked).filter((c) => c.name.endsWith('session_token') && c.value)).toEqual([]);

    // Another account is not affected.
    const other = await createVerifiedUser(limited);
    expect((await post(limited, '/api/accounts/sign-in', signInBody(other.email, other.password))).statusCode).toBe(200);
  });

  it('after 3 failures from one IP, that IP answers 429 for every account while other IPs still log in', async () => {
    const ip = randomIp();
    for (let i = 0; i < 3; i++) {
      const res = await post(limited, '/api/accounts/sign-in', signInBody(uniqueEmail('probe'), 'Wrong-Password-9'), { ip });
      expect(res.statusCode).toBe(401);
    }
    const user = await createVerifiedUser(limited);
    const blocked = await post(limited, '/api/accounts/sign-in', signInBody(user.email, user.password), { ip });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);

    const elsewhere = await post(limited, '/api/accounts/sign-in', signInBody(user.email, user.password), { ip: randomIp() });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('a successful sign-in clears the failures counted for that account', async () => {
    const user = await createVerifiedUser(limited);
    for (let i = 0; i < 2; i++) {
      expect((await post(limited, '/api/accounts/sign-in', signInBody(user.email, 'Wrong-Password-9'))).statusCode).toBe(401);
    }
    expect((await post(limited, '/api/accounts/sign-in', signInBody(user.email, user.password))).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) {
      expect((await post(limited, '/api/accounts/sign-in', signInBody(user.email, 'Wrong-Password-9'))).statusCode).toBe(401);
    }
    expect((await post(limited, '/api/accounts/sign-in', signInBody(user.email, user.password))).statusCode).toBe(200);
  });
});
