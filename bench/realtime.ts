/**
 * The realtime bench (issue 10), part of `npm run bench`; alone: `npm run bench -- --realtime-only`.
 *
 *   1. a fresh PostgreSQL database, the real server in a child process (BENCH_ROUTES), and
 *      1,000 users with a sign-in session each (written straight to the database: signing
 *      up 1,000 people through the API would measure password hashing);
 *   2. one process: 1,000 open WebSockets, 200 messages a second between random pairs,
 *      each sent through POST /api/bench/realtime/send (an insert, then a publish after
 *      the commit); the latency of each delivery, from just before the POST to the
 *      receipt on the recipient's socket; lost and duplicated deliveries;
 *   3. two processes on the same database, the sockets split between them, each message
 *      sent to either at random: the same figures, and those of the deliveries that crossed
 *      processes (the fan-out's cost, as a ratio of the one-process p50/p99);
 *   4. the ceiling: higher rates through the two processes, and raw NOTIFY throughput.
 *
 * Beside send-to-receipt, each part reports the send request alone (HTTP, insert, publish)
 * and publish-to-receipt (the fan-out alone: NOTIFY, the listener, the socket), timed with
 * the clock the bench and the servers share on this machine.
 *
 * Budget: p99 < 100 ms, 0 lost, 0 duplicated, in parts 2 and 3. Figures go to
 * bench/results/realtime-latest.json. REALTIME_BENCH_SOCKETS, REALTIME_BENCH_RATE,
 * REALTIME_BENCH_SECONDS and REALTIME_BENCH_STEPS ("500,1000"; "" for none) override.
 */
import { randomBytes, randomUUID } from 'node:crypto';

import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { cleanup, cleanupOnSignals, onCleanup } from './lib/cleanup.js';
import { envInt, runMain } from './lib/cli.js';
import { createBenchDatabase } from './lib/database.js';
import { startBenchServer, type RunningServer } from './lib/server.js';
import { writeResults } from './lib/report.js';
import { closeSockets, makeUsers, ms, openSockets, partFailures, partsTable, runMessages, sleep, type Part } from './lib/sockets.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench/results/realtime-latest.json');
const AUTH_SECRET = `bench-${randomBytes(24).toString('hex')}`;

const SOCKETS = envInt('REALTIME_BENCH_SOCKETS', 1000, 2);
const RATE = envInt('REALTIME_BENCH_RATE', 200);
const SECONDS = envInt('REALTIME_BENCH_SECONDS', 15);
const STEPS = (process.env.REALTIME_BENCH_STEPS ?? '500,1000')
  .split(',')
  .filter(Boolean)
  .map((s) => Number(s));
