import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInSession, user as userTable } from '../../../src/server/db/schema/accounts.js';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { createSignedInUser, type SignedInUser } from '../../support/factories.js';
import { cookieHeader, get, pathOf, post, setCookies, uniqueEmail, type Response } from '../../support/http.js';
import { googleEnv, startOidcProvider } from '../../support/oidc.js';
import { totp } from '../../support/totp.js';

let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(async () => {
  await app.close();
});

/** Cookie jar: the new Set-Cookie values replace the old ones of the same name. */
function merge(cookie: string, res: Response): string {
  const jar = new Map(
    cookie
      .split('; ')
      .filter(Boolean)
      .map((c) => [c.slice(0, c.indexOf('=')), c] as const),
  );
  for (const c of cookieHeader(res).split('; ').filter(Boolean)) {
    const name = c.slice(0, c.indexOf('='));
    if (c.endsWith('=')) jar.delete(name);
    else jar.set(name, c);
  }
  return [...jar.values()].join('; ');
}

/** Turns two-factor on for a signed-in user; answers the key, the backup codes and the new cookie. */
async function enable(u: SignedInUser, on: TestApp = app) {
  const setup = await post(on, '/api/accounts/two-factor/setup', { password: u.password }, { cookie: u.cookie });
  expect(setup.statusCode, setup.body).toBe(200);
  const { key, qrCode, totpUri } = setup.json();
  expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
  expect(totpUri).toContain(`secret=${key}`);
  const confirm = await post(on, '/api/accounts/two-factor/confirm', { code: totp(key) }, { cookie: u.cookie });
  expect(confirm.statusCode, confirm.body).toBe(200);
  const codes: string[] = confirm.json().backupCodes;
  return { key, codes, cookie: merge(u.cookie, confirm) };
}

async function aalOf(userId: string) {
  return app.database.db.select({ aal: signInSession.aal }).from(signInSession).where(eq(signInSession.userId, userId));
}

/** Password step then code step; answers the second step's response and the cookie. */
async function signInWithCode(u: SignedInUser, code: string, trustDevice = false, cookie = '') {
  const first = await post(app, '/api/accounts/sign-in', { email: u.email, password: u.password }, { cookie });
  expect(first.statusCode, first.body).toBe(202);
  expect(first.json()).toEqual({ twoFactorRequired: true });
  expect(cookieHeader(first)).not.toMatch(/session_token=[^;]/);
  const jar = merge(cookie, first);
  const second = await post(app, '/api/accounts/sign-in/two-factor', { code, trustDevice }, { cookie: jar });
  return { res: second, cookie: merge(jar, second) };
}

