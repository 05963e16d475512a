import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startFleet, type Fleet } from '../support/fleet.js';
import { openSocket, opened, type TestSocket } from '../support/realtime.js';
import { createRunDatabase, type RunDatabase } from '../support/run-database.js';
import { courseBody, educatorUser, request, runLoad, signedInUser, tally, waitUntil } from '../support/server-process.js';
import { fileForm } from '../support/multipart.js';
import { uniqueEmail } from '../support/test-data.js';
import { uniquePng } from '../support/uploads.js';

/**
 * The fleet (issue 24): three real app processes, each with its own data directory, on one
 * PostgreSQL database, behind HAProxy from Debian configured by deploy/haproxy.cfg, started
 * once for the whole file (tests/support/fleet.ts). Every test goes through the balancer or
 * straight to an instance, as a user or an operator would; none reaches into a process.
 * The tests run in order and each leaves the three instances up for the next.
 */
const usesPostgres = !!inject('databaseUrl') && process.env.AGORA_TEST_PGLITE !== '1';
if (!usesPostgres) console.warn('  fleet suite skipped: it needs PostgreSQL (PGlite run)');

type Message = { type: string; [k: string]: unknown };
const newMessageIds = (socket: TestSocket) =>
  socket.received.filter((m: Message) => m.type === 'message.new').map((m: Message) => String(m.messageId));

