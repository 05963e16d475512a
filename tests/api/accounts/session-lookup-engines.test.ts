import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/server/db/client.js';
import { rowsOf } from '../../../src/server/db/transaction.js';
import { toViewer, type ViewerRow } from '../../../src/server/accounts/viewer.js';
import { buildTestApp, openTestDatabase, tempDir, type TestApp } from '../../support/app.js';
import { makeClub, makeEvents } from '../../support/clubs.js';
import { makeEducator, makePublishedCourse } from '../../support/courses.js';
import { createSignedInUser, type SignedInUser } from '../../support/factories.js';
import { get, post, type Response } from '../../support/http.js';

/**
 * The session lookup (accounts/viewer.ts: viewerBySessionToken and its one decoder, toViewer)
 * on both databases the product runs on: the cookie check and every hot statement that embeds
 * the lookup (club search's one word, the event page, the course page, the message send) sign
 * the viewer in AND extend their session (updated_at, expires_at), on PostgreSQL and on PGlite
 * (`npm start`'s default), where drizzle's execute hands timestamps over as text.
 */
const tokenOf = (cookie: string) => {
  const value = decodeURIComponent(/agora\.session_token=([^;]+)/.exec(cookie)![1]);
  return value.slice(0, value.lastIndexOf('.'));
};

const engines = [
  { name: 'PostgreSQL', open: () => openTestDatabase() },
  { name: 'PGlite', open: () => openDatabase({ dataDir: tempDir('pglite-') }) },
].filter((e) => e.name === 'PGlite' || inject('databaseUrl'));

describe.each(engines)('the session lookup on $name', ({ open }) => {
  let database: Database;
  let app: TestApp;
  beforeAll(async () => {
    database = await open();
    app = await buildTestApp({ LOG_LEVEL: 'silent' }, { database });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const sessionOf = async (user: SignedInUser) =>
    (
      await rowsOf<{ updated: string; expires: string }>(
        database.db,
        sql`select updated_at::text as updated, expires_at::text as expires from session where token = ${tokenOf(user.cookie)}`,
      )
    )[0];

  /** Ages the session past the 5-minute touch interval, calls the route, and waits for the touch. */
  async function extendsTheSession(user: SignedInUser, call: () => Promise<Response>, status: number) {
    await database.db.execute(
      sql`update session set updated_at = now() - interval '10 minutes', expires_at = now() + interval '1 day'
          where token = ${tokenOf(user.cookie)}`,
    );
    const before = await sessionOf(user);
    const res = await call();
    expect(res.statusCode, res.body).toBe(status);
    // The touch runs after the answer (fire and forget): wait for it, bounded.
    let after = before;
    for (let i = 0; i < 100 && after.updated === before.updated; i++) {
      await new Promise((r) => setTimeout(r, 50));
      after = await sessionOf(user);
    }
    expect(new Date(after.updated).getTime()).toBeGreaterThan(new Date(before.updated).getTime());
    expect(new Date(after.expires).getTime()).toBeGreaterThan(new Date(before.expires).getTime() + 60 * 60 * 1000);
  }

  it('the cookie check (GET /api/me) signs in and extends the session', async () => {
    const ada = await createSignedInUser(app);
    await extendsTheSession(ada, () => get(app, '/api/me', { cookie: ada.cookie }), 200);
  });

  it('club search by one word reads the session in its statement and extends it', async () => {
    const ada = await createSignedInUser(app);
    const word = `lookup${randomUUID().slice(0, 8)}`;
    await makeClub(app, ada, { name: `The ${word} circle` });
    await extendsTheSession(ada, () => get(app, `/api/clubs/search?q=${word}`, { cookie: ada.cookie }), 200);
  });

  it('the event page reads the session in its statement and extends it', async () => {
    const ada = await createSignedInUser(app);
    const clubId = await makeClub(app, ada);
    const [eventId] = await makeEvents(app, ada, clubId);
    await extendsTheSession(ada, () => get(app, `/api/clubs/${clubId}/events/${eventId}`, { cookie: ada.cookie }), 200);
  });

  it('the course page reads the session in its statement and extends it', async () => {
    const educator = await makeEducator(app);
    const { courseId } = await makePublishedCourse(app, educator);
    const ada = await createSignedInUser(app);
    await extendsTheSession(ada, () => get(app, `/api/courses/${courseId}`, { cookie: ada.cookie }), 200);
  });

  it('sending a message reads the session in its statement and extends it', async () => {
    const [ada, bob] = [await createSignedInUser(app), await createSignedInUser(app)];
    await extendsTheSession(
      ada,
      () => post(app, `/api/mailbox/conversations/${bob.id}/messages`, { body: 'Hello', clientId: randomUUID() }, { cookie: ada.cookie }),
      201,
    );
  });
});

describe('toViewer, the one decoder of a session lookup row', () => {
  const row: ViewerRow = {
    signInSessionId: randomUUID(),
    signInSessionUpdatedAt: '2026-11-27 06:53:43.477123+00',
    id: randomUUID(),
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
    city: null,
    timeZone: null,
    stripeCustomerId: null,
    image: null,
    verified: true,
    createdAt: '2026-01-02 03:04:05+00',
    lastSignInAt: null,
    banned: false,
    educatorUserId: null,
    bio: null,
    educatorImage: null,
    stripeConnectAccountId: null,
  };

  it("reads PostgreSQL's text timestamps as Dates, and Dates as they are", () => {
    const viewer = toViewer(row)!;
    expect(viewer.signInSessionUpdatedAt.toISOString()).toBe('2026-11-27T06:53:43.477Z');
    expect(viewer.user.createdAt.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(viewer.user.lastSignInAt).toBeNull();
    const at = new Date('2026-05-06T07:08:09.000Z');
    expect(toViewer({ ...row, signInSessionUpdatedAt: at, lastSignInAt: at })!.user.lastSignInAt).toEqual(at);
  });

  it('refuses a banned user, and names an educator only when there is one', () => {
    expect(toViewer({ ...row, banned: true })).toBeNull();
    expect(toViewer(row)!.educator).toBeNull();
    expect(toViewer({ ...row, educatorUserId: row.id, bio: 'Hi' })!.educator).toEqual({
      bio: 'Hi',
      profileImage: null,
      stripeConnectAccountId: null,
    });
  });
});
