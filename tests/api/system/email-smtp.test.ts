import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { followLink, newUser, signIn, signUp } from '../../support/factories.js';
import { get, setCookies } from '../../support/http.js';
import { parseMime, startSmtpServer } from '../../support/smtp.js';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.stop();
});

/** The message last received for `to` (emails are background jobs: waits for it), parsed. */
async function received(to: string) {
  const mail = await vi.waitFor(
    () => {
      const last = smtp.received.filter((m) => m.to.includes(to)).at(-1);
      expect(last, `no mail for ${to}`).toBeDefined();
      return last!;
    },
    { timeout: 10_000 },
  );
  return parseMime(mail.raw);
}

describe('email over real SMTP', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Agora <hello@agora.test>' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('sign-up sends a multipart message with text and HTML parts carrying the verification link', async () => {
    expect(app.mailer.transport).toBe('smtp');
    const user = newUser();
    const res = await signUp(app, user);
    expect(res.statusCode, res.body).toBe(201);

    const { headers, parts } = await received(user.email);
    expect(smtp.received.find((m) => m.to.includes(user.email))!.from).toBe('hello@agora.test');
    expect(headers['content-type']).toMatch(/^multipart\/alternative/);
    expect(headers.subject).toMatch(/verify/i);
    const text = parts.find((p) => p.headers['content-type']?.startsWith('text/plain'));
    const html = parts.find((p) => p.headers['content-type']?.startsWith('text/html'));
    expect(text).toBeDefined();
    expect(html).toBeDefined();
    const link = /https?:\/\/\S+/.exec(text!.body)![0];
    expect(new URL(link).pathname).toBe('/api/auth/verify-email');
    expect(html!.body).toContain(link.replace(/&/g, '&amp;'));
    expect(html!.body).toMatch(/<a href="/);

    // Nothing went to the local outbox.
    expect((await get(app, `/api/dev/outbox?to=${encodeURIComponent(user.email)}`)).json()).toEqual([]);

    // The link delivered by SMTP verifies the account.
    const verified = await followLink(app, link);
    expect(verified.statusCode).toBe(302);
    expect(verified.headers.location).toBe('/email-verified');
    await signIn(app, user.email, user.password);
  });
});

describe('production mode', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({
      NODE_ENV: 'production',
      SMTP_URL: smtp.url,
      AUTH_SECRET: 'production-like-secret-for-the-tests-0123456789',
      PUBLIC_URL: 'https://agora.example',
      // Production refuses the payments sandbox: test-mode Stripe keys (never called here).
      STRIPE_SECRET_KEY: 'sk_test_agora_email_tests',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_agora_email_tests',
      STRIPE_WEBHOOK_SECRET: 'whsec_agora_email_tests',
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it('turns every dev-only route off', async () => {
    expect((await get(app, '/api/dev/outbox')).statusCode).toBe(404);
    expect((await get(app, '/api/docs')).statusCode).toBe(404);
    expect((await get(app, '/dev/outbox')).statusCode).toBe(404);
  });

  it('sets a Secure session cookie after a sign-up verified through the emailed link', async () => {
    const user = newUser();
    expect((await signUp(app, user)).statusCode).toBe(201);
    const { parts } = await received(user.email);
    const link = /https?:\/\/\S+/.exec(parts.find((p) => p.headers['content-type']?.startsWith('text/plain'))!.body)![0];
    expect(new URL(link).origin).toBe('https://agora.example');
    expect((await followLink(app, link)).statusCode).toBe(302);

    const cookie = await signIn(app, user.email, user.password);
    expect(cookie).toMatch(/^__Secure-agora\.session_token=/);
    const res = await get(app, '/api/me', { cookie });
    expect(res.statusCode).toBe(200);

    const signInRes = await app.inject({
      method: 'POST',
      url: '/api/accounts/sign-in',
      payload: { email: user.email, password: user.password },
      headers: { origin: 'https://agora.example' },
    });
    const session = setCookies(signInRes).find((c) => c.name === '__Secure-agora.session_token');
    expect(session?.attributes).toHaveProperty('secure');
    expect(session?.attributes).toHaveProperty('httponly');
    expect(signInRes.headers['strict-transport-security']).toBeDefined();
  });
});
