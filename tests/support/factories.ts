import { expect } from 'vitest';
import type { TestApp } from './app.js';
import { cookieHeader, get, pathOf, post, type CallOptions } from './http.js';
import { linkIn, newUser, type NewUser, type OutboxMessage } from './test-data.js';

export { linkIn, newUser, type NewUser, type OutboxMessage };

export function signUp(app: TestApp, body: Partial<NewUser>, opts?: CallOptions) {
  return post(app, '/api/accounts/sign-up', body, opts);
}

/** The local outbox for one address, newest first. */
export async function outbox(app: TestApp, to: string): Promise<OutboxMessage[]> {
  const res = await get(app, `/api/dev/outbox?to=${encodeURIComponent(to)}`);
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** The link of the newest email to `to` whose subject contains `subject`. */
export async function latestLink(app: TestApp, to: string, subject: RegExp): Promise<string> {
  const message = (await outbox(app, to)).find((m) => subject.test(m.subject));
  if (!message) throw new Error(`no email "${subject}" for ${to}`);
  return linkIn(message);
}

/** Follows an emailed link the way a browser would (one request, no redirects followed). */
export function followLink(app: TestApp, link: string, opts?: CallOptions) {
  return get(app, pathOf(link), opts);
}

/** Signs up through the API and follows the emailed verification link. */
export async function createVerifiedUser(app: TestApp, overrides: Partial<NewUser> = {}): Promise<NewUser> {
  const user = newUser(overrides);
  const res = await signUp(app, user);
  expect(res.statusCode, res.body).toBe(201);
  const link = await latestLink(app, user.email, /verify/i);
  const verified = await followLink(app, link);
  expect(verified.statusCode, verified.body).toBe(302);
  return user;
}

/** Logs in with email and password; returns the Cookie header of the new session. */
export async function signIn(app: TestApp, email: string, password: string, opts?: CallOptions): Promise<string> {
  const res = await post(app, '/api/accounts/sign-in', { email, password }, opts);
  expect(res.statusCode, res.body).toBe(200);
  const cookie = cookieHeader(res);
  expect(cookie).toContain('session_token=');
  return cookie;
}

export interface SignedInUser extends NewUser {
  id: string;
  cookie: string;
}

/** A verified user with a session. */
export async function createSignedInUser(app: TestApp, overrides: Partial<NewUser> = {}): Promise<SignedInUser> {
  const user = await createVerifiedUser(app, overrides);
  const cookie = await signIn(app, user.email, user.password);
  const me = await get(app, '/api/me', { cookie });
  expect(me.statusCode, me.body).toBe(200);
  return { ...user, id: me.json().id, cookie };
}
