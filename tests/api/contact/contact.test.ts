import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessage } from '../../../src/server/db/schema/contact.js';
import { contactFormToken } from '../../../src/server/contact/form-token.js';
import { CONTACT_LIMIT_PER_EMAIL, CONTACT_LIMIT_PER_IP, CONTACT_MESSAGES } from '../../../src/shared/contact.js';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { createSignedInUser, outbox, type SignedInUser } from '../../support/factories.js';
import { get, post, randomIp, uniqueEmail } from '../../support/http.js';

const TEAM = `team-${randomUUID().slice(0, 8)}@example.com`;
const adminEmail = `admin-${randomUUID().slice(0, 8)}@example.com`;
let app: TestApp;
let admin: SignedInUser;

beforeAll(async () => {
  app = await buildTestApp({ CONTACT_TO: TEAM, ADMIN_EMAILS: adminEmail });
  admin = await createSignedInUser(app, { email: adminEmail });
});
afterAll(async () => {
  await app.close();
});

/** A form loaded `ageMs` ago, as the page's GET /api/contact/form would have given it. */
const tokenAged = (ageMs = 10_000) => contactFormToken(app.config.authSecret, Date.now() - ageMs);
const form = (over: Record<string, unknown> = {}) => ({
  name: 'Maya Patel',
  email: uniqueEmail(),
  topic: 'question',
  message: 'How do installments work for in-person courses?',
  formToken: tokenAged(),
  website: '',
  ...over,
});
const stored = (email: string) => app.database.db.select().from(contactMessage).where(eq(contactMessage.email, email));

describe('contact form', () => {
  it('gives a signed form token without a session', async () => {
    const res = await get(app, '/api/contact/form');
    expect(res.statusCode).toBe(200);
    expect(res.json().formToken).toMatch(/^\d+\.[\w-]+$/);
  });

  it('stores a visitor message, emails the team and confirms to the sender', async () => {
    const body = form();
    const res = await post(app, '/api/contact', body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const [row] = await stored(body.email);
    expect(row).toMatchObject({ name: 'Maya Patel', topic: 'question', message: body.message, userId: null });
    const team = (await outbox(app, TEAM)).find((m) => m.subject.includes('Maya Patel'));
    expect(team?.text).toContain(body.message);
    expect(team?.text).toContain(body.email);
    const confirmation = (await outbox(app, body.email)).find((m) => m.subject === 'We received your message');
    expect(confirmation?.text).toContain(body.message);
  });

  it('records the signed-in sender', async () => {
    const user = await createSignedInUser(app);
    const body = form({ email: user.email });
    const res = await post(app, '/api/contact', body, { cookie: user.cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect((await stored(user.email))[0].userId).toBe(user.id);
  });

  it('answers every invalid field with its own message, and stores nothing', async () => {
    const email = 'not-an-email';
    const res = await post(app, '/api/contact', form({ name: '  ', email, topic: 'spam', message: 'short' }));
    expect(res.statusCode).toBe(400);
    const { fields } = res.json().error;
    expect(fields).toMatchObject({
      name: 'Enter your name',
      email: 'Enter a valid email address',
      topic: 'Choose a topic',
      message: 'Your message needs at least 10 characters',
    });
    expect(await stored(email)).toHaveLength(0);
  });

  it('drops a message whose honeypot is filled, answering as if sent', async () => {
    const body = form({ website: 'http://spam.example' });
    const res = await post(app, '/api/contact', body);
    expect(res.statusCode).toBe(200);
    expect(await stored(body.email)).toHaveLength(0);
    expect(await outbox(app, body.email)).toHaveLength(0);
  });

  it('refuses a form sent faster than a person can write, and a forged or expired token', async () => {
    const fast = form({ formToken: tokenAged(500) });
    const res = await post(app, '/api/contact', fast);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'too_fast', message: CONTACT_MESSAGES.tooFast });
    expect(res.json().error.fields.formToken).toBe(CONTACT_MESSAGES.tooFast);
    const forged = await post(app, '/api/contact', form({ formToken: `${Date.now() - 60_000}.forged` }));
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.code).toBe('form_expired');
    const old = await post(app, '/api/contact', form({ formToken: tokenAged(25 * 3_600_000) }));
    expect(old.json().error.code).toBe('form_expired');
    expect(await stored(fast.email)).toHaveLength(0);
  });

  it(`limits one address to ${CONTACT_LIMIT_PER_IP} messages an hour`, async () => {
    const ip = randomIp();
    for (let i = 0; i < CONTACT_LIMIT_PER_IP; i++) expect((await post(app, '/api/contact', form(), { ip })).statusCode).toBe(200);
    const over = await post(app, '/api/contact', form(), { ip });
    expect(over.statusCode).toBe(429);
    expect(over.json().error.message).toContain(CONTACT_MESSAGES.rateLimited);
    // Another address is not affected.
    expect((await post(app, '/api/contact', form())).statusCode).toBe(200);
  });

  it(`limits one sender email to ${CONTACT_LIMIT_PER_EMAIL} messages an hour, from any address`, async () => {
    const email = uniqueEmail();
    for (let i = 0; i < CONTACT_LIMIT_PER_EMAIL; i++) expect((await post(app, '/api/contact', form({ email }))).statusCode).toBe(200);
    const over = await post(app, '/api/contact', form({ email: email.toUpperCase() }));
    expect(over.statusCode).toBe(429);
    expect(await stored(email)).toHaveLength(CONTACT_LIMIT_PER_EMAIL);
  });

  it('lists the messages to admins only, newest first', async () => {
    const body = form({ name: 'Listed Sender' });
    await post(app, '/api/contact', body);
    const res = await get(app, '/api/admin/contact-messages', { cookie: admin.cookie });
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.messages[0]).toMatchObject({ name: 'Listed Sender', email: body.email, topic: 'question' });
    expect(list.total).toBeGreaterThan(5);
    const learner = await createSignedInUser(app);
    expect((await get(app, '/api/admin/contact-messages', { cookie: learner.cookie })).statusCode).toBe(403);
    expect((await get(app, '/api/admin/contact-messages')).statusCode).toBe(401);
  });

  it("erases a user's messages when an admin deletes the account", async () => {
    const user = await createSignedInUser(app);
    await post(app, '/api/contact', form({ email: user.email }), { cookie: user.cookie });
    await post(app, '/api/contact', form({ email: user.email.toUpperCase() }));
    expect(await stored(user.email)).toHaveLength(1);
    const res = await post(app, `/api/admin/users/${user.id}/delete`, { confirmEmail: user.email }, { cookie: admin.cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stored(user.email)).toHaveLength(0);
    expect(await stored(user.email.toUpperCase())).toHaveLength(0);
  });
});
