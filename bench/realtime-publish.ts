/**
 * What numbering and logging every realtime event costs the publish path (ADR 0061), alone:
 * `npx tsx bench/realtime-publish.ts`.
 *
 * A fresh database, 200 users present (presence rows), and the publisher's own connection
 * (`synchronous_commit = off`, as fan-out.ts). A "send" is what a message sent between two
 * present users publishes: three events (message.new to both sides, unread.changed to the
 * recipient) in one notification. Two ways, in alternating rounds (ABAB, so the shared
 * machine's drift falls on both):
 *   - before: `select pg_notify($1, $2), ...` with the JSON envelope `{m: [{u, e}, ...]}`;
 *   - after:  PUBLISH_SQL (number, log, NOTIFY in one prepared statement).
 * Batches of 1 (one send at a time) and of 20 (sends queued while a statement runs). A
 * listener on the same database hears everything and parses it as its hub does. Reported per
 * send: wall time, the publisher backend's CPU, and this process's CPU (encoding + parsing).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openDatabase } from '../src/server/db/client.js';
import { fixedText } from '../src/server/db/fixed-text.js';
import { PUBLISH_SQL, publishItems } from '../src/server/realtime/event-log.js';
import { cleanup, cleanupOnSignals } from './lib/cleanup.js';
import { envInt, runMain } from './lib/cli.js';
import { createBenchDatabase } from './lib/database.js';

const USERS = 200;
const ROUNDS = envInt('PUBLISH_BENCH_ROUNDS', 6);
const SENDS = envInt('PUBLISH_BENCH_SENDS', 600);
const OLD_CHANNEL = 'bench_realtime_old';
const NEW_CHANNEL = 'bench_realtime_new';

function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  cleanupOnSignals();
  const made = await createBenchDatabase();
  if (made.kind !== 'postgres') throw new Error(`needs PostgreSQL: ${made.reason}`);
  const database = await openDatabase({ url: made.url, dataDir: mkdtempSync(path.join(os.tmpdir(), 'agora-publish-')), poolSize: 1 });
  const users = Array.from({ length: USERS }, () => randomUUID());
  const instance = randomUUID();
  const admin = new pg.Client({ connectionString: made.url });
  await admin.connect();
  await admin.query(`insert into realtime_presence (user_id, instance_id, sockets) select u, $2, 1 from unnest($1::uuid[]) u`, [
    users,
    instance,
  ]);

  const publisher = new pg.Client({ connectionString: made.url, options: '-c synchronous_commit=off' });
  await publisher.connect();
  const {
    rows: [{ pid }],
  } = await publisher.query<{ pid: number }>('select pg_backend_pid() as pid');
  const listener = new pg.Client({ connectionString: made.url });
  await listener.connect();
  let heard = 0;
  listener.on('notification', (msg) => {
    const payload = msg.payload ?? '';
    if (msg.channel === OLD_CHANNEL) {
      const envelope = JSON.parse(payload) as { m: { u: string; e: unknown }[] };
      heard += envelope.m.length;
    } else {
      // The hub: split lines, parse each event (as if every user had a listener here).
      for (const line of payload.split('\n')) {
        const a = line.indexOf(' ', 2);
        const b = line.indexOf(' ', a + 1);
        JSON.parse(line.slice(b + 1));
        heard++;
      }
    }
  });
  await listener.query(`LISTEN ${OLD_CHANNEL}`);
  await listener.query(`LISTEN ${NEW_CHANNEL}`);

  const statement = fixedText<{ channel: string; items: string }>(() => PUBLISH_SQL);
  const sendEvents = (n: number): [string, Record<string, unknown>][] => {
    const me = users[n % USERS];
    const other = users[(n * 7 + 3) % USERS];
    const id = String(1_000_000 + n);
    return [
      [other, { type: 'message.new', messageId: id, conversationWith: me, cursor: id }],
      [other, { type: 'unread.changed', counter: 'messages' }],
      [me, { type: 'message.new', messageId: id, conversationWith: other, cursor: id }],
    ];
  };

  async function runOld(batch: number) {
    for (let n = 0; n < SENDS; n += batch) {
      const payloads = [];
      for (let k = n; k < Math.min(SENDS, n + batch); k++) payloads.push(JSON.stringify({ m: sendEvents(k).map(([u, e]) => ({ u, e })) }));
      const text = 'select ' + payloads.map((_, i) => `pg_notify($1, $${i + 2})`).join(', ');
      await publisher.query(text, [OLD_CHANNEL, ...payloads]);
    }
  }
  async function runNew(batch: number) {
    for (let n = 0; n < SENDS; n += batch) {
      const outs = [];
      for (let k = n; k < Math.min(SENDS, n + batch); k++)
        outs.push({ events: sendEvents(k).map(([u, e]) => [u, JSON.stringify(e)] as [string, string]) });
      const { sql: text, params } = statement({ channel: NEW_CHANNEL, items: publishItems(outs) });
      await publisher.query({ name: 'realtime.publish', text, values: params });
    }
  }

  const measure = async (run: () => Promise<void>) => {
    const expected = heard + SENDS * 3;
    const cpu0 = process.cpuUsage();
    const db0 = cpuMsOf(pid);
    const t0 = performance.now();
    await run();
    while (heard < expected) await new Promise((r) => setTimeout(r, 5));
    const wall = performance.now() - t0;
    const node = process.cpuUsage(cpu0);
    return { wallMs: wall / SENDS, dbMs: (cpuMsOf(pid) - db0) / SENDS, nodeMs: (node.user + node.system) / 1000 / SENDS };
  };

  console.log(`Publish path per send (3 events), ${SENDS} sends a round, ${ROUNDS} rounds each, load ${os.loadavg()[0].toFixed(1)}`);
  const results: Record<string, string | number>[] = [];
  for (const batch of [1, 20]) {
    // Warm-up (plans, caches), then alternating rounds.
    await runOld(batch);
    await runNew(batch);
    const old: Awaited<ReturnType<typeof measure>>[] = [];
    const neu: Awaited<ReturnType<typeof measure>>[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      old.push(await measure(() => runOld(batch)));
      neu.push(await measure(() => runNew(batch)));
    }
    for (const key of ['wallMs', 'dbMs', 'nodeMs'] as const) {
      const o = median(old.map((x) => x[key]));
      const n = median(neu.map((x) => x[key]));
      results.push({ batch, measure: key, before: o.toFixed(3), after: n.toFixed(3), 'after ÷ before': (n / o).toFixed(2) });
    }
  }
  console.table(results);
  const { rows } = await admin.query<{ n: string }>('select count(*) as n from realtime_event');
  console.log(`log rows written: ${rows[0].n}`);
  await Promise.all([publisher.end(), listener.end(), admin.end(), database.close()]);
}

runMain(async () => {
  try {
    await main();
  } finally {
    await cleanup();
  }
});
