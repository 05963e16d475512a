import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInSession, user as userTable } from '../../../src/server/db/schema/accounts.js';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { createSignedInUser, followLink, outbox, signIn, type SignedInUser } from '../../support/factories.js';
import { cookieHeader, get, post, randomIp, uniqueEmail } from '../../support/http.js';
import { totp } from '../../support/totp.js';

/**
 * Settings (issue 14, friction 13): changing the password, changing the email (verified at
 * the new address first, the old one told), deleting the account. Each needs the current
 * password, a recent second factor when two-factor is on, is rate-limited, and acts on the
 * caller's own account only.
 */
let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(async () => {
  await app.close();
});

const NEW_PASSWORD = 'Difference-Engine-1822';
const opts = (u: { cookie: string }) => ({ cookie: u.cookie, ip: randomIp() });

async function twoFactorOnButNotRecent(u: SignedInUser) {
  const setup = await post(app, '/api/accounts/two-factor/setup', { password: u.password }, { cookie: u.cookie });
  expect(setup.statusCode, setup.body).toBe(200);
  const { key } = setup.json();
  const confirm = await post(app, '/api/accounts/two-factor/confirm', { code: totp(key) }, { cookie: u.cookie });
  expect(confirm.statusCode, confirm.body).toBe(200);
  // Confirming replaces the session cookie.
  const jar = new Map(u.cookie.split('; ').map((c) => [c.slice(0, c.indexOf('=')), c] as const));
  for (const c of cookieHeader(confirm).split('; ').filter(Boolean)) jar.set(c.slice(0, c.indexOf('=')), c);
  u.cookie = [...jar.values()].join('; ');
  // The second factor of this session was more than an hour ago.
  await app.database.db.update(signInSession).set({ aal: 'aal1', secondFactorAt: null }).where(eq(signInSession.userId, u.id));
  return key as string;
}

