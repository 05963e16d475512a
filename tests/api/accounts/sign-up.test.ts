import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createVerifiedUser, followLink, latestLink, newUser, outbox, signUp, type NewUser } from '../../support/factories.js';
import { get, post, setCookies, uniqueEmail } from '../../support/http.js';

const ctx = useTestApp();

const FIELDS: (keyof NewUser)[] = ['email', 'firstName', 'lastName', 'password', 'birthdate'];

describe('sign-up', () => {
  it('trims every field and keeps the email in lower case', async () => {
    const user = newUser();
    const res = await signUp(ctx.app, {
      email: `  ${user.email.toUpperCase()}  `,
      firstName: '  Ada ',
      lastName: ' Lovelace  ',
      password: `  ${user.password}  `,
      birthdate: ' 1990-12-10 ',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ email: user.email });

    await followLink(ctx.app, await latestLink(ctx.app, user.email, /verify/i));
    // The trimmed password is the password.
    const signIn = await post(ctx.app, '/api/accounts/sign-in', { email: user.email, password: user.password });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect(signIn.json()).toMatchObject({ email: user.email, firstName: 'Ada', lastName: 'Lovelace' });
  });

  for (const field of FIELDS) {
    it(`an empty ${field} answers 400 "Empty Fields" naming that field`, async () => {
      const res = await signUp(ctx.app, newUser({ [field]: '   ' }));
      expect(res.statusCode).toBe(400);
      const { error } = res.json();
      expect(error.message).toBe('Empty Fields');
      expect(Object.keys(error.fields)).toEqual([field]);
    });
  }

  it('an omitted field answers 400 "Empty Fields" as well', async () => {
    const { firstName: _omitted, ...rest } = newUser();
    const res = await signUp(ctx.app, rest);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ message: 'Empty Fields', fields: { firstName: expect.any(String) } });
  });

  it('a form with every field empty lists all five fields', async () => {
    const res = await signUp(ctx.app, { email: '', firstName: '', lastName: '', password: '', birthdate: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Empty Fields');
    expect(Object.keys(res.json().error.fields).sort()).toEqual([...FIELDS].sort());
  });

  it('an invalid email answers 400 naming the email field', async () => {
    for (const email of ['not-an-email', 'two@@example.com', 'no-domain@', 'spaces in@example.com']) {
      const res = await signUp(ctx.app, newUser({ email }));
      expect(res.statusCode, email).toBe(400);
      expect(res.json().error.fields, email).toHaveProperty('email');
    }
  });

  it('a birthdate that is malformed, does not exist or lies in the future answers 400 naming birthdate', async () => {
    const nextYear = new Date().getUTCFullYear() + 1;
    for (const birthdate of ['10/12/1990', '1990-02-30', `${nextYear}-01-01`, 'yesterday']) {
      const res = await signUp(ctx.app, newUser({ birthdate }));
      expect(res.statusCode, birthdate).toBe(400);
      expect(res.json().error.fields, birthdate).toHaveProperty('birthdate');
    }
  });

  it('a weak password answers 400 with the list of reasons', async () => {
    const email = uniqueEmail('weak');
    const short = await signUp(ctx.app, newUser({ email, password: 'ab1!' }));
    expect(short.statusCode).toBe(400);
    expect(short.json().error.code).toBe('weak_password');
    expect(short.json().error.reasons).toContain('Use at least 8 characters');
    expect(short.json().error.fields).toHaveProperty('password');

    const local = email.split('@')[0];
    const withEmail = await signUp(ctx.app, newUser({ email, password: `${local}-2024!` }));
    expect(withEmail.statusCode).toBe(400);
    expect(withEmail.json().error.reasons).toContain('Do not include your email address');

    const common = await signUp(ctx.app, newUser({ email, password: 'password123' }));
    expect(common.statusCode).toBe(400);
    expect(common.json().error.reasons).toContain('This password is too common');

    const several = await signUp(ctx.app, newUser({ email, password: 'aaaa' }));
    expect(several.json().error.reasons.length).toBeGreaterThan(1);

    // None of these attempts created the account.
    expect(await outbox(ctx.app, email)).toEqual([]);
    expect((await signUp(ctx.app, newUser({ email }))).statusCode).toBe(201);
  });

  it('a second sign-up with the same email answers 409 "Email already in use"', async () => {
    const user = newUser();
    expect((await signUp(ctx.app, user)).statusCode).toBe(201);
    const again = await signUp(ctx.app, newUser({ email: user.email, firstName: 'Someone', lastName: 'Else' }));
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('Email already in use');
  });

  it('the same email in different capitals answers 409 "Email already in use"', async () => {
    const user = newUser();
    expect((await signUp(ctx.app, user)).statusCode).toBe(201);
    const again = await signUp(ctx.app, newUser({ email: user.email.toUpperCase() }));
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('Email already in use');
  });

  it('a successful sign-up answers 201 and emails a verification link in text and HTML', async () => {
    const user = newUser();
    const res = await signUp(ctx.app, user);
    expect(res.statusCode).toBe(201);
    // No session before the email is verified.
    expect(setCookies(res).filter((c) => c.name.endsWith('session_token'))).toEqual([]);

    const [message, ...others] = await outbox(ctx.app, user.email);
    expect(others).toEqual([]);
    expect(message.to).toBe(user.email);
    expect(message.subject).toMatch(/verify/i);
    const link = /https?:\/\/\S+/.exec(message.text)![0];
    const url = new URL(link);
    expect(url.origin).toBe(ctx.app.config.publicUrl);
    expect(url.pathname).toBe('/api/auth/verify-email');
    expect(url.searchParams.get('token')).toBeTruthy();
    expect(url.searchParams.get('callbackURL')).toBe('/email-verified');
    expect(message.html).toContain(link.replace(/&/g, '&amp;'));
    expect(message.text).toContain('Hi Ada');
  });

  it('logging in before verifying the email answers 403 and says why', async () => {
    const user = newUser();
    await signUp(ctx.app, user);
    const res = await post(ctx.app, '/api/accounts/sign-in', { email: user.email, password: user.password });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('email_not_verified');
    expect(res.json().error.message).toMatch(/verify your email/i);
    expect(setCookies(res).filter((c) => c.name.endsWith('session_token'))).toEqual([]);
  });
});

