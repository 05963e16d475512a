import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../../src/server/db/transaction.js';
import { useRecordingApp, type RecordingApp } from '../../support/recording-app.js';
import { makeClub, makeEvents } from '../../support/clubs.js';
import { createSignedInUser } from '../../support/factories.js';
import { get, post } from '../../support/http.js';

/**
 * The hot routes read the session in their own statement (app.requireViewerWith: one round
 * trip): sending a message (docs/decisions/0032-presence-gated-publish.md), the event page
 * (as the course page, ADR 0031). A session that signs nobody in (banned, expired) is 401 and
 * writes nothing.
 */
const ctx = useRecordingApp({ LOG_LEVEL: 'error' });
const statementsOf: RecordingApp['statementsOf'] = (run, status) => ctx.statementsOf(run, status);

const messagesOf = async (userId: string) =>
  (await rowsOf<{ n: number }>(ctx.database.db, sql`select count(*)::int as n from message where sender_id = ${userId}`))[0].n;

describe('sending a message', () => {
  it('reads the session and does every check and write in one statement', async () => {
    const [a, b] = [await createSignedInUser(ctx.app), await createSignedInUser(ctx.app)];
    // The first message creates the conversation; the second is the common case. Both: one statement.
    for (const body of ['Hello', 'Again']) {
      const queries = await statementsOf(
        () => post(ctx.app, `/api/mailbox/conversations/${b.id}/messages`, { body, clientId: randomUUID() }, { cookie: a.cookie }),
        201,
      );
      expect(queries, queries.join('\n---\n')).toHaveLength(1);
      expect(queries[0]).toMatch(/from session s join "user" u/);
      expect(queries[0]).toMatch(/insert into message/);
    }
    expect(await messagesOf(a.id)).toBe(2);
  });

  it('a banned sender is signed out (401) and nothing is written; an expired session too', async () => {
    const [a, b, c] = [await createSignedInUser(ctx.app), await createSignedInUser(ctx.app), await createSignedInUser(ctx.app)];
    await ctx.database.db.execute(sql`update "user" set banned = true where id = ${a.id}`);
    const banned = await post(
      ctx.app,
      `/api/mailbox/conversations/${b.id}/messages`,
      { body: 'Hi', clientId: randomUUID() },
      { cookie: a.cookie },
    );
    expect(banned.statusCode, banned.body).toBe(401);
    expect(await messagesOf(a.id)).toBe(0);
    const conversations = await rowsOf<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from conversation_member where user_id = ${a.id}`,
    );
    expect(conversations[0].n).toBe(0);

    await ctx.database.db.execute(sql`update session set expires_at = now() - interval '1 minute' where user_id = ${c.id}`);
    const expired = await post(
      ctx.app,
      `/api/mailbox/conversations/${b.id}/messages`,
      { body: 'Hi', clientId: randomUUID() },
      { cookie: c.cookie },
    );
    expect(expired.statusCode, expired.body).toBe(401);
    expect(await messagesOf(c.id)).toBe(0);
  });
});

describe('the event page', () => {
  it('is one statement with the session; an unknown club or event is 404, a banned viewer 401', async () => {
    const [owner, viewer] = [await createSignedInUser(ctx.app), await createSignedInUser(ctx.app)];
    const clubId = await makeClub(ctx.app, owner);
    const [eventId] = await makeEvents(ctx.app, owner, clubId);
    const queries = await statementsOf(() => get(ctx.app, `/api/clubs/${clubId}/events/${eventId}`, { cookie: viewer.cookie }), 200);
    // The club's new-event jobs may run meanwhile: of the request's own statements, the session and the page are one.
    const request = queries.filter((q) => /from session s join "user" u|club_rsvp my/.test(q));
    expect(request, request.join('\n---\n')).toHaveLength(1);
    expect(request[0]).toMatch(/from session s join "user" u/);
    expect(request[0]).toMatch(/club_rsvp my/);

    const unknownClub = await get(ctx.app, `/api/clubs/${randomUUID()}/events/${eventId}`, { cookie: viewer.cookie });
    expect(unknownClub.statusCode).toBe(404);
    expect(unknownClub.json().error.message).toBe('This club does not exist');
    const unknownEvent = await get(ctx.app, `/api/clubs/${clubId}/events/${randomUUID()}`, { cookie: viewer.cookie });
    expect(unknownEvent.statusCode).toBe(404);
    expect(unknownEvent.json().error.message).toBe('This event does not exist');

    await ctx.database.db.execute(sql`update "user" set banned = true where id = ${viewer.id}`);
    expect((await get(ctx.app, `/api/clubs/${clubId}/events/${eventId}`, { cookie: viewer.cookie })).statusCode).toBe(401);
    expect((await get(ctx.app, `/api/clubs/${clubId}/events/${eventId}`)).statusCode).toBe(401);
  });
});

describe('club search', () => {
  it('a one-word search reads the session in its own statement; other searches look it up first; banned, expired or none is 401', async () => {
    const [owner, viewer, expired] = [
      await createSignedInUser(ctx.app),
      await createSignedInUser(ctx.app),
      await createSignedInUser(ctx.app),
    ];
    const word = `q${randomUUID().replace(/[^a-f]/g, '')}`;
    const clubId = await makeClub(ctx.app, owner, { name: `${word} Chess Circle` });
    // The viewer lookup: the resolver's own statement (requireViewer) or viewerBySessionToken.
    const lookups = (queries: string[]) => queries.filter((q) => /from "session" inner join "user"|from session s join "user" u/.test(q));

    // One word: the search statement (on the search connections) reads the viewer; no lookup of its own.
    const oneWord = await statementsOf(() => get(ctx.app, `/api/clubs/search?q=${word}`, { cookie: viewer.cookie }), 200);
    expect(lookups(oneWord), oneWord.join('\n---\n')).toHaveLength(0);
    const found = (await get(ctx.app, `/api/clubs/search?q=${word}`, { cookie: viewer.cookie })).json();
    expect(found).toMatchObject({ total: 1, items: [{ id: clubId }] });
    // Two words: the session is looked up first, as every other route does.
    const twoWords = await statementsOf(() => get(ctx.app, `/api/clubs/search?q=${word}%20chess`, { cookie: viewer.cookie }), 200);
    expect(lookups(twoWords)).toHaveLength(1);

    for (const q of [word, `${word}%20chess`]) {
      expect((await get(ctx.app, `/api/clubs/search?q=${q}`)).statusCode, q).toBe(401);
      expect((await get(ctx.app, `/api/clubs/search?q=${q}`, { cookie: 'agora.session_token=forged.value' })).statusCode).toBe(401);
    }
    await ctx.database.db.execute(sql`update session set expires_at = now() - interval '1 minute' where user_id = ${expired.id}`);
    const stale = await get(ctx.app, `/api/clubs/search?q=${word}`, { cookie: expired.cookie });
    expect(stale.statusCode).toBe(401);
    expect(stale.body).not.toContain(clubId);
    await ctx.database.db.execute(sql`update "user" set banned = true where id = ${viewer.id}`);
    const banned = await get(ctx.app, `/api/clubs/search?q=${word}`, { cookie: viewer.cookie });
    expect(banned.statusCode).toBe(401);
    expect(banned.body).not.toContain(clubId);
  });
});
