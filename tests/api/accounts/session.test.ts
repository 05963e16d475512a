import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { account, signInSession } from '../../../src/server/db/schema/accounts.js';
import { educator } from '../../../src/server/db/schema/educators.js';
import { useTestApp } from '../../support/app.js';
import { UUID_RE } from '../../support/test-data.js';
import { createSignedInUser, signIn } from '../../support/factories.js';
import { del, get, post, setCookies } from '../../support/http.js';

const ctx = useTestApp();

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** The session token inside a Cookie header (the part before the signature). */
function tokenOf(cookie: string): string {
  const value = decodeURIComponent(/agora\.session_token=([^;]+)/.exec(cookie)![1]);
  return value.slice(0, value.lastIndexOf('.'));
}

async function secretsOf(userId: string, cookie: string): Promise<string[]> {
  const [credential] = await ctx.app.database.db.select({ password: account.password }).from(account).where(eq(account.userId, userId));
  const tokens = await ctx.app.database.db
    .select({ token: signInSession.token })
    .from(signInSession)
    .where(eq(signInSession.userId, userId));
  return [credential.password!, tokenOf(cookie), ...tokens.map((t) => t.token)];
}

describe('GET /api/me', () => {
  it('answers 401 without a session', async () => {
    const res = await get(ctx.app, '/api/me');
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('unauthorized');
  });

  it('returns the current user with the fields of the spec, the default avatar and no educator', async () => {
    const user = await createSignedInUser(ctx.app);
    const res = await get(ctx.app, '/api/me', { cookie: user.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const me = res.json();
    expect(Object.keys(me).sort()).toEqual(
      [
        'city',
        'createdAt',
        'educator',
        'email',
        'firstName',
        'id',
        'lastName',
        'lastSignInAt',
        'profileImage',
        'stripeCustomerId',
        'timeZone',
        'verified',
      ].sort(),
    );
    expect(me).toMatchObject({
      id: user.id,
      email: user.email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      city: null,
      stripeCustomerId: null,
      profileImage: '/default-avatar.svg',
      verified: true,
      educator: null,
    });
    expect(me.id).toMatch(UUID_RE);
    expect(Number.isNaN(Date.parse(me.createdAt))).toBe(false);
  });

  it('includes the educator record of an educator', async () => {
    const user = await createSignedInUser(ctx.app);
    await ctx.app.database.db.insert(educator).values({ userId: user.id, bio: 'Teaches pottery', stripeConnectAccountId: 'acct_test_1' });
    const me = (await get(ctx.app, '/api/me', { cookie: user.cookie })).json();
    expect(me.educator).toEqual({ userId: user.id, bio: 'Teaches pottery', profileImage: null, stripeConnectAccountId: 'acct_test_1' });
  });

  it('answers 401 to a cookie whose signature was tampered with', async () => {
    const user = await createSignedInUser(ctx.app);
    const value = decodeURIComponent(/agora\.session_token=([^;]+)/.exec(user.cookie)![1]);
    const dot = value.lastIndexOf('.');
    const signature = value.slice(dot + 1);
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    const tampered = `agora.session_token=${encodeURIComponent(value.slice(0, dot + 1) + flipped)}`;
    expect((await get(ctx.app, '/api/me', { cookie: tampered })).statusCode).toBe(401);
    // The bare token without its signature is refused too.
    expect((await get(ctx.app, '/api/me', { cookie: `agora.session_token=${value.slice(0, dot)}` })).statusCode).toBe(401);
    // The genuine cookie still works.
    expect((await get(ctx.app, '/api/me', { cookie: user.cookie })).statusCode).toBe(200);
  });

  it('answers 401 after sign-out, and sign-out clears the cookie', async () => {
    const user = await createSignedInUser(ctx.app);
    const out = await post(ctx.app, '/api/accounts/sign-out', undefined, { cookie: user.cookie });
    expect(out.statusCode).toBe(200);
    const cleared = setCookies(out).find((c) => c.name === 'agora.session_token');
    expect(cleared?.value === '' || cleared?.attributes['max-age'] === '0').toBe(true);
    expect((await get(ctx.app, '/api/me', { cookie: user.cookie })).statusCode).toBe(401);
    // The session is gone server-side, not only in the browser.
    expect(
      await ctx.app.database.db
        .select()
        .from(signInSession)
        .where(eq(signInSession.token, tokenOf(user.cookie))),
    ).toEqual([]);
  });

  it('answers 401 once the session has expired, and pages send the user to /login', async () => {
    const user = await createSignedInUser(ctx.app);
    await ctx.app.database.db
      .update(signInSession)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(signInSession.token, tokenOf(user.cookie)));
    expect((await get(ctx.app, '/api/me', { cookie: user.cookie })).statusCode).toBe(401);
    const page = await get(ctx.app, '/user/settings', { cookie: user.cookie });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe('/login?next=%2Fuser%2Fsettings&reason=session-expired');
    expect(String(page.headers['set-cookie'])).toMatch(/session_token=;.*Max-Age=0/);
  });

  it('signing out without a session still answers 200', async () => {
    expect((await post(ctx.app, '/api/accounts/sign-out')).statusCode).toBe(200);
  });

  it('never returns a password hash or a session token', async () => {
    const user = await createSignedInUser(ctx.app);
    const secrets = await secretsOf(user.id, user.cookie);
    expect(secrets[0]).toBeTruthy();
    const signInAgain = await post(ctx.app, '/api/accounts/sign-in', { email: user.email, password: user.password });
    const answers = [
      signInAgain,
      await get(ctx.app, '/api/me', { cookie: user.cookie }),
      await get(ctx.app, '/api/accounts/session', { cookie: user.cookie }),
      await get(ctx.app, '/api/accounts/sessions', { cookie: user.cookie }),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      for (const secret of await secretsOf(user.id, user.cookie)) expect(res.body).not.toContain(secret);
      expect(res.body).not.toMatch(/"(password|token|hash)"/i);
    }
  });
});

describe('sessions', () => {
  it('/api/accounts/session shows the current session for support, without its token', async () => {
    const user = await createSignedInUser(ctx.app);
    const cookie = await signIn(ctx.app, user.email, user.password, { headers: { 'user-agent': FIREFOX } });
    const res = await get(ctx.app, '/api/accounts/session', { cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.id).toBe(user.id);
    expect(res.json().session).toMatchObject({ current: true, device: 'Firefox on Linux' });
    expect(res.body).not.toContain(tokenOf(cookie));
  });

  it('lists my active sessions with their device, without tokens', async () => {
    const user = await createSignedInUser(ctx.app);
    const firefox = await signIn(ctx.app, user.email, user.password, { headers: { 'user-agent': FIREFOX } });
    const iphone = await signIn(ctx.app, user.email, user.password, { headers: { 'user-agent': SAFARI_IPHONE } });
    const res = await get(ctx.app, '/api/accounts/sessions', { cookie: firefox });
    expect(res.statusCode).toBe(200);
    const { sessions } = res.json();
    const mine = await ctx.app.database.db.select().from(signInSession).where(eq(signInSession.userId, user.id));
    expect(sessions.map((s: { id: string }) => s.id).sort()).toEqual(mine.map((s) => s.id).sort());
    expect(sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(sessions.find((s: { current: boolean }) => s.current).device).toBe('Firefox on Linux');
    expect(sessions.map((s: { device: string }) => s.device)).toContain('Safari on iOS');
    for (const s of sessions) {
      expect(Object.keys(s).sort()).toEqual(['createdAt', 'current', 'device', 'expiresAt', 'id', 'ipAddress', 'lastSeenAt']);
    }
    for (const cookie of [user.cookie, firefox, iphone]) expect(res.body).not.toContain(tokenOf(cookie));
    expect((await get(ctx.app, '/api/accounts/sessions')).statusCode).toBe(401);
  });

  it('revokes one of my other sessions: that device is signed out, this one is not', async () => {
    const user = await createSignedInUser(ctx.app);
    const phone = await signIn(ctx.app, user.email, user.password, { headers: { 'user-agent': SAFARI_IPHONE } });
    const [phoneSession] = await ctx.app.database.db
      .select()
      .from(signInSession)
      .where(eq(signInSession.token, tokenOf(phone)));
    const res = await del(ctx.app, `/api/accounts/sessions/${phoneSession.id}`, { cookie: user.cookie });
    expect(res.statusCode).toBe(200);
    expect((await get(ctx.app, '/api/me', { cookie: phone })).statusCode).toBe(401);
    expect((await get(ctx.app, '/api/me', { cookie: user.cookie })).statusCode).toBe(200);
  });

  it("cannot revoke another user's session (404), which keeps working", async () => {
    const me = await createSignedInUser(ctx.app);
    const other = await createSignedInUser(ctx.app);
    const [theirs] = await ctx.app.database.db
      .select()
      .from(signInSession)
      .where(eq(signInSession.token, tokenOf(other.cookie)));
    const res = await del(ctx.app, `/api/accounts/sessions/${theirs.id}`, { cookie: me.cookie });
    expect(res.statusCode).toBe(404);
    expect((await get(ctx.app, '/api/me', { cookie: other.cookie })).statusCode).toBe(200);
    // A malformed id is a 400, without a session a 401.
    expect((await del(ctx.app, '/api/accounts/sessions/not-a-uuid', { cookie: me.cookie })).statusCode).toBe(400);
    expect((await del(ctx.app, `/api/accounts/sessions/${theirs.id}`)).statusCode).toBe(401);
  });

  it('"sign out other devices" leaves only the current session', async () => {
    const user = await createSignedInUser(ctx.app);
    const second = await signIn(ctx.app, user.email, user.password);
    const third = await signIn(ctx.app, user.email, user.password);
    const other = await createSignedInUser(ctx.app);

    const res = await post(ctx.app, '/api/accounts/sessions/revoke-others', undefined, { cookie: second });
    expect(res.statusCode).toBe(200);
    // createSignedInUser's verification link also opened a session: 3 others in all.
    expect(res.json().revoked).toBe(3);

    const { sessions } = (await get(ctx.app, '/api/accounts/sessions', { cookie: second })).json();
    expect(sessions).toHaveLength(1);
    expect(sessions[0].current).toBe(true);
    expect((await get(ctx.app, '/api/me', { cookie: user.cookie })).statusCode).toBe(401);
    expect((await get(ctx.app, '/api/me', { cookie: third })).statusCode).toBe(401);
    expect((await get(ctx.app, '/api/me', { cookie: second })).statusCode).toBe(200);
    // Someone else's sessions are untouched.
    expect((await get(ctx.app, '/api/me', { cookie: other.cookie })).statusCode).toBe(200);
  });
});
