import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../../../src/server/db/transaction.js';
import { createPresence } from '../../../src/server/realtime/presence.js';
import { useTestApp, type TestApp } from '../../support/app.js';
import { createSignedInUser, type SignedInUser } from '../../support/factories.js';
import { post } from '../../support/http.js';
import { openSocket, opened } from '../../support/realtime.js';

/**
 * Presence (docs/decisions/0032-presence-gated-publish.md): a sent message is pushed only to
 * users with a realtime listener open on some process; the table follows listeners, is
 * refreshed and swept; a new socket is told `ready` once its user is present, and to catch
 * up again once a statement begun before that must have ended.
 */
const ctx = useTestApp({ MAILBOX_SEND_LIMIT: '1000', LOG_LEVEL: 'error', DATABASE_STATEMENT_TIMEOUT_MS: '1000' });

const send = (app: TestApp, from: SignedInUser, to: string, body: string) =>
  post(app, `/api/mailbox/conversations/${to}/messages`, { body, clientId: randomUUID() }, { cookie: from.cookie });

const sequenceOf = (...userIds: string[]) =>
  rowsOf<{ user_id: string; seq: string }>(
    ctx.app.database.db,
    sql`select user_id, seq from realtime_sequence where user_id in ${userIds} order by user_id`,
  );

const presenceOf = (userId: string) =>
  rowsOf<{ instance_id: string; sockets: number }>(
    ctx.app.database.db,
    sql`select instance_id, sockets from realtime_presence where user_id = ${userId} order by instance_id`,
  );

