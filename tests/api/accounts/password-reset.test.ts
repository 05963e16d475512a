import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createSignedInUser, followLink, latestLink, outbox, signIn } from '../../support/factories.js';
import { get, post, uniqueEmail } from '../../support/http.js';

const ctx = useTestApp();

const NEW_PASSWORD = 'Difference-Engine-1822';

/** Asks for a reset link and follows it; returns the token the reset page receives. */
async function resetToken(email: string): Promise<string> {
  const asked = await post(ctx.app, '/api/accounts/password-reset', { email });
  expect(asked.statusCode).toBe(200);
  const link = await latestLink(ctx.app, email, /reset/i);
  expect(new URL(link).pathname).toMatch(/^\/api\/auth\/reset-password\/[^/]+$/);
  const res = await followLink(ctx.app, link);
  expect(res.statusCode).toBe(302);
  const target = new URL(res.headers.location!, ctx.app.config.publicUrl);
  expect(target.origin).toBe(ctx.app.config.publicUrl);
  expect(target.pathname).toBe('/reset-password');
  const token = target.searchParams.get('token');
  expect(token).toBeTruthy();
  return token!;
}

describe('password reset', () => {
  it('answers a known and an unknown email identically', async () => {
    const user = await createSignedInUser(ctx.app);
    const unknown = uniqueEmail('nobody');
    const known = await post(ctx.app, '/api/accounts/password-reset', { email: user.email });
    const notKnown = await post(ctx.app, '/api/accounts/password-reset', { email: unknown });
    expect(notKnown.statusCode).toBe(known.statusCode);
    expect(notKnown.body).toBe(known.body);
    expect(known.statusCode).toBe(200);
    // Only the real account gets an email.
    expect((await outbox(ctx.app, user.email)).some((m) => /reset/i.test(m.subject))).toBe(true);
    expect(await outbox(ctx.app, unknown)).toEqual([]);
  });

  it('an empty email answers 400 "Empty Fields"', async () => {
    const res = await post(ctx.app, '/api/accounts/password-reset', { email: ' ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Empty Fields');
  });

  it('the emailed link leads to /reset-password with a token; a new password signs out every session', async () => {
    const user = await createSignedInUser(ctx.app);
    const otherDevice = await signIn(ctx.app, user.email, user.password);
    const token = await resetToken(user.email);

    const weak = await post(ctx.app, '/api/accounts/reset-password', { token, password: 'short1' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.reasons).toContain('Use at least 8 characters');
    const common = await post(ctx.app, '/api/accounts/reset-password', { token, password: 'password123' });
    expect(common.statusCode).toBe(400);
    expect(common.json().error.reasons).toContain('This password is too common');

    const done = await post(ctx.app, '/api/accounts/reset-password', { token, password: ` ${NEW_PASSWORD} ` });
    expect(done.statusCode, done.body).toBe(200);

    // Every old session is revoked.
    expect((await get(ctx.app, '/api/me', { cookie: user.cookie })).statusCode).toBe(401);
    expect((await get(ctx.app, '/api/me', { cookie: otherDevice })).statusCode).toBe(401);
    // The old password no longer works, the new one does.
    const old = await post(ctx.app, '/api/accounts/sign-in', { email: user.email, password: user.password });
    expect(old.statusCode).toBe(401);
    expect(old.json().error.message).toBe('Incorrect Email or Password');
    const cookie = await signIn(ctx.app, user.email, NEW_PASSWORD);
    expect((await get(ctx.app, '/api/me', { cookie })).json().id).toBe(user.id);

    // The link works once.
    const reused = await post(ctx.app, '/api/accounts/reset-password', { token, password: 'Yet-Another-Pass-77' });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error.code).toBe('invalid_token');
    expect((await post(ctx.app, '/api/accounts/sign-in', { email: user.email, password: 'Yet-Another-Pass-77' })).statusCode).toBe(401);
  });

  it('an invented token answers 400 and changes nothing', async () => {
    const user = await createSignedInUser(ctx.app);
    const res = await post(ctx.app, '/api/accounts/reset-password', { token: 'not-a-real-token', password: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/invalid or has expired/);
    expect((await get(ctx.app, '/api/me', { cookie: user.cookie })).statusCode).toBe(200);
  });

  it('an empty new password answers 400 "Empty Fields"', async () => {
    const user = await createSignedInUser(ctx.app);
    const token = await resetToken(user.email);
    const res = await post(ctx.app, '/api/accounts/reset-password', { token, password: '  ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ message: 'Empty Fields', fields: { password: expect.any(String) } });
    // The token was not used up by the refused attempt.
    expect((await post(ctx.app, '/api/accounts/reset-password', { token, password: NEW_PASSWORD })).statusCode).toBe(200);
  });
});
