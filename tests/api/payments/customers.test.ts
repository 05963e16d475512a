import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestApp } from '../../support/app.js';
import { queryRows } from '../../support/courses.js';
import { cookieHeader, get, pathOf, post, setCookies, uniqueEmail } from '../../support/http.js';
import { googleEnv, startOidcProvider } from '../../support/oidc.js';
import { buildPaymentsApp, waitFor } from '../../support/payments.js';

/**
 * The social-login rule (READING-GUIDE): after a first Google login the payment customer
 * is created if missing.
 */
let app: TestApp;
let google: Awaited<ReturnType<typeof startOidcProvider>>;
beforeAll(async () => {
  google = await startOidcProvider();
  app = await buildPaymentsApp(googleEnv(google.discoveryUrl));
});
afterAll(async () => {
  await app?.close();
  await google?.stop();
});

it('a first Google login creates the user and, in the background, their payment customer', async () => {
  const email = uniqueEmail('google');
  google.setProfile({ sub: `google-${randomUUID()}`, email, email_verified: true, name: 'Katherine Johnson' });
  const start = await post(app, '/api/auth/sign-in/oauth2', {
    providerId: 'google',
    callbackURL: '/google-login',
    errorCallbackURL: '/google-login?error=1',
  });
  expect(start.statusCode, start.body).toBe(200);
  const authorize = await fetch(start.json().url, { redirect: 'manual' });
  const back = new URL(authorize.headers.get('location')!);
  const callback = await get(app, pathOf(back.toString()), { cookie: cookieHeader(start) });
  expect(setCookies(callback).some((c) => c.name === 'agora.session_token' && c.value)).toBe(true);
  const customer = await waitFor(async () => {
    const [u] = await queryRows<{ stripe_customer_id: string | null }>(
      app,
      sql`select stripe_customer_id from "user" where email = ${email}`,
    );
    return u?.stripe_customer_id;
  }, 'customer after Google login');
  expect(customer).toMatch(/^cus_/);
  const atProvider = await app.stripe().customers.retrieve(customer);
  expect(atProvider).toMatchObject({ email, name: 'Katherine Johnson' });
});
