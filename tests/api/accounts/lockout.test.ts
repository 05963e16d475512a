import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { createVerifiedUser, followLink, latestLink, newUser, outbox, signIn, signUp } from '../../support/factories.js';
import { post } from '../../support/http.js';

/** Issue 12 defect 11: a locked account's owner hears of it and gets back in with a reset link. */

const LIMIT = 3;
let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp({ AUTH_RATE_LIMIT: String(LIMIT) });
});
afterAll(async () => {
  await app.close();
});

const NEW_PASSWORD = 'Difference-Engine-1822';
const attackEmails = async (to: string) => (await outbox(app, to)).filter((m) => /trying to log in/i.test(m.subject));

describe('an account under attack', () => {
  it('is locked for everyone, its owner is emailed once, and a password reset lets the owner in', async () => {
    const user = await createVerifiedUser(app);
    // Wrong passwords from many addresses: the account's own limit locks it.
    for (let i = 0; i < LIMIT; i++) {
      expect((await post(app, '/api/accounts/sign-in', { email: user.email, password: `Wrong-Password-${i}` })).statusCode).toBe(401);
    }
    for (let i = 0; i < 3; i++) {
      expect((await post(app, '/api/accounts/sign-in', { email: user.email, password: `Wrong-Password-${i}` })).statusCode).toBe(429);
    }
    const locked = await post(app, '/api/accounts/sign-in', { email: user.email, password: user.password });
    expect(locked.statusCode).toBe(429);

    // One warning for the window however long the attack goes on, with the way back in.
    await expect.poll(async () => (await attackEmails(user.email)).length).toBe(1);
    const [warning] = await attackEmails(user.email);
    expect(warning.text).toContain(`${app.config.publicUrl}/send-password-reset`);

    // The owner resets the password through the emailed link: the lock is over for them.
    expect((await post(app, '/api/accounts/password-reset', { email: user.email })).statusCode).toBe(200);
    const link = await latestLink(app, user.email, /reset/i);
    const token = new URL((await followLink(app, link)).headers.location!, app.config.publicUrl).searchParams.get('token');
    expect((await post(app, '/api/accounts/reset-password', { token, password: NEW_PASSWORD })).statusCode).toBe(200);
    await signIn(app, user.email, NEW_PASSWORD);
    expect(await attackEmails(user.email)).toHaveLength(1);
  });

  it('an unknown email is locked the same way and nobody is emailed', async () => {
    const email = newUser().email;
    for (let i = 0; i <= LIMIT; i++) await post(app, '/api/accounts/sign-in', { email, password: 'Wrong-Password-1' });
    expect((await post(app, '/api/accounts/sign-in', { email, password: 'Wrong-Password-1' })).statusCode).toBe(429);
    expect(await outbox(app, email)).toEqual([]);
  });
});

describe('resending the verification email', () => {
  it('sends one link for concurrent requests (counted before sending)', async () => {
    const user = newUser();
    expect((await signUp(app, user)).statusCode).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => post(app, '/api/accounts/resend-verification', { email: user.email })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 429, 429, 429, 429, 429, 429, 429]);
    // The sign-up's email and one resend.
    expect((await outbox(app, user.email)).filter((m) => /verify/i.test(m.subject))).toHaveLength(2);
  });
});