describe('resending the verification email', () => {
  it('sends a new link, and a second resend within 60 s answers 429 with a retry time', async () => {
    const user = newUser();
    await signUp(ctx.app, user);
    const first = await post(ctx.app, '/api/accounts/resend-verification', { email: user.email });
    expect(first.statusCode, first.body).toBe(200);
    expect(await outbox(ctx.app, user.email)).toHaveLength(2);

    const second = await post(ctx.app, '/api/accounts/resend-verification', { email: ` ${user.email.toUpperCase()} ` });
    expect(second.statusCode).toBe(429);
    const retryAfter = Number(second.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(second.json().error.retryAfterSeconds).toBe(retryAfter);
    expect(await outbox(ctx.app, user.email)).toHaveLength(2);
  });

  it('answers an unknown email exactly like a known one, and sends nothing', async () => {
    const known = newUser();
    await signUp(ctx.app, known);
    const unknown = uniqueEmail('nobody');

    const a = await post(ctx.app, '/api/accounts/resend-verification', { email: known.email });
    const b = await post(ctx.app, '/api/accounts/resend-verification', { email: unknown });
    expect(b.statusCode).toBe(a.statusCode);
    expect(b.body.replaceAll(unknown, 'EMAIL')).toBe(a.body.replaceAll(known.email, 'EMAIL'));
    expect(await outbox(ctx.app, unknown)).toEqual([]);

    // The unknown email is throttled the same way.
    const b2 = await post(ctx.app, '/api/accounts/resend-verification', { email: unknown });
    expect(b2.statusCode).toBe(429);
  });

  it('an empty email answers 400 "Empty Fields"', async () => {
    const res = await post(ctx.app, '/api/accounts/resend-verification', { email: '  ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Empty Fields');
  });
});

describe('email verification', () => {
  it('the emailed link verifies the account and redirects to /email-verified', async () => {
    const user = newUser();
    await signUp(ctx.app, user);
    const link = await latestLink(ctx.app, user.email, /verify/i);
    const res = await followLink(ctx.app, link);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/email-verified');

    const signIn = await post(ctx.app, '/api/accounts/sign-in', { email: user.email, password: user.password });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect(signIn.json().verified).toBe(true);
  });

  it('a tampered link verifies nothing', async () => {
    const user = newUser();
    await signUp(ctx.app, user);
    const link = new URL(await latestLink(ctx.app, user.email, /verify/i));
    const token = link.searchParams.get('token')!;
    link.searchParams.set('token', token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA'));
    const res = await followLink(ctx.app, link.toString());
    expect(res.statusCode).not.toBe(500);
    expect(res.headers.location ?? '').not.toBe('/email-verified');
    expect(setCookies(res).filter((c) => c.name.endsWith('session_token') && c.value)).toEqual([]);

    const signIn = await post(ctx.app, '/api/accounts/sign-in', { email: user.email, password: user.password });
    expect(signIn.statusCode).toBe(403);
  });

  it('a verified user asking for another link gets the same answer and no email', async () => {
    const user = await createVerifiedUser(ctx.app);
    const before = (await outbox(ctx.app, user.email)).length;
    const res = await post(ctx.app, '/api/accounts/resend-verification', { email: user.email });
    expect(res.statusCode).toBe(200);
    expect(await outbox(ctx.app, user.email)).toHaveLength(before);
    expect((await get(ctx.app, '/api/me')).statusCode).toBe(401);
  });
});
