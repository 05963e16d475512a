import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { RealtimeEvent } from '../../../src/server/realtime/hub.js';
import { useTestApp, type TestApp } from '../../support/app.js';
import { createSignedInUser, type SignedInUser } from '../../support/factories.js';
import { call, del, get, post } from '../../support/http.js';
import { UNKNOWN_ID } from '../../support/test-data.js';
import { MALFORMED_TEXT_MESSAGE } from '../../../src/shared/input-schemas.js';

const ctx = useTestApp({ MAILBOX_SEND_LIMIT: '1000', LOG_LEVEL: 'error' });

const send = (app: TestApp, from: SignedInUser, to: string, body: string, clientId: string = randomUUID()) =>
  post(app, `/api/mailbox/conversations/${to}/messages`, { body, clientId }, { cookie: from.cookie });
const thread = (app: TestApp, viewer: SignedInUser, other: string, query = '') =>
  get(app, `/api/mailbox/conversations/${other}${query}`, { cookie: viewer.cookie });
const pair = async () => [await createSignedInUser(ctx.app), await createSignedInUser(ctx.app)] as const;

/** A local listener of `userId`'s events, once the user is present (sends publish only to those with a listener). */
async function listen(app: TestApp, userId: string) {
  const events: RealtimeEvent[] = [];
  const stop = app.realtime.subscribe(userId, (e) => events.push(e));
  await stop.ready;
  return { events, stop };
}

