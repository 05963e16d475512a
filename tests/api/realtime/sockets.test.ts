import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { createSignedInUser } from '../../support/factories.js';
import { del, get, post } from '../../support/http.js';
import { openSocket, opened } from '../../support/realtime.js';

/**
 * The realtime socket (issue 10): GET /api/realtime, signed in by the session cookie,
 * Origin checked, each user hearing only their own events, closed when the session ends.
 */
const ctx = useTestApp();
let base = '';
const listen = async () => {
  if (!base) base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  return base;
};

describe('realtime socket', () => {
  it('refuses a connection without a session cookie (401) and one from another site (403)', async () => {
    await listen();
    expect(await openSocket(base)).toEqual({ refused: 401 });
    expect(await openSocket(base, { cookie: 'agora.session_token=forged.abc' })).toEqual({ refused: 401 });
    const ada = await createSignedInUser(ctx.app);
    expect(await openSocket(base, { cookie: ada.cookie, origin: 'https://evil.example' })).toEqual({ refused: 403 });
    // A plain GET (no upgrade) is told to use a WebSocket.
    const plain = await get(ctx.app, '/api/realtime', { cookie: ada.cookie });
    expect(plain.statusCode).toBe(426);
  });

  it('delivers a user only their own events, on every open socket of theirs', async () => {
    await listen();
    const [ada, bob] = await Promise.all([createSignedInUser(ctx.app), createSignedInUser(ctx.app)]);
    const adaTab1 = opened(await openSocket(base, { cookie: ada.cookie }));
    const adaTab2 = opened(await openSocket(base, { cookie: ada.cookie }));
    const bobTab = opened(await openSocket(base, { cookie: bob.cookie }));

    await ctx.app.realtime.publish(bob.id, { type: 'message.new', messageId: 'for-bob' });
    await ctx.app.realtime.publish(ada.id, { type: 'message.new', messageId: 'for-ada' });
    // Each user's events are numbered from their own counter (ADR 0061).
    expect(await bobTab.next((m) => m.type === 'message.new')).toEqual({ seq: 1, type: 'message.new', messageId: 'for-bob' });
    await adaTab1.next((m) => m.messageId === 'for-ada');
    await adaTab2.next((m) => m.messageId === 'for-ada');
    // Fan-out is in order on one channel: once Ada heard hers, Bob's (published before) was never hers.
    for (const tab of [adaTab1, adaTab2])
      expect(tab.received.filter((m) => m.type === 'message.new')).toEqual([{ seq: 1, type: 'message.new', messageId: 'for-ada' }]);
    expect(bobTab.received.some((m) => m.messageId === 'for-ada')).toBe(false);
    for (const tab of [adaTab1, adaTab2, bobTab]) tab.close();
  });

  it('publishMany: several users\u2019 events in one notification, each to its own user, in order; a batch too big for one goes in several', async () => {
    await listen();
    const [ada, bob] = await Promise.all([createSignedInUser(ctx.app), createSignedInUser(ctx.app)]);
    const adaTab = opened(await openSocket(base, { cookie: ada.cookie }));
    const bobTab = opened(await openSocket(base, { cookie: bob.cookie }));
    await ctx.app.realtime.publishMany([
      [bob.id, { type: 'message.new', messageId: '1' }],
      [ada.id, { type: 'message.new', messageId: '1' }],
      [bob.id, { type: 'unread.changed', counter: 'messages' }],
    ]);
    await bobTab.next((m) => m.type === 'unread.changed');
    await adaTab.next((m) => m.type === 'message.new');
    expect(bobTab.received.filter((m) => m.type !== 'ready' && m.type !== 'heartbeat')).toEqual([
      { seq: 1, type: 'message.new', messageId: '1' },
      { seq: 2, type: 'unread.changed', counter: 'messages' },
    ]);
    expect(adaTab.received.filter((m) => m.type === 'unread.changed')).toEqual([]);
    // 200 events of ~60 bytes do not fit one NOTIFY payload: all arrive, once each, in order.
    const many = Array.from(
      { length: 200 },
      (_, i) => [ada.id, { type: 'test.many', n: i, pad: 'x'.repeat(20) }] as [string, { type: string; n: number; pad: string }],
    );
    await ctx.app.realtime.publishMany(many);
    await adaTab.next((m) => m.type === 'test.many' && m.n === 199);
    expect(adaTab.received.filter((m) => m.type === 'test.many').map((m) => m.n)).toEqual(many.map(([, e]) => e.n));
    // Numbered on from Ada's first event, with no gap across the notifications.
    expect(adaTab.received.filter((m) => m.type === 'test.many').map((m) => m.seq)).toEqual(many.map((_, i) => i + 2));
    adaTab.close();
    bobTab.close();
  });

  it('refuses to publish an event near NOTIFY’s 8000-byte limit (never throws), and goes on delivering', async () => {
    await listen();
    const ada = await createSignedInUser(ctx.app);
    const tab = opened(await openSocket(base, { cookie: ada.cookie }));
    await expect(ctx.app.realtime.publish(ada.id, { type: 'test.huge', text: 'x'.repeat(8000) })).resolves.toBeUndefined();
    await ctx.app.realtime.publish(ada.id, { type: 'test.small' });
    await tab.next((m) => m.type === 'test.small');
    expect(tab.received.some((m) => m.type === 'test.huge')).toBe(false);
    tab.close();
  });

  it('hands a client message to its registered handler with the socket user id; ignores unknown and malformed ones', async () => {
    await listen();
    const ada = await createSignedInUser(ctx.app);
    const seen: { userId: string; message: Record<string, unknown> }[] = [];
    ctx.app.realtime.onClientMessage('test.typing', (userId, message) => {
      seen.push({ userId, message });
    });
    const tab = opened(await openSocket(base, { cookie: ada.cookie }));
    tab.ws.send('not json');
    tab.ws.send('[1,2]');
    tab.send({ type: 'no.such.type' });
    tab.send({ type: 42 });
    tab.send({ type: 'test.typing', to: 'someone', userId: 'spoofed' });
    tab.send({ type: 'ping' });
    await tab.next((m) => m.type === 'pong');
    expect(seen).toEqual([{ userId: ada.id, message: { type: 'test.typing', to: 'someone', userId: 'spoofed' } }]);
    expect(await tab.next((m) => m.type === 'error')).toMatchObject({ code: 'invalid_message' });
    tab.close();
  });

  it('rate-limits a socket that floods client messages, and closes one that keeps on', async () => {
    await listen();
    const ada = await createSignedInUser(ctx.app);
    let handled = 0;
    ctx.app.realtime.onClientMessage('test.flood', () => {
      handled++;
    });
    const tab = opened(await openSocket(base, { cookie: ada.cookie }));
    for (let i = 0; i < 200; i++) tab.send({ type: 'test.flood' });
    expect(await tab.closed).toBe(1008);
    expect(handled).toBeGreaterThan(0);
    expect(handled).toBeLessThan(40);
  });

  it('refuses a message over 4 KiB by closing the socket (1009)', async () => {
    await listen();
    const ada = await createSignedInUser(ctx.app);
    const tab = opened(await openSocket(base, { cookie: ada.cookie }));
    tab.send({ type: 'test.big', text: 'x'.repeat(5000) });
    expect(await tab.closed).toBe(1009);
  });

  it('closes the socket at once when its user signs out (4401), and when a device is signed out from another', async () => {
    await listen();
    const ada = await createSignedInUser(ctx.app);
    const tab = opened(await openSocket(base, { cookie: ada.cookie }));
    const out = await post(ctx.app, '/api/accounts/sign-out', undefined, { cookie: ada.cookie });
    expect(out.statusCode).toBe(200);
    expect(await tab.closed).toBe(4401);
    // Its own browser signed out: the tab says "signed out", not "expired".
    expect(await tab.closeReason).toBe('signed-out');

    // Two devices: the second signs the first out from its device list.
    const { signIn } = await import('../../support/factories.js');
    const phone = await signIn(ctx.app, ada.email, ada.password);
    const laptop = await signIn(ctx.app, ada.email, ada.password);
    const phoneTab = opened(await openSocket(base, { cookie: phone }));
    const laptopTab = opened(await openSocket(base, { cookie: laptop }));
    const { sessions } = (await get(ctx.app, '/api/accounts/sessions', { cookie: laptop })).json() as {
      sessions: { id: string; current: boolean }[];
    };
    const phoneSession = sessions.find((s) => !s.current)!;
    expect((await del(ctx.app, `/api/accounts/sessions/${phoneSession.id}`, { cookie: laptop })).statusCode).toBeLessThan(300);
    expect(await phoneTab.closed).toBe(4401);
    expect(await phoneTab.closeReason).toBe('session-ended');
    expect(laptopTab.ws.readyState).toBe(laptopTab.ws.OPEN);
    laptopTab.close();
  });

  it('closes at the heartbeat a socket whose session ended some other way (expired)', async () => {
    await listen();
    const ada = await createSignedInUser(ctx.app);
    const tab = opened(await openSocket(base, { cookie: ada.cookie }));
    const { sql } = await import('drizzle-orm');
    await ctx.app.database.db.execute(sql`update session set expires_at = now() - interval '1 second' where user_id = ${ada.id}`);
    await ctx.app.realtimeSockets.heartbeat();
    expect(await tab.closed).toBe(4401);
    expect(await tab.closeReason).toBe('session-ended');
  });

  it('runs on PostgreSQL LISTEN/NOTIFY when the run has PostgreSQL', () => {
    expect(ctx.app.database.kind).toBe(inject('databaseUrl') ? 'postgres' : 'pglite');
  });
});