const BUDGET = { p99Ms: 100 };
async function main() {
  cleanupOnSignals();
  console.log(
    `Agora realtime bench — ${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(2)}`,
  );
  console.log(`Load: ${SOCKETS} WebSockets, ${RATE} messages/s between random pairs for ${SECONDS} s per part\n`);
  const loadBefore = os.loadavg()[0];

  const database = await createBenchDatabase();
  if (database.kind !== 'postgres') throw new Error(`the realtime bench needs PostgreSQL: ${database.reason}`);
  console.log(`Database: PostgreSQL, fresh database ${database.name} (dropped at the end)`);

  const servers: RunningServer[] = [];
  const start = async () => {
    const server = await startBenchServer({
      name: 'realtime',
      root: ROOT,
      databaseUrl: database.url,
      env: { AUTH_SECRET, SEED_DEMO: 'false' },
    });
    console.log(`Server ${servers.length + 1}: pid ${server.pid} at ${server.baseUrl}`);
    servers.push(server);
    return server;
  };
  await start();

  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  onCleanup('close the bench connection', () => db.end());
  const clients = await makeUsers(db, SOCKETS, { authSecret: AUTH_SECRET, emailPrefix: 'bench' });
  await db.query('create table bench_message (id bigserial primary key, from_id uuid not null, to_id uuid not null, seq integer not null)');
  console.log(`Users: ${clients.length} with a sign-in session each\n`);

  const baseOf = (at: number) => servers[at].baseUrl;
  const anyServer = () => Math.floor(Math.random() * servers.length);
  const run = (name: string, rate: number, seconds: number) => runMessages({ name, clients, via: anyServer, baseOf, rate, seconds });
  const results: Part[] = [];

  // Part 2: one process.
  for (const c of clients) c.at = 0;
  await openSockets(clients, baseOf, 'on one process');
  results.push(await run('one process', RATE, SECONDS));
  closeSockets(clients);

  // Part 3: two processes on one database.
  await start();
  clients.forEach((c, i) => (c.at = i % 2));
  await openSockets(clients, baseOf, 'over two processes');
  results.push(await run('two processes', RATE, SECONDS));

  // Part 4: the ceiling, through the same two processes.
  for (const rate of STEPS) results.push(await run(`two processes, ${rate}/s`, rate, 5));
  closeSockets(clients);
  const notify = await notifyThroughput(database.url);

  // Report.
  console.log('');
  partsTable(results);
  const [one, two] = results;
  const fanOut = {
    crossProcess: two.cross,
    sameProcess: two.same,
    p50Ratio: two.cross ? two.cross.p50 / one.p50 : NaN,
    p99Ratio: two.cross ? two.cross.p99 / one.p99 : NaN,
  };
  console.log(
    `\nFan-out across processes (two-process run): crossing deliveries p50 ${ms(fanOut.crossProcess?.p50 ?? NaN)} ms / p99 ${ms(fanOut.crossProcess?.p99 ?? NaN)} ms,` +
      ` staying p50 ${ms(fanOut.sameProcess?.p50 ?? NaN)} / p99 ${ms(fanOut.sameProcess?.p99 ?? NaN)} ms;` +
      ` cost vs one process: p50 x${fanOut.p50Ratio.toFixed(2)}, p99 x${fanOut.p99Ratio.toFixed(2)}`,
  );
  console.log(
    `Raw NOTIFY throughput (${notify.connections} connections, ${notify.payloadBytes}-byte payloads, one listener): ${Math.round(notify.perSecond)} notifications/s, ${notify.received}/${notify.sent} heard`,
  );

  const failures = partFailures(results.slice(0, 2), BUDGET.p99Ms);
  const loadAfter = os.loadavg()[0];
  console.log(`\nLoad average: ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after (${os.cpus().length} CPUs)`);
  writeResults(ROOT, RESULTS, { budget: BUDGET, sockets: SOCKETS, parts: results, fanOut, notify }, { loadBefore, loadAfter });

  await cleanup();
  if (failures.length) {
    console.log(`\nFAIL:\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log(`\nPASS: p99 < ${BUDGET.p99Ms} ms, nothing lost or duplicated, on one process and across two`);
  }
}

/** NOTIFY's own ceiling: 4 connections notifying as fast as they can for 3 s, one listener counting. */
async function notifyThroughput(url: string) {
  const connections = 4;
  const payload = JSON.stringify({
    u: randomUUID(),
    e: { type: 'message.new', messageId: randomUUID(), cursor: '2026-01-01T00:00:00.000Z' },
  });
  const listener = new pg.Client({ connectionString: url });
  await listener.connect();
  let received = 0;
  listener.on('notification', () => received++);
  await listener.query('LISTEN agora_bench_probe');
  const senders = await Promise.all(
    Array.from({ length: connections }, async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return c;
    }),
  );
  let sent = 0;
  const until = performance.now() + 3000;
  const started = performance.now();
  await Promise.all(
    senders.map(async (c) => {
      while (performance.now() < until) {
        await c.query(`select pg_notify('agora_bench_probe', $1)`, [payload]);
        sent++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const settle = performance.now() + 3000;
  while (received < sent && performance.now() < settle) await sleep(20);
  await Promise.all([...senders, listener].map((c) => c.end()));
  return { connections, payloadBytes: Buffer.byteLength(payload), sent, received, perSecond: sent / elapsed };
}

runMain(main);