describe('sending and reading a thread', () => {
  it('a first message creates the conversation; both sides read it, oldest first', async () => {
    const [a, b] = await pair();
    const empty = await thread(ctx.app, a, b.id);
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toMatchObject({ with: { id: b.id, name: 'Ada Lovelace' }, canMessage: true, messages: [], hasOlder: false });

    const first = await send(ctx.app, a, b.id, '  Hello Bea!  ');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().message).toMatchObject({ senderId: a.id, body: 'Hello Bea!' });
    expect((await send(ctx.app, b, a.id, 'Hi Ada')).statusCode).toBe(201);

    for (const [viewer, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const t = (await thread(ctx.app, viewer, other.id)).json();
      expect(t.messages.map((m: { body: string }) => m.body)).toEqual(['Hello Bea!', 'Hi Ada']);
      expect(t.with.id).toBe(other.id);
    }
  });

  it('a retried send with the same clientId stores one message and answers it again (also at once)', async () => {
    const [a, b] = await pair();
    const clientId = randomUUID();
    const one = await send(ctx.app, a, b.id, 'Only once', clientId);
    const again = await send(ctx.app, a, b.id, 'Only once', clientId);
    expect(one.statusCode).toBe(201);
    expect(again.statusCode).toBe(200);
    expect(again.json().message.id).toBe(one.json().message.id);
    const together = await Promise.all([0, 1, 2].map(() => send(ctx.app, a, b.id, 'Twice at once', clientId)));
    expect(together.every((r) => r.statusCode === 200)).toBe(true);
    const clientId2 = randomUUID();
    const race = await Promise.all([0, 1, 2].map(() => send(ctx.app, a, b.id, 'Raced', clientId2)));
    expect(race.map((r) => r.statusCode).sort()).toEqual([200, 200, 201]);
    expect(new Set(race.map((r) => r.json().message.id)).size).toBe(1);
    const bodies = (await thread(ctx.app, b, a.id)).json().messages.map((m: { body: string }) => m.body);
    expect(bodies).toEqual(['Only once', 'Raced']);
    // The clientId of a message to B cannot be reused for C.
    const c = await createSignedInUser(ctx.app);
    const taken = await send(ctx.app, a, c.id, 'Other', clientId);
    expect(taken.statusCode).toBe(409);
  });

  it('pages with before/after cursors: 50 by default, at most 100, in order, no gaps or repeats', async () => {
    const [a, b] = await pair();
    for (let i = 1; i <= 120; i++) expect((await send(ctx.app, i % 2 ? a : b, i % 2 ? b.id : a.id, `m${i}`)).statusCode).toBe(201);
    const newest = (await thread(ctx.app, a, b.id)).json();
    expect(newest.messages).toHaveLength(50);
    expect(newest.messages[0].body).toBe('m71');
    expect(newest.messages[49].body).toBe('m120');
    expect(newest.hasOlder).toBe(true);

    const seen: string[] = [...newest.messages.map((m: { body: string }) => m.body)];
    let before = newest.messages[0].id;
    for (;;) {
      const page = (await thread(ctx.app, a, b.id, `?before=${before}&limit=30`)).json();
      seen.unshift(...page.messages.map((m: { body: string }) => m.body));
      if (!page.hasOlder) break;
      before = page.messages[0].id;
    }
    expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => `m${i + 1}`));

    const big = (await thread(ctx.app, a, b.id, '?before=999999999999&limit=100')).json();
    expect(big.messages).toHaveLength(100);
    expect(big.messages[0].body).toBe('m21');
    const after = (await thread(ctx.app, a, b.id, `?after=${big.messages[79].id}&limit=100`)).json();
    expect(after.messages.map((m: { body: string }) => m.body)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 101}`));
    expect(after.hasNewer).toBe(false);
    expect((await thread(ctx.app, a, b.id, '?limit=101')).statusCode).toBe(400);
  });

  it('lists conversations newest activity first with preview, unread counts and search', async () => {
    const me = await createSignedInUser(ctx.app, { firstName: 'Mina' });
    const grace = await createSignedInUser(ctx.app, { firstName: 'Grace', lastName: 'Hopper' });
    const alan = await createSignedInUser(ctx.app, { firstName: 'Alan', lastName: 'Turing' });
    expect((await get(ctx.app, '/api/mailbox/conversations', { cookie: me.cookie })).json().items).toEqual([]);
    await send(ctx.app, grace, me.id, 'About the pottery class');
    await send(ctx.app, grace, me.id, 'Is Tuesday fine?');
    await send(ctx.app, alan, me.id, 'Enigma homework');
    const list = (await get(ctx.app, '/api/mailbox/conversations', { cookie: me.cookie })).json().items;
    expect(list.map((c: { with: { name: string } }) => c.with.name)).toEqual(['Alan Turing', 'Grace Hopper']);
    expect(list[1]).toMatchObject({ unread: 2, lastMessage: { preview: 'Is Tuesday fine?', fromMe: false } });

    const byName = (await get(ctx.app, '/api/mailbox/conversations?q=hopp', { cookie: me.cookie })).json().items;
    expect(byName.map((c: { with: { id: string } }) => c.with.id)).toEqual([grace.id]);
    const byText = (await get(ctx.app, '/api/mailbox/conversations?q=POTTERY', { cookie: me.cookie })).json().items;
    expect(byText.map((c: { with: { id: string } }) => c.with.id)).toEqual([grace.id]);
    expect((await get(ctx.app, '/api/mailbox/conversations?q=%25', { cookie: me.cookie })).json().items).toEqual([]);

    await send(ctx.app, me, grace.id, 'Yes!');
    const after = (await get(ctx.app, '/api/mailbox/conversations', { cookie: me.cookie })).json().items;
    expect(after[0]).toMatchObject({ with: { id: grace.id }, lastMessage: { preview: 'Yes!', fromMe: true } });
  });

  it('pages the conversations newest activity first with a stable cursor; search covers every page', async () => {
    const me = await createSignedInUser(ctx.app, { firstName: 'Paged' });
    const others: SignedInUser[] = [];
    for (let i = 0; i < 5; i++) {
      const other = await createSignedInUser(ctx.app, { firstName: `Writer${i}`, lastName: 'Paging' });
      expect((await send(ctx.app, other, me.id, `hello number ${i}`)).statusCode).toBe(201);
      others.push(other);
    }
    const list = (query: string) => get(ctx.app, `/api/mailbox/conversations${query}`, { cookie: me.cookie });
    const ids = (page: { items: { with: { id: string } }[] }) => page.items.map((c) => c.with.id);
    const first = (await list('?limit=2')).json();
    expect(ids(first)).toEqual([others[4].id, others[3].id]);
    expect(first.nextCursor).toBeTruthy();
    // New activity moves a conversation to the top; the next page goes on where the first ended (no repeat, no gap).
    expect((await send(ctx.app, others[0], me.id, 'still there?')).statusCode).toBe(201);
    const second = (await list(`?limit=2&cursor=${first.nextCursor}`)).json();
    expect(ids(second)).toEqual([others[2].id, others[1].id]);
    expect(second.nextCursor).toBeNull();
    expect(ids((await list('?limit=2')).json())).toEqual([others[0].id, others[4].id]);
    // The default page holds all five; the last page says there is nothing more.
    const all = (await list('')).json();
    expect(ids(all)).toEqual([others[0].id, others[4].id, others[3].id, others[2].id, others[1].id]);
    expect(all.nextCursor).toBeNull();
    // Search runs over every conversation, not only the first page's, and pages the same way.
    const found = (await list('?q=number%201&limit=1')).json();
    expect(ids(found)).toEqual([others[1].id]);
    expect((await list('?q=paging&limit=3')).json().nextCursor).toBeTruthy();
    for (const bad of ['?cursor=abc', '?cursor=0', '?limit=0', '?limit=101', '?limit=x']) {
      const res = await list(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error.fields, bad).toBeTruthy();
    }
  });

  it('marking read moves the read position forward, drops the unread count and tells the sender', async () => {
    const [a, b] = await pair();
    const m1 = (await send(ctx.app, a, b.id, 'one')).json().message;
    const m2 = (await send(ctx.app, a, b.id, 'two')).json().message;
    // The Mailbox counter counts conversations with an unread message: two messages, one conversation.
    expect(await ctx.app.realtime.unreadCounts(b.id)).toMatchObject({ messages: 1 });
    const aEvents = await listen(ctx.app, a.id);
    const bEvents = await listen(ctx.app, b.id);
    const partial = await post(ctx.app, `/api/mailbox/conversations/${a.id}/read`, { upTo: m1.id }, { cookie: b.cookie });
    expect(partial.json()).toEqual({ readUpTo: m1.id, unread: 1 });
    const all = await post(ctx.app, `/api/mailbox/conversations/${a.id}/read`, undefined, { cookie: b.cookie });
    expect(all.json()).toEqual({ readUpTo: m2.id, unread: 0 });
    // Never backwards.
    expect((await post(ctx.app, `/api/mailbox/conversations/${a.id}/read`, { upTo: m1.id }, { cookie: b.cookie })).json().readUpTo).toBe(
      m2.id,
    );
    // (The sends' own pushes leave after their answers and may still arrive: only read receipts count here.)
    const reads = () => aEvents.events.filter((e) => e.type === 'message.read');
    await expect.poll(() => reads().length).toBe(2);
    expect(reads()).toEqual([
      { type: 'message.read', by: b.id, upTo: m1.id },
      { type: 'message.read', by: b.id, upTo: m2.id },
    ]);
    await expect.poll(() => bEvents.events.filter((e) => e.type === 'unread.changed').length).toBeGreaterThanOrEqual(2);
    expect((await thread(ctx.app, a, b.id)).json().theirReadUpTo).toBe(m2.id);
    aEvents.stop();
    bEvents.stop();
  });

  it('publishes message.new to both sides and unread.changed to the recipient', async () => {
    const [a, b] = await pair();
    const aEvents = await listen(ctx.app, a.id);
    const bEvents = await listen(ctx.app, b.id);
    const m = (await send(ctx.app, a, b.id, 'Ping')).json().message;
    // The recipient's new-message notification is pushed too (notification.new, its counter): not the mailbox's events.
    const mailboxOnly = (events: unknown[]) =>
      events.filter((e) => {
        const { type, counter } = e as { type: string; counter?: string };
        return type !== 'notification.new' && counter !== 'notifications';
      });
    await expect.poll(() => mailboxOnly(bEvents.events).length + mailboxOnly(aEvents.events).length).toBe(3);
    expect(mailboxOnly(bEvents.events)).toHaveLength(2);
    expect(mailboxOnly(bEvents.events)).toEqual(
      expect.arrayContaining([
        { type: 'message.new', messageId: m.id, conversationWith: a.id, cursor: m.id },
        { type: 'unread.changed', counter: 'messages' },
      ]),
    );
    expect(aEvents.events).toEqual([{ type: 'message.new', messageId: m.id, conversationWith: b.id, cursor: m.id }]);
    aEvents.stop();
    bEvents.stop();
  });
});

describe('rules', () => {
  it('bad input answers 400 with a message per field, never 500', async () => {
    const [a, b] = await pair();
    const cases: [unknown, string][] = [
      [{ body: '', clientId: randomUUID() }, 'body'],
      [{ body: '   \n ', clientId: randomUUID() }, 'body'],
      [{ body: 'x'.repeat(5001), clientId: randomUUID() }, 'body'],
      [{ body: 'nul \u0000 inside', clientId: randomUUID() }, 'body'],
      [{ body: 'fine', clientId: 'not-a-uuid' }, 'clientId'],
      [{ body: 42, clientId: randomUUID() }, 'body'],
      [{ clientId: randomUUID() }, 'body'],
    ];
    for (const [payload, field] of cases) {
      const res = await post(ctx.app, `/api/mailbox/conversations/${b.id}/messages`, payload, { cookie: a.cookie });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(res.json().error.fields?.[field], res.body).toBeTruthy();
    }
    expect((await send(ctx.app, a, b.id, 'x'.repeat(5000))).statusCode).toBe(201);
    for (const path of [
      '/api/mailbox/conversations/not-a-uuid',
      `/api/mailbox/conversations/${b.id}?before=abc`,
      `/api/mailbox/conversations/${b.id}?after=-1`,
      `/api/mailbox/conversations/${b.id}?limit=0`,
      `/api/mailbox/conversations/${b.id}?before=99999999999999999999999`,
    ]) {
      const res = await get(ctx.app, path, { cookie: a.cookie });
      expect(res.statusCode, path).toBe(400);
      expect(res.json().error.fields, path).toBeTruthy();
    }
    const report = await post(ctx.app, '/api/mailbox/messages/abc/report', { reason: 'spam spam' }, { cookie: a.cookie });
    expect(report.statusCode).toBe(400);
    expect(report.json().error.fields.messageId).toBeTruthy();
  });

  it('a message of only zero-width characters is empty and a lone surrogate malformed: 400 on the field, nothing stored', async () => {
    const [a, b] = await pair();
    const cases: [string, string][] = [
      ['\u200B', 'Write a message'],
      ['\u200B\u200C\u200D\u2060\uFEFF', 'Write a message'],
      [' \u200B \n\u2060 ', 'Write a message'],
      ['hello \uD800 there', MALFORMED_TEXT_MESSAGE],
      ['\uDFFF', MALFORMED_TEXT_MESSAGE],
      ['reversed pair \uDC00\uD800', MALFORMED_TEXT_MESSAGE],
    ];
    for (const [body, message] of cases) {
      const res = await send(ctx.app, a, b.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.fields, JSON.stringify(body)).toEqual({ body: message });
    }
    expect((await thread(ctx.app, a, b.id)).json().messages).toHaveLength(0);
    // Joiners inside a text are kept (an emoji family), and a surrogate pair is one character.
    const family = 'hi \u{1F468}\u200D\u{1F469}\u200D\u{1F467} \u{1F600}';
    const sent = await send(ctx.app, a, b.id, family);
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().message.body).toBe(family);
    // The rule is the shared input rule: a report's reason follows it too.
    const report = await post(
      ctx.app,
      `/api/mailbox/messages/${sent.json().message.id}/report`,
      { reason: '\u200B\u200B\u200B\u200B' },
      { cookie: b.cookie },
    );
    expect(report.statusCode).toBe(400);
    expect(report.json().error.fields.reason).toMatch(/Say why/);
  });

  it('an unknown person is 404, yourself is 400', async () => {
    const [a] = await pair();
    expect((await thread(ctx.app, a, UNKNOWN_ID)).statusCode).toBe(404);
    expect((await send(ctx.app, a, UNKNOWN_ID, 'Hello?')).statusCode).toBe(404);
    const self = await send(ctx.app, a, a.id, 'Note to self');
    expect(self.statusCode).toBe(400);
    expect(self.json().error.fields.userId).toMatch(/yourself/);
  });

  it('blocked either way: 403 with a clear message, the thread says canMessage false; unblock restores', async () => {
    const [a, b] = await pair();
    expect((await send(ctx.app, a, b.id, 'Before the block')).statusCode).toBe(201);
    expect((await call(ctx.app, 'PUT', `/api/mailbox/blocks/${a.id}`, undefined, { cookie: b.cookie })).statusCode).toBe(200);
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const res = await send(ctx.app, from, to.id, 'Blocked?');
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe("You can't message this person.");
    }
    expect((await thread(ctx.app, a, b.id)).json()).toMatchObject({ canMessage: false, blockedByMe: false });
    expect((await thread(ctx.app, b, a.id)).json()).toMatchObject({ canMessage: false, blockedByMe: true });
    expect((await get(ctx.app, '/api/mailbox/blocks', { cookie: b.cookie })).json().items).toMatchObject([{ user: { id: a.id } }]);
    expect((await get(ctx.app, '/api/mailbox/blocks', { cookie: a.cookie })).json().items).toEqual([]);

    expect((await del(ctx.app, `/api/mailbox/blocks/${a.id}`, { cookie: b.cookie })).statusCode).toBe(200);
    expect((await send(ctx.app, a, b.id, 'After the block')).statusCode).toBe(201);
    expect((await thread(ctx.app, b, a.id)).json().canMessage).toBe(true);
  });

  it('a third user never reads or writes a conversation they are not in', async () => {
    const [a, b] = await pair();
    const c = await createSignedInUser(ctx.app);
    const secret = `secret ${randomUUID()}`;
    const m = (await send(ctx.app, a, b.id, secret)).json().message;
    // C's thread with A is C's own (empty); A's messages with B never show.
    const cWithA = await thread(ctx.app, c, a.id);
    expect(cWithA.statusCode).toBe(200);
    expect(cWithA.body).not.toContain(secret);
    expect((await get(ctx.app, '/api/mailbox/conversations', { cookie: c.cookie })).body).not.toContain(secret);
    expect((await get(ctx.app, `/api/mailbox/conversations?q=${encodeURIComponent(secret)}`, { cookie: c.cookie })).json().items).toEqual(
      [],
    );
    // Reporting a message of a conversation C is not in: 404, nothing stored.
    const report = await post(ctx.app, `/api/mailbox/messages/${m.id}/report`, { reason: 'Not mine' }, { cookie: c.cookie });
    expect(report.statusCode).toBe(404);
    // Marking read C's (empty) thread with A leaves B's unread count alone.
    await post(ctx.app, `/api/mailbox/conversations/${a.id}/read`, undefined, { cookie: c.cookie });
    expect(await ctx.app.realtime.unreadCounts(b.id)).toMatchObject({ messages: 1 });
    // Signed out: 401.
    expect((await get(ctx.app, `/api/mailbox/conversations/${a.id}`)).statusCode).toBe(401);
    expect((await post(ctx.app, `/api/mailbox/conversations/${a.id}/messages`, { body: 'x', clientId: randomUUID() })).statusCode).toBe(
      401,
    );
  });

  it('reports a received message with a reason (kept), not your own', async () => {
    const [a, b] = await pair();
    const m = (await send(ctx.app, a, b.id, 'Buy cheap watches')).json().message;
    const res = await post(ctx.app, `/api/mailbox/messages/${m.id}/report`, { reason: 'Spam' }, { cookie: b.cookie });
    expect(res.statusCode, res.body).toBe(201);
    const own = await post(ctx.app, `/api/mailbox/messages/${m.id}/report`, { reason: 'Spam' }, { cookie: a.cookie });
    expect(own.statusCode).toBe(400);
    expect((await post(ctx.app, `/api/mailbox/messages/${m.id}/report`, { reason: '' }, { cookie: b.cookie })).statusCode).toBe(400);
    const rows = (await ctx.app.database.db.execute(
      sql`select reason, reporter_id from message_report where message_id = ${m.id}`,
    )) as unknown as { rows: { reason: string; reporter_id: string }[] };
    expect(rows.rows).toEqual([{ reason: 'Spam', reporter_id: b.id }]);
  });
});

describe('send rate limit', () => {
  const limited = useTestApp({ MAILBOX_SEND_LIMIT: '3' });
  it('answers 429 with Retry-After beyond the per-user limit; a retry of a stored message still answers', async () => {
    const a = await createSignedInUser(limited.app);
    const b = await createSignedInUser(limited.app);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const clientId = randomUUID();
      ids.push(clientId);
      expect((await send(limited.app, a, b.id, `m${i}`, clientId)).statusCode).toBe(201);
    }
    const over = await send(limited.app, a, b.id, 'too many');
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(over.json().error.message).toMatch(/too fast.*Try again in \d+ seconds/);
    expect((await send(limited.app, a, b.id, 'm0', ids[0])).statusCode).toBe(200);
    // Another user's limit is their own.
    expect((await send(limited.app, b, a.id, 'reply')).statusCode).toBe(201);
  });
});

describe('reported messages in the admin console', () => {
  const adminEmail = `mailbox-admin-${randomUUID().slice(0, 8)}@example.com`;
  const adminApp = useTestApp({ MAILBOX_SEND_LIMIT: '1000', ADMIN_EMAILS: adminEmail });
  it('an admin lists reports with the message, the reason, sender and reporter; others get 403/404', async () => {
    const a = await createSignedInUser(adminApp.app);
    const b = await createSignedInUser(adminApp.app);
    const admin = await createSignedInUser(adminApp.app, { email: adminEmail });
    const m = (await send(adminApp.app, a, b.id, 'Rude words here')).json().message;
    expect((await post(adminApp.app, `/api/mailbox/messages/${m.id}/report`, { reason: 'Abusive' }, { cookie: b.cookie })).statusCode).toBe(
      201,
    );
    const list = await get(adminApp.app, '/api/admin/message-reports', { cookie: admin.cookie });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().reports[0]).toMatchObject({
      messageId: m.id,
      body: 'Rude words here',
      reason: 'Abusive',
      sender: { id: a.id },
      reporter: { id: b.id },
    });
    expect([403, 404]).toContain((await get(adminApp.app, '/api/admin/message-reports', { cookie: b.cookie })).statusCode);
  });
});