describe.skipIf(!usesPostgres)('the fleet: three instances behind HAProxy on one PostgreSQL', () => {
  let run: RunDatabase;
  let fleet: Fleet;
  let admin: pg.Client;
  let lb: string;

  beforeAll(async () => {
    // An EMPTY database (not the run's migrated template): the three instances are spawned at
    // the same moment and race to migrate it, as a deploy with no ordering does (issue 24 item 2;
    // before the advisory lock, 2 of 3 exited). startFleet fails if any of them exits.
    const made = await createRunDatabase('agora_fleet', '');
    if ('error' in made) throw new Error(made.error);
    run = made;
    fleet = await startFleet({
      databaseUrl: run.url,
      start: 'together',
      // Many sign-ups and messages from one test client address: limits are not under test here.
      env: { AUTH_RATE_LIMIT: '100000', MAILBOX_SEND_LIMIT: '100000', LOG_LEVEL: 'error' },
    });
    lb = fleet.balancerUrl;
    admin = new pg.Client({ connectionString: run.url });
    await admin.connect();
  });

  afterAll(async () => {
    if (fleet) console.log(`  [fleet] HAProxy's log (failed, retried requests; state changes):\n${fleet.balancerOutput()}`);
    await fleet?.stop();
    await admin?.end();
    await run?.drop();
  });

  /** Restarts begun in the background (a killed instance comes back while the next test runs). */
  const restarting: Promise<void>[] = [];
  const restartLater = (index: number) => {
    const started = fleet.instances[index].restart();
    started.catch(() => {}); // awaited (and its failure reported) by allUp()
    restarting.push(started);
  };

  /** Brings every instance back (after a kill) and waits until HAProxy routes to all three. */
  async function allUp() {
    await Promise.all(restarting.splice(0));
    for (const instance of fleet.instances) if (instance.exit() !== null) await instance.restart();
    await fleet.balancerSees([0, 1, 2]);
  }

  it('three instances started together on an empty database all serve: every migration applied once', async () => {
    for (const instance of fleet.instances) {
      expect(instance.exit(), instance.output()).toBeNull();
      const ready = await request(instance.url, 'GET', '/api/health/ready');
      expect(ready.status, `${instance.name}: ${ready.body}`).toBe(200);
      expect(ready.json()).toMatchObject({ database: 'reachable', migrations: 'current', draining: false });
    }
    const journal = JSON.parse(readFileSync('drizzle/meta/_journal.json', 'utf8')) as { entries: unknown[] };
    const applied = await admin.query<{ n: number; distinct: number }>(
      'select count(*)::int as n, count(distinct hash)::int as distinct from drizzle.__drizzle_migrations',
    );
    expect(applied.rows[0]).toEqual({ n: journal.entries.length, distinct: journal.entries.length });
  });

  it('serves through every instance and the balancer spreads requests over all three', async () => {
    for (const instance of fleet.instances) {
      const health = await request(instance.url, 'GET', '/api/health');
      expect(health.status, instance.output()).toBe(200);
    }
    const before = await fleet.servers();
    const answers = await Promise.all(Array.from({ length: 30 }, () => request(lb, 'GET', '/api/version')));
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
    const after = await fleet.servers();
    for (const server of after) {
      const served = server.sessions - before.find((s) => s.name === server.name)!.sessions;
      expect(served, `${server.name} served none of 30 requests`).toBeGreaterThan(0);
    }
    // One deployed build, whichever instance answered.
    expect(answers.every((a) => a.json().buildId === answers[0].json().buildId)).toBe(true);
  });

  it('a session made through one instance works on the others; sign-out through one ends it everywhere', async () => {
    const [one, two, three] = fleet.instances;
    const educator = await educatorUser(one.url, 'fleet-session');
    for (const base of [two.url, three.url, lb]) {
      const me = await request(base, 'GET', '/api/me', { cookie: educator.cookie });
      expect(me.status, `${base}: ${me.body}`).toBe(200);
      expect(me.json().id).toBe(educator.id);
    }
    // A write through instance 3, read through instance 2.
    const title = `Fleet watercolour ${randomUUID()}`;
    const made = await request(three.url, 'POST', '/api/courses', { cookie: educator.cookie, body: courseBody(title) });
    expect(made.status, made.body).toBe(201);
    const read = await request(two.url, 'GET', `/api/courses/${made.json().id}`, { cookie: educator.cookie });
    expect(read.status, read.body).toBe(200);
    expect(read.json().title).toBe(title);

    expect((await request(two.url, 'POST', '/api/accounts/sign-out', { cookie: educator.cookie })).status).toBe(200);
    for (const base of [one.url, three.url, lb]) {
      expect((await request(base, 'GET', '/api/me', { cookie: educator.cookie })).status, base).toBe(401);
    }
  });

  it('a message sent through instance 1 reaches, live, a socket on instance 3 and one through the balancer', async () => {
    const [one, , three] = fleet.instances;
    const ada = await signedInUser(lb, 'fleet-ada');
    const bob = await signedInUser(lb, 'fleet-bob');
    const onThree = opened(await openSocket(three.url, { cookie: bob.cookie }));
    // A WebSocket through HAProxy: the upgrade passes, the socket stays open.
    const viaBalancer = opened(await openSocket(lb, { cookie: bob.cookie }));
    try {
      const sent = await request(one.url, 'POST', `/api/mailbox/conversations/${bob.id}/messages`, {
        cookie: ada.cookie,
        body: { body: 'Across the fleet', clientId: randomUUID() },
      });
      expect(sent.status, sent.body).toBe(201);
      const id = sent.json().message.id as string;
      for (const socket of [onThree, viaBalancer]) {
        expect(await socket.next((m) => m.type === 'message.new' && m.messageId === id, 10_000)).toMatchObject({
          conversationWith: ada.id,
        });
      }
    } finally {
      onThree.close();
      viaBalancer.close();
    }
  });

  it('a limit of 5 stays 5 across three instances: 15 concurrent password resets through the balancer, exactly 5 pass', async () => {
    // A client address of this test's own: HAProxy appends the address it saw to X-Forwarded-For
    // and the instances trust loopback hops (TRUST_PROXY), so each instance sees this one.
    const ip = () => `10.${[...randomBytes(3)].join('.')}`;
    const client = ip();
    const reset = (base: string, from = client) =>
      request(base, 'POST', '/api/accounts/password-reset', {
        body: { email: uniqueEmail('fleet-reset') },
        headers: { 'x-forwarded-for': from },
      });
    const before = await fleet.servers();
    const answers = await Promise.all(Array.from({ length: 15 }, () => reset(lb)));
    const after = await fleet.servers();
    const spread = after.map((s) => s.sessions - before.find((b) => b.name === s.name)!.sessions);
    const statuses = answers.map((a) => a.status ?? a.error);
    console.log(`  [fleet] password reset, limit 5: statuses ${statuses.join(' ')}; requests per instance ${spread.join('/')}`);
    // Spread by HAProxy over all three (each instance alone would let 5 through: 15 in all).
    for (const [i, served] of spread.entries()) expect(served, `${fleet.instances[i].name} got none of the 15`).toBeGreaterThan(0);
    expect(statuses.sort()).toEqual([...Array(5).fill(200), ...Array(10).fill(429)]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.json().error.message).toMatch(/rate limit|too many/i);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Every instance, asked directly, knows the count; another address has a count of its own.
    for (const instance of fleet.instances) expect((await reset(instance.url)).status, instance.name).toBe(429);
    expect((await reset(lb, ip())).status).toBe(200);
  });

  it('an upload through one instance is served by all: files kept in PostgreSQL, no disk shared', async () => {
    const [one] = fleet.instances;
    const user = await signedInUser(lb, 'fleet-upload');
    // An image no other test makes, so the file served below can only be this upload.
    const form = await fileForm({ data: await uniquePng(), filename: 'me.png', type: 'image/png' });
    const up = await request(one.url, 'POST', `/api/users/${user.id}/avatar`, {
      raw: form.payload,
      headers: form.headers,
      cookie: user.cookie,
    });
    expect(up.status, up.body).toBe(200);
    const url = up.json().profileImage as string;
    expect(url).toMatch(/^\/uploads\//);
    const original = await request(one.url, 'GET', url);
    expect(original.status, original.body.slice(0, 200)).toBe(200);
    expect(original.bytes.length).toBeGreaterThan(0);
    // Each instance has a DATA_DIR of its own (as separate machines): every one serves the same
    // bytes under the same strong ETag, and so does the balancer whichever instance it picks.
    for (const base of [...fleet.instances.map((i) => i.url), lb, lb, lb]) {
      const served = await request(base, 'GET', url);
      expect(served.status, `${base}${url}: ${served.body.slice(0, 200)}`).toBe(200);
      expect(Buffer.compare(served.bytes, original.bytes), base).toBe(0);
      expect(served.headers.etag, base).toBe(original.headers.etag);
      expect(served.headers['content-type'], base).toBe(original.headers['content-type']);
    }
    const again = await request(fleet.instances[2].url, 'GET', url, { headers: { 'if-none-match': String(original.headers.etag) } });
    expect(again.status).toBe(304);
    // The profile names it through every instance too.
    const me = await request(fleet.instances[1].url, 'GET', '/api/me', { cookie: user.cookie });
    expect(me.json().profileImage).toBe(url);
  });

  it('kill -9 of an instance mid-stream loses no acknowledged write, and every socket ends with every message', async () => {
    const victim = fleet.instances[1];
    const ada = await signedInUser(lb, 'fleet-kill-ada');
    const bob = await signedInUser(lb, 'fleet-kill-bob');
    // Bob's tabs: one on each instance and three through the balancer (spread by it).
    const tabs = [
      ...(await Promise.all(fleet.instances.map((i) => openSocket(i.url, { cookie: bob.cookie })))),
      ...(await Promise.all([0, 1, 2].map(() => openSocket(lb, { cookie: bob.cookie })))),
    ].map(opened);
    const closedEarly = new Set<TestSocket>();
    for (const tab of tabs) void tab.closed.then(() => closedEarly.add(tab));

    let killedAt = 0;
    let killed: Promise<number | string> | null = null;
    let acknowledged = 0;
    const sent = await runLoad({
      concurrency: 4,
      maxRequests: 120,
      pauseMs: 15,
      send: (i) =>
        request(lb, 'POST', `/api/mailbox/conversations/${bob.id}/messages`, {
          cookie: ada.cookie,
          body: { body: `stream #${i}`, clientId: randomUUID() },
        }),
      onAnswer: ({ answer }) => {
        if (answer.status === 201 && ++acknowledged === 40) {
          killedAt = Date.now();
          killed = victim.kill('SIGKILL');
        }
      },
    });
    expect(killedAt).toBeGreaterThan(0);
    expect(await killed).toBe('SIGKILL');

    const answers = sent.map((s) => s.answer);
    const acked = answers.filter((a) => a.status === 201).map((a) => a.json().message.id as string);
    const stored = await admin.query<{ id: string }>(
      `select m.id::text from message m join conversation_member cm on cm.conversation_id = m.conversation_id
       where cm.user_id = $1 and cm.other_user_id = $2`,
      [ada.id, bob.id],
    );
    const storedIds = new Set(stored.rows.map((r) => r.id));
    const lost = acked.filter((id) => !storedIds.has(id));
    // Only requests in flight on the killed instance may go unanswered (502 from HAProxy):
    // at most one per concurrent sender; every later one went to a live instance.
    const failed = sent.filter((s) => s.answer.status !== 201);
    const counts = tally(answers);

    // Each tab as the web client keeps it: the pushes it heard; a tab whose socket died
    // reconnects through the balancer and refetches the conversation (useRealtimeReconnect).
    await waitUntil(
      'the live tabs to hear every acknowledged message',
      () => tabs.filter((t) => !closedEarly.has(t)).every((t) => acked.every((id) => newMessageIds(t).includes(id))),
      30_000,
    );
    const ends: { live: boolean; missing: number }[] = [];
    for (const tab of tabs) {
      const known = new Set(newMessageIds(tab));
      const live = !closedEarly.has(tab);
      if (!live) {
        const again = opened(await openSocket(lb, { cookie: bob.cookie }));
        const page = await request(lb, 'GET', `/api/mailbox/conversations/${ada.id}?limit=100`, { cookie: bob.cookie });
        expect(page.status, page.body).toBe(200);
        let body = page.json();
        for (const m of body.messages) known.add(m.id);
        while (body.hasNewer) {
          const next = await request(lb, 'GET', `/api/mailbox/conversations/${ada.id}?limit=100&after=${body.messages.at(-1).id}`, {
            cookie: bob.cookie,
          });
          body = next.json();
          for (const m of body.messages) known.add(m.id);
        }
        again.close();
      }
      ends.push({ live, missing: acked.filter((id) => !known.has(id)).length });
    }
    for (const tab of tabs) tab.close();
    console.log(
      `  [fleet] kill -9 mid-stream: requests ${counts.requests}, 201 ${acked.length}, failed ${failed.length} (${failed.map((f) => f.answer.status ?? f.answer.error).join(', ')}), lost ${lost.length}; tabs ${tabs.length} (${ends.filter((e) => !e.live).length} cut, reconnected and refetched), missing per tab ${ends.map((e) => e.missing).join('/')}`,
    );

    expect(lost).toEqual([]);
    expect(failed.length).toBeLessThanOrEqual(4);
    for (const f of failed) expect(f.startedAt).toBeLessThanOrEqual(killedAt + 2000);
    expect(answers.filter((a) => a.status !== null && a.status >= 400 && a.status < 500).map((a) => a.body)).toEqual([]);
    // The killed instance's tab died with it; the others stayed open.
    expect(ends.filter((e) => !e.live).length).toBeGreaterThanOrEqual(1);
    expect(ends.map((e) => e.missing)).toEqual(tabs.map(() => 0));
    expect(acked.length).toBeGreaterThan(100);

    // Back while the next test runs (it needs two instances up, not three).
    restartLater(1);
  });

  it('SIGTERM to an instance under load fails no request: HAProxy retries what it refused', async () => {
    const victim = fleet.instances[0];
    const educator = await educatorUser(lb, 'fleet-sigterm');
    const tag = `fleet-sigterm-${randomUUID()}`;
    let signalled = false;
    let acknowledged = 0;
    let exit: Promise<number | string> | null = null;
    const sent = await runLoad({
      concurrency: 8,
      maxRequests: 240,
      pauseMs: 10,
      send: (i) => request(lb, 'POST', '/api/courses', { cookie: educator.cookie, body: courseBody(`${tag} #${i}`) }),
      onAnswer: ({ answer }) => {
        if (answer.status === 201 && ++acknowledged === 60 && !signalled) {
          signalled = true;
          exit = victim.kill('SIGTERM');
        }
      },
    });
    expect(signalled).toBe(true);
    expect(await exit).toBe(0);
    const answers = sent.map((s) => s.answer);
    const counts = tally(answers);
    const acked = answers.filter((a) => a.status === 201).map((a) => a.json().id as string);
    const stored = await admin.query<{ id: string }>('select id from course where title like $1', [`${tag} #%`]);
    const storedIds = new Set(stored.rows.map((r) => r.id));
    const servers = await fleet.servers();
    console.log(
      `  [fleet] SIGTERM under load: requests ${counts.requests}, 2xx ${counts.ok}, 503 ${counts.unavailable}, 5xx other ${counts.otherServerErrors}, 4xx ${counts.other}, no answer ${counts.noAnswer}, stored ${storedIds.size}; HAProxy retries ${servers.map((s) => `${s.name} ${s.retries}/${s.redispatches}`).join(', ')}`,
    );
    expect(answers.filter((a) => a.status !== 201).map((a) => `${a.status ?? a.error} ${a.body.slice(0, 200)}`)).toEqual([]);
    expect(acked.filter((id) => !storedIds.has(id))).toEqual([]);
    expect(storedIds.size).toBe(acked.length);

    await allUp();
  });

  it('an instance restarted on its data directory rejoins the balancer and serves', async () => {
    // The kills above left two instances to restart: each answers again, and HAProxy routes to it.
    await allUp();
    for (const instance of fleet.instances) expect((await request(instance.url, 'GET', '/api/health')).status).toBe(200);
    expect((await fleet.servers()).map((s) => s.status)).toEqual(['UP', 'UP', 'UP']);
  });

  // Opt-in (FLEET_S3=1): two more processes cost 8 s on a quiet two-core machine but 37 s on a
  // loaded one (the suite then passed 120 s); tests/api/storage/shared.test.ts proves the same
  // with two in-process instances on every run.
  it.runIf(process.env.FLEET_S3 === '1')(
    'with S3 storage (a real S3-compatible server): an upload through one instance is served by the other and the balancer',
    async () => {
      // Two more instances of their own, on the same (migrated) database, with the harness's
      // s3rver as their file store; the shared three keep theirs in PostgreSQL.
      const withS3 = await startFleet({
        instances: 2,
        databaseUrl: run.url,
        s3: true,
        env: { AUTH_RATE_LIMIT: '100000', LOG_LEVEL: 'error', SHUTDOWN_DELAY_MS: '0' },
      });
      try {
        const [one, two] = withS3.instances;
        const user = await signedInUser(withS3.balancerUrl, 'fleet-s3');
        const form = await fileForm({ data: await uniquePng(), filename: 'me.png', type: 'image/png' });
        const up = await request(one.url, 'POST', `/api/users/${user.id}/avatar`, {
          raw: form.payload,
          headers: form.headers,
          cookie: user.cookie,
        });
        expect(up.status, up.body).toBe(200);
        const url = up.json().profileImage as string;
        const original = await request(one.url, 'GET', url);
        expect(original.status, original.body.slice(0, 200)).toBe(200);
        for (const base of [two.url, withS3.balancerUrl, withS3.balancerUrl]) {
          const served = await request(base, 'GET', url);
          expect(served.status, `${base}${url}: ${served.body.slice(0, 200)}`).toBe(200);
          expect(Buffer.compare(served.bytes, original.bytes), base).toBe(0);
          expect(served.headers.etag, base).toBe(original.headers.etag);
        }
        // In the bucket, not in the database: the PostgreSQL-backed instances do not have it.
        expect((await request(fleet.instances[0].url, 'GET', url)).status).toBe(404);
      } finally {
        await withS3.stop();
      }
    },
  );

  it('the database refusing connections answers 503 (never 500) on every instance and through the balancer, and all recover', async () => {
    const ada = await signedInUser(lb, 'fleet-refused');
    const maintenance = new URL(run.url);
    maintenance.pathname = '/postgres';
    const dba = new pg.Client({ connectionString: maintenance.toString() });
    await dba.connect();
    const keep = (await admin.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
    const seen: string[] = [];
    try {
      // What an operator's maintenance does: no new connection (SQLSTATE 55000), the open ones
      // ended (57P01). Only this test's own connection stays, to put things back.
      await dba.query(`alter database "${run.name}" allow_connections false`);
      await dba.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> $2', [run.name, keep]);
      const statuses: (number | string | null)[] = [];
      for (const instance of fleet.instances) {
        let last = '';
        await waitUntil(
          `${instance.name} to answer 503 on an API route`,
          async () => {
            const me = await request(instance.url, 'GET', '/api/me', { cookie: ada.cookie });
            last = `${me.status} ${me.body.slice(0, 300)}`;
            statuses.push(me.status ?? me.error);
            return me.status === 503;
          },
          30_000,
        ).catch((err) => {
          throw new Error(`${(err as Error).message}; last answer ${last}`);
        });
        // On the way there (pool connections ending one by one): a 200 or a 503, never a 500.
        expect(statuses.filter((st) => st !== 200 && st !== 503)).toEqual([]);
        seen.push(`${instance.name} ${last.slice(0, 120)}`);
        expect(JSON.parse(last.slice(4)).error.message).toMatch(/\S/);
        // Not ready (the balancer stops sending it requests), but alive (nothing restarts it).
        expect((await request(instance.url, 'GET', '/api/health/ready')).status).toBe(503);
        expect((await request(instance.url, 'GET', '/api/health/live')).status).toBe(200);
      }
      const through = await request(lb, 'GET', '/api/me', { cookie: ada.cookie });
      seen.push(`balancer ${through.status} ${through.body.slice(0, 80).replace(/\s+/g, ' ')}`);
      expect(through.status, through.body).toBe(503);
      const write = await request(lb, 'POST', '/api/courses', { cookie: ada.cookie, body: courseBody('Refused') });
      expect(write.status, write.body).toBe(503);
    } finally {
      await dba.query(`alter database "${run.name}" allow_connections true`);
      await dba.end();
    }
    console.log(`  [fleet] database refusing connections: ${seen.join('; ')}`);
    // Back without a restart: every instance answers again and HAProxy routes to all three.
    await fleet.balancerSees([0, 1, 2]);
    for (const instance of fleet.instances) expect(instance.exit(), instance.output()).toBeNull();
    for (const base of [...fleet.instances.map((i) => i.url), lb]) {
      const me = await request(base, 'GET', '/api/me', { cookie: ada.cookie });
      expect(me.status, `${base}: ${me.body}`).toBe(200);
      expect(me.json().id).toBe(ada.id);
    }
  });
});
