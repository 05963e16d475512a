import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPresence } from '../../../src/server/realtime/presence.js';
import { REPLAY_MAX_EVENTS } from '../../../src/server/realtime/event-log.js';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { createSignedInUser } from '../../support/factories.js';
import { post } from '../../support/http.js';
import { openSocket, opened, type TestSocket } from '../../support/realtime.js';

/**
 * No push lost (issue 24 item 5, docs/decisions/0061-no-push-lost.md), on two app instances
 * sharing one PostgreSQL database: every event carries its user's sequence number; a socket
 * that drops and reconnects to the other instance with `?since=` gets exactly what it missed,
 * in order, or is told to resync (too many, swept from the log, presence lapsed, a counter
 * behind it). Also: at most REALTIME_MAX_SOCKETS_PER_USER sockets per user across both
 * instances, and `typing` only to someone the sender shares a conversation with.
 */
const databaseUrl = inject('databaseUrl');
const CAP = 3;

describe.skipIf(!databaseUrl)('realtime across two instances on one database', () => {
  let one: TestApp;
  let two: TestApp;
  let baseOne = '';
  let baseTwo = '';
  beforeAll(async () => {
    const env = { REALTIME_MAX_SOCKETS_PER_USER: String(CAP), MAILBOX_SEND_LIMIT: '1000', LOG_LEVEL: 'error' };
    [one, two] = await Promise.all([buildTestApp(env), buildTestApp(env)]);
    [baseOne, baseTwo] = await Promise.all([one.listen({ port: 0, host: '127.0.0.1' }), two.listen({ port: 0, host: '127.0.0.1' })]);
  });
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
  });

  const events = (tab: TestSocket, type: string) => tab.received.filter((m) => m.type === type);
  const ready = (tab: TestSocket) => tab.received.find((m) => m.type === 'ready') as unknown as { seq: number; resumed: boolean };
  const lastSeq = (tab: TestSocket) => Math.max(...tab.received.map((m) => (typeof m.seq === 'number' ? m.seq : -1)));
  const drop = async (tab: TestSocket) => {
    tab.ws.terminate();
    await tab.closed;
  };
  /** Once the user's sockets are all closed, every row of their presence made `seconds` old (as if that long had passed). */
  const age = async (app: TestApp, userId: string, seconds: number) => {
    const open = async () =>
      Number(
        (
          (await app.database.db.execute(
            sql`select coalesce(sum(sockets), 0) as n from realtime_presence where user_id = ${userId}`,
          )) as unknown as {
            rows: { n: string }[];
          }
        ).rows[0].n,
      );
    await expect.poll(open).toBe(0);
    await app.database.db.execute(
      sql`update realtime_presence set seen_at = now() - make_interval(secs => ${seconds}) where user_id = ${userId}`,
    );
  };
  const sweep = (app: TestApp) => createPresence({ database: app.database, log: { warn() {} } }).sweep();

  it('a socket killed mid-stream and reopened on the other instance receives exactly what it missed, in order, once', async () => {
    const ada = await createSignedInUser(one);
    const first = opened(await openSocket(baseOne, { cookie: ada.cookie }));
    const start = ready(first);
    expect(start).toMatchObject({ resumed: false });
    const total = 60;
    // Published through both instances while the socket is cut after the 20th: some in flight.
    const publishing = (async () => {
      for (let n = 0; n < total; n++) {
        await (n % 2 ? two : one).realtime.publish(ada.id, { type: 'test.stream', n });
        if (n === 20) await drop(first);
      }
    })();
    await publishing;
    const heard = events(first, 'test.stream');
    expect(heard.length).toBeGreaterThan(0);
    expect(heard.length).toBeLessThan(total);
    const since = lastSeq(first);

    const second = opened(await openSocket(baseTwo, { cookie: ada.cookie, since }));
    expect(ready(second)).toEqual({ type: 'ready', seq: start.seq + total, resumed: true });
    // The replay came before ready, and is exactly the rest: no gap, no duplicate.
    const replayed = second.received.slice(
      0,
      second.received.findIndex((m) => m.type === 'ready'),
    );
    expect(replayed.map((m) => m.n)).toEqual(Array.from({ length: total - heard.length }, (_, i) => heard.length + i));
    expect([...heard, ...replayed].map((m) => m.seq)).toEqual(Array.from({ length: total }, (_, i) => start.seq + 1 + i));
    // Live again, numbered on from there, through either instance.
    await one.realtime.publish(ada.id, { type: 'test.stream', n: total });
    expect(await second.next((m) => m.n === total)).toEqual({ seq: start.seq + total + 1, type: 'test.stream', n: total });
    expect(events(second, 'test.stream').map((m) => m.n)).toEqual(replayed.map((m) => m.n).concat(total));
    // A resumed socket is not asked to refetch (nothing was skipped).
    expect(events(second, 'resync')).toEqual([]);
    second.close();
  });

  it('a real send reaches the reconnected tab: message.new replayed on the other instance', async () => {
    const [ada, bob] = [await createSignedInUser(one), await createSignedInUser(one)];
    const tab = opened(await openSocket(baseOne, { cookie: bob.cookie }));
    const since = ready(tab).seq;
    await drop(tab);
    // Bob's socket is gone; his presence lingers, so the send still publishes to him, and it is logged.
    const sent = await post(
      two,
      `/api/mailbox/conversations/${bob.id}/messages`,
      { body: 'while away', clientId: randomUUID() },
      { cookie: ada.cookie },
    );
    expect(sent.statusCode).toBe(201);
    const back = opened(await openSocket(baseTwo, { cookie: bob.cookie, since }));
    expect(ready(back)).toMatchObject({ resumed: true });
    expect(back.received.filter((m) => m.type !== 'ready').map((m) => [m.seq, m.type])).toEqual([
      [since + 1, 'message.new'],
      [since + 2, 'unread.changed'],
    ]);
    expect(events(back, 'message.new')[0]).toMatchObject({ messageId: sent.json().message.id, conversationWith: ada.id });
    back.close();
  });

  it('resyncs instead when too much was missed, when the log no longer holds it, or when the number is ahead of the counter', async () => {
    const ada = await createSignedInUser(one);
    const tab = opened(await openSocket(baseOne, { cookie: ada.cookie }));
    const since = ready(tab).seq;
    await drop(tab);

    // Too many: more than REPLAY_MAX_EVENTS missed.
    await two.realtime.publishMany(Array.from({ length: REPLAY_MAX_EVENTS + 1 }, (_, n) => [ada.id, { type: 'test.flood', n }]));
    const flooded = opened(await openSocket(baseTwo, { cookie: ada.cookie, since }));
    expect(ready(flooded)).toEqual({ type: 'ready', seq: since + REPLAY_MAX_EVENTS + 1, resumed: false });
    expect(events(flooded, 'test.flood')).toEqual([]);
    // Not resumed: the tab refetches now, and is asked again once an older write must have landed.
    await flooded.next((m) => m.type === 'resync', 10_000);
    await drop(flooded);

    // Swept: the log keeps LOG_RETENTION_SECONDS; older rows are gone, and so is the replay.
    const at = ready(flooded).seq;
    await one.realtime.publish(ada.id, { type: 'test.old' });
    await one.database.db.execute(sql`update realtime_event set created_at = now() - interval '1 hour' where user_id = ${ada.id}`);
    await sweep(one);
    const swept = opened(await openSocket(baseOne, { cookie: ada.cookie, since: at }));
    expect(ready(swept)).toEqual({ type: 'ready', seq: at + 1, resumed: false });
    expect(events(swept, 'test.old')).toEqual([]);
    await drop(swept);

    // Ahead of the counter (a number this user was never given).
    const ahead = opened(await openSocket(baseTwo, { cookie: ada.cookie, since: at + 1000 }));
    expect(ready(ahead)).toEqual({ type: 'ready', seq: at + 1, resumed: false });
    ahead.close();

    // Not a number: 400 before the upgrade.
    expect(await openSocket(baseOne, { cookie: ada.cookie, since: 'abc' })).toEqual({ refused: 400 });
    expect(await openSocket(baseOne, { cookie: ada.cookie, since: -1 })).toEqual({ refused: 400 });
  });

  it('a user whose presence lapsed is not resumed over what was skipped meanwhile: a message sent then forces a resync', async () => {
    const [ada, bob] = [await createSignedInUser(one), await createSignedInUser(one)];
    const tab = opened(await openSocket(baseOne, { cookie: bob.cookie }));
    const since = ready(tab).seq;
    await drop(tab);
    // Bob's rows are older than the linger and are swept: his counter gets a hole.
    await age(one, bob.id, 3600);
    await sweep(two);
    const left = (await one.database.db.execute(sql`select 1 from realtime_presence where user_id = ${bob.id}`)) as unknown as {
      rows: unknown[];
    };
    expect(left.rows).toEqual([]);
    // Not present: the send publishes nothing to him (and logs nothing)...
    const sent = await post(
      one,
      `/api/mailbox/conversations/${bob.id}/messages`,
      { body: 'unseen', clientId: randomUUID() },
      { cookie: ada.cookie },
    );
    expect(sent.statusCode).toBe(201);
    // ...so his tab must refetch: resumed false, at the hole's number.
    const back = opened(await openSocket(baseTwo, { cookie: bob.cookie, since }));
    expect(ready(back)).toEqual({ type: 'ready', seq: since + 1, resumed: false });
    expect(events(back, 'message.new')).toEqual([]);
    back.close();
  });

  it('a live socket that missed a notification (its listener lost) is sent it from the log, not told to resync', async () => {
    const ada = await createSignedInUser(one);
    const tab = opened(await openSocket(baseTwo, { cookie: ada.cookie }));
    await one.realtime.publish(ada.id, { type: 'test.missed', n: 0 });
    const at = (await tab.next((m) => m.n === 0)).seq as number;
    // As if instance two's listener had missed these two: logged and numbered, never heard there.
    await one.database.db.execute(
      sql`with s as (update realtime_sequence set seq = seq + 2 where user_id = ${ada.id} returning seq)
          insert into realtime_event (user_id, seq, event)
          select ${ada.id}::uuid, seq - 1, '{"type":"test.missed","n":1}' from s union all select ${ada.id}::uuid, seq, '{"type":"test.missed","n":2}' from s`,
    );
    await one.realtime.publish(ada.id, { type: 'test.missed', n: 3 });
    await tab.next((m) => m.n === 3);
    expect(events(tab, 'test.missed').map((m) => [m.seq, m.n])).toEqual([
      [at, 0],
      [at + 1, 1],
      [at + 2, 2],
      [at + 3, 3],
    ]);
    tab.close();
  });

  it(`holds at most ${CAP} sockets per user across both instances: one more is closed with 4429 too-many-sockets`, async () => {
    const ada = await createSignedInUser(one);
    const tabs = [
      opened(await openSocket(baseOne, { cookie: ada.cookie })),
      opened(await openSocket(baseTwo, { cookie: ada.cookie })),
      opened(await openSocket(baseOne, { cookie: ada.cookie })),
    ];
    expect(await openSocket(baseTwo, { cookie: ada.cookie })).toEqual({ closedBeforeReady: 4429, reason: 'too-many-sockets' });
    expect(await openSocket(baseOne, { cookie: ada.cookie })).toEqual({ closedBeforeReady: 4429, reason: 'too-many-sockets' });
    // Another user is not affected.
    const bob = await createSignedInUser(one);
    opened(await openSocket(baseTwo, { cookie: bob.cookie })).close();
    // One closed on instance one: a new one on instance two is accepted.
    tabs[0].close();
    await tabs[0].closed;
    await expect
      .poll(async () => {
        const answer = await openSocket(baseTwo, { cookie: ada.cookie });
        if ('socket' in answer) tabs[0] = answer.socket;
        return 'socket' in answer;
      })
      .toBe(true);
    for (const tab of tabs) tab.close();
  });

  it('typing reaches someone the sender shares a conversation with, never a stranger', async () => {
    const [ada, friend, stranger] = [await createSignedInUser(one), await createSignedInUser(one), await createSignedInUser(one)];
    const sent = await post(
      one,
      `/api/mailbox/conversations/${friend.id}/messages`,
      { body: 'hi', clientId: randomUUID() },
      { cookie: ada.cookie },
    );
    expect(sent.statusCode).toBe(201);
    const friendTab = opened(await openSocket(baseTwo, { cookie: friend.cookie }));
    const strangerTab = opened(await openSocket(baseTwo, { cookie: stranger.cookie }));
    const adaTab = opened(await openSocket(baseOne, { cookie: ada.cookie }));
    adaTab.send({ type: 'typing', to: stranger.id });
    adaTab.send({ type: 'typing', to: friend.id });
    expect(await friendTab.next((m) => m.type === 'typing')).toMatchObject({ type: 'typing', from: ada.id });
    // The stranger's socket hears a later event of theirs, and no typing before or after it.
    await new Promise((r) => setTimeout(r, 300));
    await one.realtime.publish(stranger.id, { type: 'test.marker' });
    await strangerTab.next((m) => m.type === 'test.marker');
    expect(events(strangerTab, 'typing')).toEqual([]);
    // And the friend can type back (the conversation is theirs too).
    friendTab.send({ type: 'typing', to: ada.id });
    expect(await adaTab.next((m) => m.type === 'typing')).toMatchObject({ from: friend.id });
    for (const tab of [friendTab, strangerTab, adaTab]) tab.close();
  });
});
