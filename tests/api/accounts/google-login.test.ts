import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { account, user as userTable } from '../../../src/server/db/schema/accounts.js';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { createSignedInUser, newUser, signUp } from '../../support/factories.js';
import { cookieHeader, get, pathOf, post, setCookies, uniqueEmail } from '../../support/http.js';
import { googleEnv, startOidcProvider, type GoogleProfile } from '../../support/oidc.js';

let app: TestApp;
let google: Awaited<ReturnType<typeof startOidcProvider>>;
beforeAll(async () => {
  google = await startOidcProvider();
  app = await buildTestApp(googleEnv(google.discoveryUrl));
});
afterAll(async () => {
  await app?.close();
  await google?.stop();
});
beforeEach(() => {
  google.failAuthorization(null);
});

const START = { providerId: 'google', callbackURL: '/google-login', errorCallbackURL: '/google-login?error=1' };

/**
 * "Continue with Google" the way a browser does it: our start endpoint, the provider's
 * authorize page (which redirects straight back), then our callback with the state cookie.
 */
async function continueWithGoogle(profile: GoogleProfile, opts: { withStateCookie?: boolean } = {}) {
  google.setProfile(profile);
  const start = await post(app, '/api/auth/sign-in/oauth2', START);
  expect(start.statusCode, start.body).toBe(200);
  const { url, redirect } = start.json();
  expect(redirect).toBe(true);
  expect(url.startsWith(google.discoveryUrl.replace('/.well-known/openid-configuration', ''))).toBe(true);

  const authorize = await fetch(url, { redirect: 'manual' });
  expect(authorize.status).toBe(302);
  const back = new URL(authorize.headers.get('location')!);
  expect(back.origin).toBe(app.config.publicUrl);
  expect(back.pathname).toBe('/api/auth/callback/google');

  const callback = await get(app, pathOf(back.toString()), {
    cookie: opts.withStateCookie === false ? undefined : cookieHeader(start),
  });
  const session = setCookies(callback).find((c) => c.name === 'agora.session_token' && c.value);
  return { callback, location: callback.headers.location ?? '', cookie: session ? `${session.name}=${session.value}` : null };
}

const profileFor = (email: string, extra: Partial<GoogleProfile> = {}): GoogleProfile => ({
  sub: `google-${randomUUID()}`,
  email,
  email_verified: true,
  name: 'Grace Brewster Hopper',
  ...extra,
});

describe('Google login', () => {
  it('creates the user from the profile, splitting the full name at the first space', async () => {
    const email = uniqueEmail('grace');
    const { callback, location, cookie } = await continueWithGoogle(profileFor(email));
    expect(callback.statusCode).toBe(302);
    expect(location).toBe('/google-login');
    expect(cookie).not.toBeNull();
    const session = setCookies(callback).find((c) => c.name === 'agora.session_token')!;
    expect(session.attributes).toHaveProperty('httponly');
    expect(session.attributes.samesite?.toLowerCase()).toBe('lax');

    const me = await get(app, '/api/me', { cookie: cookie! });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email, firstName: 'Grace', lastName: 'Brewster Hopper', verified: true, educator: null });
    // The user has no password: password sign-in is refused.
    expect((await post(app, '/api/accounts/sign-in', { email, password: 'Any-Password-123' })).statusCode).toBe(401);
  });

  it('uses given_name and family_name when the profile has them', async () => {
    const email = uniqueEmail('grace');
    const { cookie } = await continueWithGoogle(
      profileFor(email, { name: 'Rear Admiral Grace Hopper', given_name: 'Grace', family_name: 'Hopper' }),
    );
    const me = (await get(app, '/api/me', { cookie: cookie! })).json();
    expect(me).toMatchObject({ firstName: 'Grace', lastName: 'Hopper' });
  });

  it('the second Google login signs in to the same user', async () => {
    const profile = profileFor(uniqueEmail('again'));
    const first = await continueWithGoogle(profile);
    const second = await continueWithGoogle(profile);
    const a = (await get(app, '/api/me', { cookie: first.cookie! })).json();
    const b = (await get(app, '/api/me', { cookie: second.cookie! })).json();
    expect(b.id).toBe(a.id);
    expect(await app.database.db.select().from(userTable).where(eq(userTable.email, profile.email))).toHaveLength(1);
  });

  it('a Google email matching an existing verified password account links to it (same user id)', async () => {
    const existing = await createSignedInUser(app);
    const { location, cookie } = await continueWithGoogle(profileFor(existing.email.toUpperCase()));
    expect(location).toBe('/google-login');
    const me = (await get(app, '/api/me', { cookie: cookie! })).json();
    expect(me.id).toBe(existing.id);
    // Our names are kept, the Google identity is linked, the password still works.
    expect(me).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
    const linked = await app.database.db
      .select()
      .from(account)
      .where(and(eq(account.userId, existing.id), eq(account.providerId, 'google')));
    expect(linked).toHaveLength(1);
    expect((await post(app, '/api/accounts/sign-in', { email: existing.email, password: existing.password })).statusCode).toBe(200);
  });

  it('a Google email that Google has not verified never opens an existing account', async () => {
    const existing = await createSignedInUser(app);
    const { callback, location, cookie } = await continueWithGoogle(profileFor(existing.email, { email_verified: false }));
    expect(callback.statusCode).toBe(302);
    expect(location.startsWith('/google-login?error=')).toBe(true);
    expect(cookie).toBeNull();
    const linked = await app.database.db
      .select()
      .from(account)
      .where(and(eq(account.userId, existing.id), eq(account.providerId, 'google')));
    expect(linked).toEqual([]);
  });

  it('an account waiting for email verification is not handed to a Google login', async () => {
    const pending = newUser();
    expect((await signUp(app, pending)).statusCode).toBe(201);
    const { location, cookie } = await continueWithGoogle(profileFor(pending.email));
    expect(location.startsWith('/google-login?error=')).toBe(true);
    expect(cookie).toBeNull();
  });

  it('a declined consent returns to the error page without a session', async () => {
    google.failAuthorization('access_denied');
    const { location, cookie } = await continueWithGoogle(profileFor(uniqueEmail('declined')));
    expect(location.startsWith('/google-login?error=')).toBe(true);
    expect(location).toContain('access_denied');
    expect(cookie).toBeNull();
  });

  it('a callback without the state cookie of the browser that started the flow opens no session', async () => {
    const email = uniqueEmail('nostate');
    const { callback, cookie } = await continueWithGoogle(profileFor(email), { withStateCookie: false });
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).not.toBe('/google-login');
    expect(cookie).toBeNull();
    expect(await app.database.db.select().from(userTable).where(eq(userTable.email, email))).toEqual([]);
  });

  it('refuses a return address on another site and an unknown provider', async () => {
    const external = await post(app, '/api/auth/sign-in/oauth2', { ...START, callbackURL: 'https://evil.example/steal' });
    expect(external.statusCode).toBe(400);
    const protocolRelative = await post(app, '/api/auth/sign-in/oauth2', { ...START, errorCallbackURL: '//evil.example' });
    expect(protocolRelative.statusCode).toBe(400);
    const unknown = await post(app, '/api/auth/sign-in/oauth2', { ...START, providerId: 'myspace' });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('without Google configured', () => {
  it('"Continue with Google" answers 404 instead of failing', async () => {
    const plain = await buildTestApp();
    try {
      const res = await post(plain, '/api/auth/sign-in/oauth2', START);
      expect(res.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