describe('presence-gated publish', () => {
  it('a sent message is pushed only to the sides with a listener open, and to nobody when neither has one', async () => {
    const [a, b] = [await createSignedInUser(ctx.app), await createSignedInUser(ctx.app)];
    const publishMany = vi.spyOn(ctx.app.realtime, 'publishMany');
    const usersOf = () =>
      publishMany.mock.calls.flatMap(([events]) => events.map(([userId, e]) => `${userId === a.id ? 'a' : 'b'}:${e.type}`));
    try {
      expect((await send(ctx.app, a, b.id, 'nobody listens')).statusCode).toBe(201);
      expect(publishMany).not.toHaveBeenCalled();

      const bEvents: string[] = [];
      const stopB = ctx.app.realtime.subscribe(b.id, (e) => bEvents.push(e.type));
      await stopB.ready;
      const m = (await send(ctx.app, a, b.id, 'only Bea listens')).json().message;
      expect(usersOf()).toEqual(['b:message.new', 'b:unread.changed']);
      await expect.poll(() => bEvents.filter((t) => t === 'message.new').length).toBe(1);

      publishMany.mockClear();
      const stopA = ctx.app.realtime.subscribe(a.id, () => {});
      await stopA.ready;
      await send(ctx.app, a, b.id, 'both listen');
      expect(usersOf().sort()).toEqual(['a:message.new', 'b:message.new', 'b:unread.changed']);

      // Gone: their rows linger at zero for PRESENCE_LINGER_SECONDS, and a send still publishes
      // (kept in the log for a socket that comes back, ADR 0061)...
      stopA();
      stopB();
      await expect.poll(async () => [...(await presenceOf(a.id)), ...(await presenceOf(b.id))].map((r) => r.sockets)).toEqual([0, 0]);
      publishMany.mockClear();
      await send(ctx.app, b, a.id, 'just gone');
      expect(usersOf().sort()).toEqual(['a:message.new', 'a:unread.changed', 'b:message.new']);
      // ...until the rows are swept: then nothing more is published, and nothing was lost: the thread has them all.
      await ctx.app.database.db.execute(
        sql`update realtime_presence set seen_at = now() - interval '1 hour' where user_id in (${a.id}, ${b.id})`,
      );
      await createPresence({ database: ctx.app.database, log: { warn() {} } }).sweep();
      expect([...(await presenceOf(a.id)), ...(await presenceOf(b.id))]).toEqual([]);
      publishMany.mockClear();
      await send(ctx.app, b, a.id, 'nobody again');
      expect(publishMany).not.toHaveBeenCalled();
      expect(m.body).toBe('only Bea listens');
    } finally {
      publishMany.mockRestore();
    }
  });

  it('the table follows the listeners: one row per user and process counting them, at zero (lingering) after the last', async () => {
    const ada = await createSignedInUser(ctx.app);
    const first = ctx.app.realtime.subscribe(ada.id, () => {});
    const second = ctx.app.realtime.subscribe(ada.id, () => {});
    await Promise.all([first.ready, second.ready]);
    const rows = await presenceOf(ada.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].sockets).toBe(2);
    first();
    first(); // twice is once
    await expect.poll(async () => (await presenceOf(ada.id))[0]?.sockets).toBe(1);
    second();
    await expect.poll(async () => (await presenceOf(ada.id))[0]?.sockets).toBe(0);
  });

  it('every beat writes the exact counts again and sweeps the rows of processes not seen for 90 s', async () => {
    const [ada, bob, cy] = [await createSignedInUser(ctx.app), await createSignedInUser(ctx.app), await createSignedInUser(ctx.app)];
    const instanceId = randomUUID();
    const deadProcess = randomUUID();
    const liveProcess = randomUUID();
    const presence = createPresence({ database: ctx.app.database, log: { warn() {} }, instanceId });
    await ctx.app.database.db.execute(sql`insert into realtime_presence (user_id, instance_id, sockets, seen_at) values
      (${ada.id}, ${instanceId}, 7, now()),               -- a wrong count of this process
      (${cy.id}, ${instanceId}, 1, now()),                -- a user whose sockets here are gone
      (${bob.id}, ${deadProcess}, 1, now() - interval '2 minutes'),
      (${cy.id}, ${liveProcess}, 1, now() - interval '30 seconds')`);
    presence.start(
      () =>
        new Map([
          [ada.id, 2],
          [bob.id, 1],
        ]),
    );
    await presence.beat();
    expect(await presenceOf(ada.id)).toEqual([{ instance_id: instanceId, sockets: 2 }]);
    expect(await presenceOf(bob.id)).toEqual([{ instance_id: instanceId, sockets: 1 }]);
    // Cy's socket here is gone: the row lingers at zero (swept PRESENCE_LINGER_SECONDS later).
    expect(await presenceOf(cy.id)).toEqual(
      [
        { instance_id: instanceId, sockets: 0 },
        { instance_id: liveProcess, sockets: 1 },
      ].sort((x, y) => x.instance_id.localeCompare(y.instance_id)),
    );
    await presence.stop();
    expect([...(await presenceOf(ada.id)), ...(await presenceOf(bob.id))].map((r) => r.sockets)).toEqual([0, 0]);
    expect(await presenceOf(cy.id)).toHaveLength(2);
    // Nobody lost a row that was their last: no counter moved.
    expect(await sequenceOf(ada.id, bob.id, cy.id)).toEqual([]);
  });

  it('the sweep removes lingering rows and those of dead processes, and gives a hole to each user left with none (once), one process at a time', async () => {
    const [ada, bob] = [await createSignedInUser(ctx.app), await createSignedInUser(ctx.app)];
    const [p1, p2] = [randomUUID(), randomUUID()];
    await ctx.app.database.db.execute(sql`insert into realtime_presence (user_id, instance_id, sockets, seen_at) values
      (${ada.id}, ${p1}, 0, now() - interval '3 minutes'),  -- lingered long enough
      (${ada.id}, ${p2}, 2, now() - interval '2 minutes'),  -- a process that died
      (${bob.id}, ${p1}, 0, now() - interval '3 minutes'),
      (${bob.id}, ${p2}, 0, now() - interval '10 seconds')  -- still lingering`);
    await ctx.app.database.db.execute(sql`insert into realtime_sequence (user_id, seq) values (${ada.id}, 7)`);
    const sweeper = createPresence({ database: ctx.app.database, log: { warn() {} } });
    await Promise.all([sweeper.sweep(), sweeper.sweep(), createPresence({ database: ctx.app.database, log: { warn() {} } }).sweep()]);
    expect(await presenceOf(ada.id)).toEqual([]);
    expect(await presenceOf(bob.id)).toEqual([{ instance_id: p2, sockets: 0 }]);
    // Ada has no row left: her counter moved by one, and that number is a hole in the log.
    expect(await sequenceOf(ada.id, bob.id)).toEqual([{ user_id: ada.id, seq: '8' }]);
    const log = await rowsOf<{ seq: string; event: string | null }>(
      ctx.app.database.db,
      sql`select seq, event from realtime_event where user_id = ${ada.id}`,
    );
    expect(log).toEqual([{ seq: '8', event: null }]);
  });
});

describe('a new socket', () => {
  it('is ready once its user is present, is told to catch up again (statement timeout + 1 s), and leaves on close', async () => {
    const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const ada = await createSignedInUser(ctx.app);
    const tab = opened(await openSocket(base, { cookie: ada.cookie }));
    // `ready` came after the presence row was committed.
    expect((await presenceOf(ada.id))[0]?.sockets).toBe(1);
    const readyAt = Date.now();
    await tab.next((m) => m.type === 'resync', 6_000);
    expect(Date.now() - readyAt).toBeGreaterThanOrEqual(1_000);
    tab.close();
    await tab.closed;
    await expect.poll(async () => (await presenceOf(ada.id))[0]?.sockets).toBe(0);
  });
});
