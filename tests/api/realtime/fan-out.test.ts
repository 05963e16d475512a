import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { request, signedInUser, startServer, waitUntil, type ServerProcess } from '../../support/server-process.js';
import { openSocket, opened } from '../../support/realtime.js';

/**
 * Two app processes on one PostgreSQL database (issue 10): an event published on one
 * reaches the user's socket on the other through LISTEN/NOTIFY; a lost listener
 * connection reconnects and its sockets catch up from the log (ADR 0061).
 */
const databaseUrl = inject('databaseUrl');

describe.skipIf(!databaseUrl)('realtime fan-out across two server processes', () => {
  let one: ServerProcess;
  let two: ServerProcess;
  beforeAll(async () => {
    [one, two] = await Promise.all([startServer({ databaseUrl: databaseUrl! }), startServer({ databaseUrl: databaseUrl! })]);
  });
  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
  });

  it('delivers an event published on process 1 to the socket on process 2, and only to its user', async () => {
    const ada = await signedInUser(one.base, 'fanout-ada');
    const bob = await signedInUser(one.base, 'fanout-bob');
    const adaOnTwo = opened(await openSocket(two.base, { cookie: ada.cookie }));
    const bobOnOne = opened(await openSocket(one.base, { cookie: bob.cookie }));

    const sent = await request(one.base, 'POST', '/api/dev/realtime/echo', { cookie: ada.cookie, body: { note: 'from one' } });
    expect(sent.status, sent.body).toBe(200);
    expect(await adaOnTwo.next((m) => m.type === 'dev.echo')).toMatchObject({ type: 'dev.echo', note: 'from one' });

    const back = await request(two.base, 'POST', '/api/dev/realtime/echo', { cookie: bob.cookie, body: { note: 'from two' } });
    expect(back.status).toBe(200);
    expect(await bobOnOne.next((m) => m.type === 'dev.echo')).toMatchObject({ note: 'from two' });
    expect(adaOnTwo.received.filter((m) => m.type === 'dev.echo')).toHaveLength(1);
    expect(bobOnOne.received.filter((m) => m.type === 'dev.echo')).toHaveLength(1);
    adaOnTwo.close();
    bobOnOne.close();
  });

  it('closes the socket on process 2 when the user signs out on process 1', async () => {
    const ada = await signedInUser(one.base, 'fanout-signout');
    const tab = opened(await openSocket(two.base, { cookie: ada.cookie }));
    expect((await request(one.base, 'POST', '/api/accounts/sign-out', { cookie: ada.cookie })).status).toBe(200);
    expect(await tab.closed).toBe(4401);
  });

  it('reconnects lost listener and publisher connections; what a socket missed meanwhile comes from the log, once, in order', async () => {
    const ada = await signedInUser(one.base, 'fanout-resync');
    const tab = opened(await openSocket(two.base, { cookie: ada.cookie }));
    const echo = async (note: string) =>
      expect((await request(one.base, 'POST', '/api/dev/realtime/echo', { cookie: ada.cookie, body: { note } })).status).toBe(200);
    await echo('before');
    await tab.next((m) => m.note === 'before');
    const admin = new pg.Client({ connectionString: databaseUrl! });
    await admin.connect();
    try {
      const { rows } = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where application_name in ('agora-realtime-listener', 'agora-realtime-publisher') and datname = current_database()`,
      );
      expect(rows.length).toBeGreaterThanOrEqual(2);
    } finally {
      await admin.end();
    }
    // Published while process two's listener is away (it comes back after a short back-off).
    for (const note of ['during-1', 'during-2', 'during-3']) await echo(note);
    await waitUntil('the events published meanwhile to arrive', () => tab.received.some((m) => m.note === 'during-3'), 30_000);
    await echo('after');
    await tab.next((m) => m.note === 'after', 30_000);
    const echoes = tab.received.filter((m) => m.type === 'dev.echo');
    expect(echoes.map((m) => m.note)).toEqual(['before', 'during-1', 'during-2', 'during-3', 'after']);
    const first = echoes[0].seq as number;
    expect(echoes.map((m) => m.seq)).toEqual([first, first + 1, first + 2, first + 3, first + 4]);
    tab.close();
  });
});
