import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/client.js';
import { rowsOf } from '../../src/server/db/transaction.js';
import { buildTestApp, tempDir, type TestApp } from '../support/app.js';
import { createSignedInUser } from '../support/factories.js';
import { post } from '../support/http.js';

/**
 * A send is one round trip (docs/decisions/0032-presence-gated-publish.md): the session is
 * read in the send's own statement, and a session that signs nobody in (banned, expired)
 * writes nothing.
 */
let queries: string[] = [];
let recording = false;
let database: Database;
let app: TestApp;
beforeAll(async () => {
  const url = inject('databaseUrl');
  const onQuery = (q: string) => {
    if (recording) queries.push(q);
  };
  database = await openDatabase(url ? { url, dataDir: tempDir(), poolSize: 4, onQuery } : { dataDir: tempDir('pglite-'), onQuery });
  app = await buildTestApp({ LOG_LEVEL: 'error' }, { database });
});
afterAll(async () => {
  await app.close();
  await database.close();
});

const messagesOf = async (userId: string) =>
  (await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from message where sender_id = ${userId}`))[0].n;

describe('sending a message', () => {
  it('reads the session and does every check and write in one statement', async () => {
    const [a, b] = [await createSignedInUser(app), await createSignedInUser(app)];
    // The first message creates the conversation; the second is the common case. Both: one statement.
    for (const body of ['Hello', 'Again']) {
      queries = [];
      recording = true;
      const res = await post(app, `/api/mailbox/conversations/${b.id}/messages`, { body, clientId: randomUUID() }, { cookie: a.cookie });
      // Fire-and-forget work (a session touch) would land here too; let it settle.
      await new Promise((r) => setTimeout(r, 50));
      recording = false;
      expect(res.statusCode, res.body).toBe(201);
      expect(queries, queries.join('\n---\n')).toHaveLength(1);
      expect(queries[0]).toMatch(/from session s join "user" u/);
      expect(queries[0]).toMatch(/insert into message/);
    }
    expect(await messagesOf(a.id)).toBe(2);
  });

  it('a banned sender is signed out (401) and nothing is written; an expired session too', async () => {
    const [a, b, c] = [await createSignedInUser(app), await createSignedInUser(app), await createSignedInUser(app)];
    await database.db.execute(sql`update "user" set banned = true where id = ${a.id}`);
    const banned = await post(
      app,
      `/api/mailbox/conversations/${b.id}/messages`,
      { body: 'Hi', clientId: randomUUID() },
      { cookie: a.cookie },
    );
    expect(banned.statusCode, banned.body).toBe(401);
    expect(await messagesOf(a.id)).toBe(0);
    const conversations = await rowsOf<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from conversation_member where user_id = ${a.id}`,
    );
    expect(conversations[0].n).toBe(0);

    await database.db.execute(sql`update session set expires_at = now() - interval '1 minute' where user_id = ${c.id}`);
    const expired = await post(
      app,
      `/api/mailbox/conversations/${b.id}/messages`,
      { body: 'Hi', clientId: randomUUID() },
      { cookie: c.cookie },
    );
    expect(expired.statusCode, expired.body).toBe(401);
    expect(await messagesOf(c.id)).toBe(0);
  });
});
