import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { createSignedInUser, followLink, latestLink, newUser, signIn, signUp } from '../../support/factories.js';
import { get, post, uniqueEmail } from '../../support/http.js';

/** Issue 12 defect 5: only the library endpoints the web app needs, behind our rules. */

let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(async () => {
  await app.close();
});

describe("better-auth's own endpoints", () => {
  it('answer 404 for every path the web app does not use, whatever the method or body', async () => {
    const { cookie } = await createSignedInUser(app);
    for (const [method, url] of [
      ['GET', '/api/auth/x'],
      ['POST', '/api/auth/x'],
      ['GET', '/api/auth/get-session'],
      ['GET', '/api/auth/list-sessions'],
      ['POST', '/api/auth/sign-out'],
      ['POST', '/api/auth/revoke-sessions'],
      ['POST', '/api/auth/request-password-reset'],
      ['POST', '/api/auth/send-verification-email'],
      ['POST', '/api/auth/sign-in/social'],
      ['GET', '/api/auth/ok'],
    ] as const) {
      const res = await app.inject({
        method,
        url,
        headers: { cookie, origin: app.config.publicUrl, 'content-type': 'text/plain' },
        payload: method === 'POST' ? '{"a":' : undefined,
      });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
  });

  it('never hand a session token to JavaScript (get-session, list-sessions)', async () => {
    const { cookie } = await createSignedInUser(app);
    for (const url of ['/api/auth/get-session', '/api/auth/list-sessions']) {
      const res = await get(app, url, { cookie });
      expect(res.body).not.toMatch(/token/i);
    }
  });

  it('cannot set a weak password through change-password or reset-password', async () => {
    const user = await createSignedInUser(app);
    const change = await post(
      app,
      '/api/auth/change-password',
      { currentPassword: user.password, newPassword: 'password' },
      { cookie: user.cookie },
    );
    expect(change.statusCode).toBe(404);

    await post(app, '/api/accounts/password-reset', { email: user.email });
    const link = await latestLink(app, user.email, /reset/i);
    const token = new URL((await followLink(app, link)).headers.location!, app.config.publicUrl).searchParams.get('token');
    const reset = await post(app, '/api/auth/reset-password', { token, newPassword: 'password' });
    expect(reset.statusCode).toBe(404);

    // The old password still works, "password" does not.
    await signIn(app, user.email, user.password);
    expect((await post(app, '/api/accounts/sign-in', { email: user.email, password: 'password' })).statusCode).toBe(401);
  });

  it('cannot change the profile around our validation (update-user)', async () => {
    const user = await createSignedInUser(app);
    for (const body of [
      { name: 'x'.repeat(338) },
      { image: 'https://evil.example/me.png' },
      { birthdate: '2999-01-01' },
      { firstName: 'A\u0000B' },
      { name: null },
    ]) {
      const res = await post(app, '/api/auth/update-user', body, { cookie: user.cookie });
      expect(res.statusCode, JSON.stringify(body)).toBe(404);
    }
    const me = (await get(app, '/api/me', { cookie: user.cookie })).json();
    expect(me.firstName).toBe(user.firstName);
    expect(me.avatarUrl ?? null).toBeNull();
  });

  it('validates the emailed links before the library sees them', async () => {
    for (const url of [
      '/api/auth/verify-email?token=abc',
      '/api/auth/verify-email?token=a%00b&callbackURL=/email-verified',
      '/api/auth/verify-email?token=abc&callbackURL=https://evil.example',
      `/api/auth/verify-email?token=${'a'.repeat(5000)}&callbackURL=/email-verified`,
      '/api/auth/reset-password/abc?callbackURL=//evil.example',
      '/api/auth/reset-password/abc',
    ]) {
      const res = await get(app, url);
      expect(res.statusCode, url).toBe(400);
    }
    // An unknown provider's callback is not a route.
    expect((await get(app, '/api/auth/callback/myspace?code=x&state=y')).statusCode).toBe(400);
    // A wrong token is the library's answer: a redirect with an error, not a 500.
    const wrong = await get(app, '/api/auth/verify-email?token=abc&callbackURL=/email-verified');
    expect(wrong.statusCode).toBe(302);
    expect(wrong.headers.location).toMatch(/error=/);
  });

  it("hands the library the client's address, not its own X-Forwarded-For", async () => {
    const user = newUser({ email: uniqueEmail('xff') });
    expect((await signUp(app, user)).statusCode).toBe(201);
    const link = await latestLink(app, user.email, /verify/i);
    // Following the link signs in: that session records the address the server saw.
    const verified = await followLink(app, link, { ip: '10.9.8.7', headers: { 'x-forwarded-for': '6.6.6.6' } });
    expect(verified.statusCode).toBe(302);
    const cookie = verified.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const sessions = (await get(app, '/api/accounts/sessions', { cookie })).json().sessions as { ipAddress: string | null }[];
    expect(sessions.map((s) => s.ipAddress)).toEqual(['10.9.8.7']);
  });
});