describe('two-factor sign-in (TOTP)', () => {
  it('turning it on needs a correct code; then 10 backup codes; the session that confirmed is aal2', async () => {
    const u = await createSignedInUser(app);
    const setup = await post(app, '/api/accounts/two-factor/setup', { password: u.password }, { cookie: u.cookie });
    const { key } = setup.json();
    const wrong = await post(app, '/api/accounts/two-factor/confirm', { code: totp(key, Date.now(), 10) }, { cookie: u.cookie });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('invalid_code');
    expect((await get(app, '/api/accounts/two-factor', { cookie: u.cookie })).json()).toMatchObject({ enabled: false, aal: 'aal1' });

    const confirm = await post(app, '/api/accounts/two-factor/confirm', { code: totp(key) }, { cookie: u.cookie });
    expect(confirm.statusCode, confirm.body).toBe(200);
    expect(confirm.json().backupCodes).toHaveLength(10);
    const cookie = merge(u.cookie, confirm);
    expect((await get(app, '/api/accounts/two-factor', { cookie })).json()).toMatchObject({
      enabled: true,
      aal: 'aal2',
      recentSecondFactor: true,
    });
  });

  it('a wrong password refuses to start', async () => {
    const u = await createSignedInUser(app);
    const res = await post(app, '/api/accounts/two-factor/setup', { password: 'wrong-password-9' }, { cookie: u.cookie });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('incorrect_password');
  });

  it('log-in asks for a code after the password; a correct code gives an aal2 session, a wrong one 400', async () => {
    const u = await createSignedInUser(app);
    const { key } = await enable(u);
    const wrong = await signInWithCode(u, totp(key, Date.now(), 20));
    expect(wrong.res.statusCode).toBe(400);
    expect(wrong.res.json().error.code).toBe('invalid_code');

    const { res, cookie } = await signInWithCode(u, totp(key));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().email).toBe(u.email);
    expect((await get(app, '/api/accounts/two-factor', { cookie })).json()).toMatchObject({ aal: 'aal2' });
  });

  it('a backup code works once, and sessions of other sign-ins stay aal1', async () => {
    const u = await createSignedInUser(app);
    const { codes } = await enable(u);
    const first = await signInWithCode(u, codes[0]);
    expect(first.res.statusCode, first.res.body).toBe(200);
    const again = await signInWithCode(u, codes[0]);
    expect(again.res.statusCode).toBe(400);
    expect(again.res.json().error.code).toBe('invalid_code');
    const rows = await aalOf(u.id);
    // The session of the verification link (aal1) and the confirm + backup-code sessions (aal2).
    expect(rows.map((r) => r.aal).sort()).toEqual(['aal1', 'aal2', 'aal2']);
  });

  it('"trust this device" skips the code on the next log-in from that browser (session stays aal1)', async () => {
    const u = await createSignedInUser(app);
    const { key } = await enable(u);
    const { res, cookie } = await signInWithCode(u, totp(key), true);
    expect(res.statusCode).toBe(200);
    expect(cookie).toMatch(/trust_device=/);
    const trusted = cookie
      .split('; ')
      .filter((c) => c.includes('trust_device'))
      .join('; ');
    const next = await post(app, '/api/accounts/sign-in', { email: u.email, password: u.password }, { cookie: trusted });
    expect(next.statusCode, next.body).toBe(200);
    const session = merge(trusted, next);
    expect((await get(app, '/api/accounts/two-factor', { cookie: session })).json()).toMatchObject({
      enabled: true,
      aal: 'aal1',
      recentSecondFactor: false,
    });
  });

  it('changes need a recent second factor: an aal1 session must step up first', async () => {
    const u = await createSignedInUser(app);
    const { key } = await enable(u);
    const { cookie: trustedCookie } = await signInWithCode(u, totp(key), true);
    const trusted = trustedCookie
      .split('; ')
      .filter((c) => c.includes('trust_device'))
      .join('; ');
    const aal1 = merge(trusted, await post(app, '/api/accounts/sign-in', { email: u.email, password: u.password }, { cookie: trusted }));
    const refused = await post(app, '/api/accounts/two-factor/backup-codes', { password: u.password }, { cookie: aal1 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('second_factor_required');
    const unlink = await post(app, '/api/accounts/linked-accounts/unlink', { provider: 'password' }, { cookie: aal1 });
    expect(unlink.json().error.code).toBe('second_factor_required');

    const stepUp = await post(app, '/api/accounts/two-factor/verify', { code: totp(key) }, { cookie: aal1 });
    expect(stepUp.statusCode, stepUp.body).toBe(200);
    const fresh = await post(app, '/api/accounts/two-factor/backup-codes', { password: u.password }, { cookie: aal1 });
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json().backupCodes).toHaveLength(10);
  });

  it('regenerated backup codes replace the old ones', async () => {
    const u = await createSignedInUser(app);
    const { codes, cookie } = await enable(u);
    const fresh = await post(app, '/api/accounts/two-factor/backup-codes', { password: u.password }, { cookie });
    expect(fresh.statusCode, fresh.body).toBe(200);
    const old = await signInWithCode(u, codes[1]);
    expect(old.res.statusCode).toBe(400);
    const next = await signInWithCode(u, fresh.json().backupCodes[0]);
    expect(next.res.statusCode).toBe(200);
  });

  it('turning it off needs the password and a code; then log-in is one step again', async () => {
    const u = await createSignedInUser(app);
    const { key, cookie } = await enable(u);
    const noCode = await post(
      app,
      '/api/accounts/two-factor/disable',
      { password: u.password, code: '000000' === totp(key) ? '111111' : '000000' },
      { cookie },
    );
    expect(noCode.statusCode).toBe(400);
    const badPassword = await post(
      app,
      '/api/accounts/two-factor/disable',
      { password: 'not-the-password-1', code: totp(key) },
      { cookie },
    );
    expect(badPassword.statusCode).toBe(400);
    expect(badPassword.json().error.code).toBe('incorrect_password');
    const off = await post(app, '/api/accounts/two-factor/disable', { password: u.password, code: totp(key) }, { cookie });
    expect(off.statusCode, off.body).toBe(200);
    const [row] = await app.database.db.select({ on: userTable.twoFactorEnabled }).from(userTable).where(eq(userTable.id, u.id));
    expect(row.on).toBe(false);
    const signIn = await post(app, '/api/accounts/sign-in', { email: u.email, password: u.password });
    expect(signIn.statusCode).toBe(200);
  });

  it('another user cannot turn my two-factor off or use my codes', async () => {
    const me = await createSignedInUser(app);
    const other = await createSignedInUser(app);
    const { key, codes } = await enable(me);
    const res = await post(app, '/api/accounts/two-factor/disable', { password: me.password, code: totp(key) }, { cookie: other.cookie });
    expect(res.statusCode).toBe(409);
    const withMine = await post(app, '/api/accounts/two-factor/verify', { code: codes[0] }, { cookie: other.cookie });
    expect(withMine.statusCode).toBe(409);
    // Even with two-factor on for them too, my codes are not theirs.
    const theirs = await enable(other);
    const mine = await post(
      app,
      '/api/accounts/two-factor/disable',
      { password: other.password, code: totp(key) === totp(theirs.key) ? codes[1] : totp(key) },
      { cookie: theirs.cookie },
    );
    expect(mine.statusCode).toBe(400);
    expect(mine.json().error.code).toBe('invalid_code');
    const rows = await app.database.db.select({ on: userTable.twoFactorEnabled }).from(userTable).where(eq(userTable.id, me.id));
    expect(rows[0].on).toBe(true);
    const [otherRow] = await app.database.db.select({ on: userTable.twoFactorEnabled }).from(userTable).where(eq(userTable.id, other.id));
    expect(otherRow.on).toBe(true);
  });

  it('code attempts are limited (429) per account', async () => {
    const u = await createSignedInUser(app);
    const { key, cookie } = await enable(u);
    const wrong = totp(key, Date.now(), 30);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await post(app, '/api/accounts/two-factor/verify', { code: wrong }, { cookie })).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('the second step without the password step is 401; junk codes are 400', async () => {
    const res = await post(app, '/api/accounts/sign-in/two-factor', { code: '123456' });
    expect(res.statusCode).toBe(401);
    const junk = await post(app, '/api/accounts/sign-in/two-factor', { code: 'x\u0000' });
    expect(junk.statusCode).toBe(400);
  });
});

describe('linked accounts and sign-out scopes', () => {
  it('a password-only account cannot remove its only way in (single_identity_not_deletable)', async () => {
    const u = await createSignedInUser(app);
    const list = await get(app, '/api/accounts/linked-accounts', { cookie: u.cookie });
    expect(list.json().accounts.map((a: { provider: string }) => a.provider)).toEqual(['password']);
    const res = await post(app, '/api/accounts/linked-accounts/unlink', { provider: 'password' }, { cookie: u.cookie });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('single_identity_not_deletable');
    const google = await post(app, '/api/accounts/linked-accounts/unlink', { provider: 'google' }, { cookie: u.cookie });
    expect(google.statusCode).toBe(404);
  });

  it('an account with a password cannot set another one', async () => {
    const u = await createSignedInUser(app);
    const res = await post(app, '/api/accounts/password', { password: 'Another-Strong-Pass-9' }, { cookie: u.cookie });
    expect(res.statusCode).toBe(409);
  });

  it('sign out everywhere ends every session, this one included', async () => {
    const u = await createSignedInUser(app);
    const other = await post(app, '/api/accounts/sign-in', { email: u.email, password: u.password });
    const otherCookie = cookieHeader(other);
    const res = await post(app, '/api/accounts/sessions/revoke-all', undefined, { cookie: u.cookie });
    expect(res.statusCode).toBe(200);
    // Two sign-ins and the session of the verification link.
    expect(res.json().revoked).toBe(3);
    expect(setCookies(res).find((c) => c.name === 'agora.session_token')?.value).toBe('');
    expect((await get(app, '/api/me', { cookie: u.cookie })).statusCode).toBe(401);
    expect((await get(app, '/api/me', { cookie: otherCookie })).statusCode).toBe(401);
  });
});

describe('linked accounts with Google (local OIDC provider)', () => {
  let gApp: TestApp;
  let google: Awaited<ReturnType<typeof startOidcProvider>>;
  beforeAll(async () => {
    google = await startOidcProvider();
    gApp = await buildTestApp(googleEnv(google.discoveryUrl));
  });
  afterAll(async () => {
    await gApp?.close();
    await google?.stop();
  });

  /** Follows a Google redirect flow started by `start` (its url and state cookie) back to our callback. */
  async function followGoogle(start: Response, cookie = '') {
    const authorize = await fetch(start.json().url, { redirect: 'manual' });
    expect(authorize.status).toBe(302);
    const back = new URL(authorize.headers.get('location')!);
    return get(gApp, pathOf(back.toString()), { cookie: merge(cookie, start) });
  }
  const profile = (email: string) => ({ sub: `google-${randomUUID()}`, email, email_verified: true, name: 'Grace Hopper' });
  const providers = async (cookie: string) =>
    (await get(gApp, '/api/accounts/linked-accounts', { cookie }))
      .json()
      .accounts.map((a: { provider: string }) => a.provider)
      .sort();

  it('a password account links Google, then unlinks it', async () => {
    const u = await createSignedInUser(gApp);
    google.setProfile(profile(u.email));
    const start = await post(gApp, '/api/accounts/linked-accounts/google', undefined, { cookie: u.cookie });
    expect(start.statusCode, start.body).toBe(200);
    const callback = await followGoogle(start, u.cookie);
    expect(callback.statusCode, callback.body).toBe(302);
    expect(callback.headers.location).toBe('/user/settings');
    expect(await providers(u.cookie)).toEqual(['google', 'password']);

    const unlink = await post(gApp, '/api/accounts/linked-accounts/unlink', { provider: 'google' }, { cookie: u.cookie });
    expect(unlink.statusCode, unlink.body).toBe(200);
    expect(await providers(u.cookie)).toEqual(['password']);
  });

  it('a Google-only account cannot unlink Google, sets a password, then can', async () => {
    const email = uniqueEmail('grace');
    google.setProfile(profile(email));
    const start = await post(gApp, '/api/auth/sign-in/oauth2', { providerId: 'google', callbackURL: '/google-login' });
    const callback = await followGoogle(start);
    const session = setCookies(callback).find((c) => c.name === 'agora.session_token' && c.value)!;
    const cookie = `${session.name}=${session.value}`;
    expect(await providers(cookie)).toEqual(['google']);

    const refused = await post(gApp, '/api/accounts/linked-accounts/unlink', { provider: 'google' }, { cookie });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'single_identity_not_deletable',
      message: expect.stringContaining('Set a password first'),
    });

    const weak = await post(gApp, '/api/accounts/password', { password: 'password' }, { cookie });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.code).toBe('weak_password');
    const set = await post(gApp, '/api/accounts/password', { password: 'Harbour-Lights-42' }, { cookie });
    expect(set.statusCode, set.body).toBe(200);
    expect((await post(gApp, '/api/accounts/sign-in', { email, password: 'Harbour-Lights-42' })).statusCode).toBe(200);

    const unlink = await post(gApp, '/api/accounts/linked-accounts/unlink', { provider: 'google' }, { cookie });
    expect(unlink.statusCode).toBe(200);
    expect(await providers(cookie)).toEqual(['password']);
  });
  it('with two-factor on, a Google log-in gets no session until the code; then the session is aal2', async () => {
    const u = await createSignedInUser(gApp);
    const { key, cookie: enabled } = await enable(u, gApp);
    google.setProfile(profile(u.email));
    const link = await post(gApp, '/api/accounts/linked-accounts/google', undefined, { cookie: enabled });
    expect(link.statusCode, link.body).toBe(200);
    expect((await followGoogle(link, enabled)).statusCode).toBe(302);
    const before = (await gApp.database.db.select().from(signInSession).where(eq(signInSession.userId, u.id))).length;

    const start = await post(gApp, '/api/auth/sign-in/oauth2', { providerId: 'google', callbackURL: '/google-login' });
    const callback = await followGoogle(start);
    expect(callback.statusCode, callback.body).toBe(302);
    expect(callback.headers.location).toBe('/login?step=two-factor');
    expect(cookieHeader(callback)).not.toMatch(/session_token=[^;]/);
    const jar = merge('', callback);
    expect(jar).toMatch(/agora\.two_factor=/);
    expect((await get(gApp, '/api/me', { cookie: jar })).statusCode).toBe(401);
    // The session the callback created is gone, not just its cookie.
    expect((await gApp.database.db.select().from(signInSession).where(eq(signInSession.userId, u.id))).length).toBe(before);

    const wrong = await post(gApp, '/api/accounts/sign-in/two-factor', { code: totp(key, Date.now(), 10) }, { cookie: jar });
    expect(wrong.statusCode).toBe(400);
    const done = await post(gApp, '/api/accounts/sign-in/two-factor', { code: totp(key), trustDevice: true }, { cookie: jar });
    expect(done.statusCode, done.body).toBe(200);
    const cookie = merge(jar, done);
    expect((await get(gApp, '/api/me', { cookie })).json().email).toBe(u.email);
    expect((await get(gApp, '/api/accounts/two-factor', { cookie })).json()).toMatchObject({ enabled: true, aal: 'aal2' });

    // A trusted device skips the code on the next Google log-in, as with a password.
    const trust = cookie.split('; ').find((c) => c.startsWith('agora.trust_device='))!;
    expect(trust).toBeDefined();
    const again = await followGoogle(
      await post(gApp, '/api/auth/sign-in/oauth2', { providerId: 'google', callbackURL: '/google-login' }),
      trust,
    );
    expect(again.headers.location).toBe('/google-login');
    expect((await get(gApp, '/api/me', { cookie: merge(trust, again) })).json().email).toBe(u.email);
  });

  it('without two-factor, a Google log-in is unchanged: a session and the callback URL', async () => {
    google.setProfile(profile(uniqueEmail('ada')));
    const start = await post(gApp, '/api/auth/sign-in/oauth2', { providerId: 'google', callbackURL: '/google-login' });
    const callback = await followGoogle(start);
    expect(callback.statusCode, callback.body).toBe(302);
    expect(callback.headers.location).toBe('/google-login');
    const jar = merge('', callback);
    expect(jar).not.toMatch(/two_factor=/);
    expect((await get(gApp, '/api/me', { cookie: jar })).statusCode).toBe(200);
  });
});