describe('changing the password', () => {
  it('needs the current password; a weak new one names its field; then it changes and other devices are signed out', async () => {
    const u = await createSignedInUser(app);
    const otherDevice = await signIn(app, u.email, u.password);

    const wrong = await post(
      app,
      '/api/accounts/password/change',
      { currentPassword: 'Not-my-password-1', newPassword: NEW_PASSWORD },
      opts(u),
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({ code: 'wrong_password', fields: { currentPassword: 'Not your current password' } });

    const weak = await post(app, '/api/accounts/password/change', { currentPassword: u.password, newPassword: 'short' }, opts(u));
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.fields.newPassword).toBeTruthy();

    const ok = await post(app, '/api/accounts/password/change', { currentPassword: u.password, newPassword: NEW_PASSWORD }, opts(u));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().message).toMatch(/^Your password has been changed\. .*signed out\.$/);
    expect((await get(app, '/api/me', { cookie: u.cookie })).statusCode).toBe(200);
    expect((await get(app, '/api/me', { cookie: otherDevice })).statusCode).toBe(401);
    expect((await post(app, '/api/accounts/sign-in', { email: u.email, password: u.password })).statusCode).toBe(401);
    await signIn(app, u.email, NEW_PASSWORD);
  });

  it("another user's session changes only its own account: with someone else's password it is refused", async () => {
    const a = await createSignedInUser(app, { password: 'Analytical-Engine-Ada-1843' });
    const b = await createSignedInUser(app);
    const res = await post(app, '/api/accounts/password/change', { currentPassword: a.password, newPassword: NEW_PASSWORD }, opts(b));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('wrong_password');
    await signIn(app, a.email, a.password);
    await signIn(app, b.email, b.password);
  });

  it('wrong passwords are limited: the 6th in 15 minutes answers 429', async () => {
    const u = await createSignedInUser(app);
    for (let i = 0; i < 5; i++) {
      const res = await post(
        app,
        '/api/accounts/password/change',
        { currentPassword: `Wrong-password-${i}`, newPassword: NEW_PASSWORD },
        opts(u),
      );
      expect(res.statusCode).toBe(400);
    }
    const limited = await post(app, '/api/accounts/password/change', { currentPassword: u.password, newPassword: NEW_PASSWORD }, opts(u));
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
  });

  it('with two-factor on, a session without a recent second factor must step up first', async () => {
    const u = await createSignedInUser(app);
    const key = await twoFactorOnButNotRecent(u);
    const refused = await post(app, '/api/accounts/password/change', { currentPassword: u.password, newPassword: NEW_PASSWORD }, opts(u));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('second_factor_required');
    expect((await post(app, '/api/accounts/two-factor/verify', { code: totp(key) }, { cookie: u.cookie })).statusCode).toBe(200);
    const ok = await post(app, '/api/accounts/password/change', { currentPassword: u.password, newPassword: NEW_PASSWORD }, opts(u));
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('without a session answers 401', async () => {
    expect((await post(app, '/api/accounts/password/change', { currentPassword: 'x', newPassword: NEW_PASSWORD })).statusCode).toBe(401);
  });
});

describe('changing the email', () => {
  it('nothing changes until the link sent to the new address is opened; then the old address is told', async () => {
    const u = await createSignedInUser(app);
    const newEmail = uniqueEmail('moved');
    const res = await post(app, '/api/accounts/email', { newEmail, password: u.password }, opts(u));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toContain(newEmail);
    expect((await get(app, '/api/me', { cookie: u.cookie })).json().email).toBe(u.email);

    const mail = (await outbox(app, newEmail)).find((m) => /Confirm your new email/.test(m.subject));
    expect(mail, 'the confirmation email to the new address').toBeTruthy();
    const link = /https?:\/\/\S+email-change\/confirm\?token=[\w-]+/.exec(mail!.text)![0];
    // The link works without a session (opened on another device), once.
    const opened = await followLink(app, link);
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe('/email-verified?change=done');
    expect((await get(app, '/api/me', { cookie: u.cookie })).json()).toMatchObject({ email: newEmail, verified: true });
    const again = await followLink(app, link);
    expect(again.headers.location).toBe('/email-verified?change=invalid');

    const notice = (await outbox(app, u.email)).find((m) => /email address was changed/.test(m.subject));
    expect(notice?.text).toContain(newEmail);
    await signIn(app, newEmail, u.password);
    expect((await post(app, '/api/accounts/sign-in', { email: u.email, password: u.password })).statusCode).toBe(401);
  });

  it('refuses a wrong password, an address in use, the same address and a bad token; an expired link changes nothing', async () => {
    const u = await createSignedInUser(app);
    const other = await createSignedInUser(app);
    const wrong = await post(app, '/api/accounts/email', { newEmail: uniqueEmail(), password: 'Not-my-password-1' }, opts(u));
    expect(wrong.json().error).toMatchObject({ code: 'wrong_password', fields: { password: 'Not your current password' } });
    const taken = await post(app, '/api/accounts/email', { newEmail: other.email.toUpperCase(), password: u.password }, opts(u));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.fields.newEmail).toBe('Already in use');
    const same = await post(app, '/api/accounts/email', { newEmail: u.email, password: u.password }, opts(u));
    expect(same.statusCode).toBe(400);
    const invalid = await post(app, '/api/accounts/email', { newEmail: 'not-an-email', password: u.password }, opts(u));
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.fields.newEmail).toBeTruthy();

    const newEmail = uniqueEmail('late');
    expect((await post(app, '/api/accounts/email', { newEmail, password: u.password }, opts(u))).statusCode).toBe(200);
    await app.database.db.execute(
      sql`update verification set expires_at = now() - interval '1 minute' where identifier like 'email-change:%'`,
    );
    const mail = (await outbox(app, newEmail))[0];
    const link = /https?:\/\/\S+email-change\/confirm\?token=[\w-]+/.exec(mail.text)![0];
    expect((await followLink(app, link)).headers.location).toBe('/email-verified?change=invalid');
    expect((await get(app, '/api/accounts/email-change/confirm?token=nonsense')).headers.location).toBe('/email-verified?change=invalid');
    expect((await get(app, '/api/me', { cookie: u.cookie })).json().email).toBe(u.email);
  });

  it("another user's session cannot move someone else's address (its own password is asked, its own account changes)", async () => {
    const a = await createSignedInUser(app);
    const b = await createSignedInUser(app);
    const newEmail = uniqueEmail('b-moved');
    expect((await post(app, '/api/accounts/email', { newEmail, password: b.password }, opts(b))).statusCode).toBe(200);
    const link = /https?:\/\/\S+email-change\/confirm\?token=[\w-]+/.exec((await outbox(app, newEmail))[0].text)![0];
    // a opening b's link changes b, never a.
    await followLink(app, link, { cookie: a.cookie });
    expect((await get(app, '/api/me', { cookie: a.cookie })).json().email).toBe(a.email);
    expect((await get(app, '/api/me', { cookie: b.cookie })).json().email).toBe(newEmail);
  });

  it('with two-factor on, asks for a recent second factor', async () => {
    const u = await createSignedInUser(app);
    await twoFactorOnButNotRecent(u);
    const res = await post(app, '/api/accounts/email', { newEmail: uniqueEmail(), password: u.password }, opts(u));
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('second_factor_required');
  });
});

describe('deleting the account', () => {
  it('needs the password and the email typed again; then personal data is erased, the session ends, sign-in is impossible', async () => {
    const u = await createSignedInUser(app);
    const mismatch = await post(app, '/api/accounts/delete', { password: u.password, confirmEmail: 'someone@else.test' }, opts(u));
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error.fields.confirmEmail).toBe('Does not match your email');
    const wrong = await post(app, '/api/accounts/delete', { password: 'Not-my-password-1', confirmEmail: u.email }, opts(u));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields.password).toBe('Not your current password');

    const res = await post(app, '/api/accounts/delete', { password: u.password, confirmEmail: u.email.toUpperCase() }, opts(u));
    expect(res.statusCode, res.body).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/Max-Age=0/);
    expect((await get(app, '/api/me', { cookie: u.cookie })).statusCode).toBe(401);
    const [row] = await app.database.db.select().from(userTable).where(eq(userTable.id, u.id));
    expect(row).toMatchObject({
      email: `deleted-${u.id}@invalid`,
      firstName: 'Deleted',
      lastName: 'user',
      city: null,
      image: null,
      banned: true,
    });
    expect((await post(app, '/api/accounts/sign-in', { email: u.email, password: u.password })).statusCode).toBe(401);
    expect((await outbox(app, u.email)).some((m) => /account was deleted/.test(m.subject))).toBe(true);
  });

  it("another user's session cannot delete someone else's account (it would have to type its own email)", async () => {
    const a = await createSignedInUser(app);
    const b = await createSignedInUser(app);
    const res = await post(app, '/api/accounts/delete', { password: a.password, confirmEmail: a.email }, opts(b));
    expect(res.statusCode).toBe(400);
    expect((await get(app, '/api/me', { cookie: a.cookie })).statusCode).toBe(200);
    expect((await get(app, '/api/me', { cookie: b.cookie })).statusCode).toBe(200);
  });

  it('with two-factor on, asks for a recent second factor; wrong passwords are limited', async () => {
    const u = await createSignedInUser(app);
    await twoFactorOnButNotRecent(u);
    const res = await post(app, '/api/accounts/delete', { password: u.password, confirmEmail: u.email }, opts(u));
    expect(res.json().error.code).toBe('second_factor_required');

    const v = await createSignedInUser(app);
    for (let i = 0; i < 5; i++) {
      expect(
        (await post(app, '/api/accounts/delete', { password: `Wrong-${i}-password`, confirmEmail: v.email }, opts(v))).statusCode,
      ).toBe(400);
    }
    expect((await post(app, '/api/accounts/delete', { password: v.password, confirmEmail: v.email }, opts(v))).statusCode).toBe(429);
    expect((await get(app, '/api/me', { cookie: v.cookie })).statusCode).toBe(200);
  });
});
