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
import { createHmac, randomBytes, randomUUID } from 'node:crypto';

import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import WebSocket from 'ws';
import { cleanup, cleanupOnSignals, onCleanup } from './lib/cleanup.js';
import { envInt, runMain } from './lib/cli.js';
import { createBenchDatabase } from './lib/database.js';
import { startBenchServer, type RunningServer } from './lib/server.js';
import { table, writeResults } from './lib/report.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench/results/realtime-latest.json');
const AUTH_SECRET = `bench-${randomBytes(24).toString('hex')}`;
const COOKIE = 'agora.session_token';

const SOCKETS = envInt('REALTIME_BENCH_SOCKETS', 1000, 2);
const RATE = envInt('REALTIME_BENCH_RATE', 200);
const SECONDS = envInt('REALTIME_BENCH_SECONDS', 15);
const STEPS = (process.env.REALTIME_BENCH_STEPS ?? '500,1000')
  .split(',')
  .filter(Boolean)
  .map((s) => Number(s));
const BUDGET = { p99Ms: 100 };
/** How long after the last send a delivery may still arrive before it counts as lost. */
const GRACE_MS = 5000;

interface Client {
  userId: string;
  cookie: string;
  server: number;
  ws?: WebSocket;
}

interface PhaseResult {
  name: string;
  rate: number;
  sent: number;
  httpErrors: number;
  /** Events heard by a socket of another user than the recipient (must be 0). */
  misdelivered: number;
  delivered: number;
  /** Sends the server accepted (200) whose event never reached the recipient's socket. */
  lost: number;
  duplicated: number;
  p50: number;
  p99: number;
  max: number;
  /** The send request's own round trip (insert + publish + answer). */
  httpP50: number;
  httpP99: number;
  /** From the publish (after the insert committed) to the receipt: NOTIFY, listener, socket, client. */
  fanOutP50: number;
  fanOutP99: number;
  cross?: { delivered: number; p50: number; p99: number };
  same?: { delivered: number; p50: number; p99: number };
}

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

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
  const clients = await makeUsers(db, SOCKETS);
  await db.query('create table bench_message (id bigserial primary key, from_id uuid not null, to_id uuid not null, seq integer not null)');
  console.log(`Users: ${clients.length} with a sign-in session each\n`);

  const results: PhaseResult[] = [];

  // Part 2: one process.
  for (const c of clients) c.server = 0;
  await openSockets(clients, servers);
  results.push(await run('one process', clients, servers, RATE, SECONDS));
  closeSockets(clients);

  // Part 3: two processes on one database.
  await start();
  clients.forEach((c, i) => (c.server = i % 2));
  await openSockets(clients, servers);
  results.push(await run('two processes', clients, servers, RATE, SECONDS));

  // Part 4: the ceiling, through the same two processes.
  for (const rate of STEPS) results.push(await run(`two processes, ${rate}/s`, clients, servers, rate, 5));
  closeSockets(clients);
  const notify = await notifyThroughput(database.url);

  // Report.
  console.log('');
  table(
    [
      'part',
      'rate/s',
      'sent',
      'delivered',
      'lost',
      'dup',
      'http err',
      'p50 ms',
      'p99 ms',
      'max ms',
      'send p50',
      'send p99',
      'fan-out p50',
      'fan-out p99',
    ],
    results.map((r) => [
      r.name,
      String(r.rate),
      String(r.sent),
      String(r.delivered),
      String(r.lost),
      String(r.duplicated),
      String(r.httpErrors),
      ms(r.p50),
      ms(r.p99),
      ms(r.max),
      ms(r.httpP50),
      ms(r.httpP99),
      ms(r.fanOutP50),
      ms(r.fanOutP99),
    ]),
  );
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

  const failures: string[] = [];
  for (const r of results.slice(0, 2)) {
    if (!(r.p99 < BUDGET.p99Ms)) failures.push(`${r.name}: p99 ${ms(r.p99)} ms >= ${BUDGET.p99Ms} ms`);
    if (r.lost) failures.push(`${r.name}: ${r.lost} lost`);
    if (r.duplicated) failures.push(`${r.name}: ${r.duplicated} duplicated`);
    if (r.httpErrors) failures.push(`${r.name}: ${r.httpErrors} sends failed`);
    if (r.misdelivered) failures.push(`${r.name}: ${r.misdelivered} events reached another user`);
  }
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

/** N verified users with one sign-in session each, and their session cookies (signed as better-auth does). */
async function makeUsers(db: pg.Client, n: number): Promise<Client[]> {
  const clients: Client[] = [];
  for (let from = 0; from < n; from += 500) {
    const batch = Array.from({ length: Math.min(500, n - from) }, (_, i) => ({
      id: randomUUID(),
      email: `bench-${from + i}-${randomBytes(4).toString('hex')}@example.com`,
      token: randomBytes(24).toString('base64url'),
    }));
    await db.query(
      `insert into "user" (id, email, name, first_name, last_name, verified)
       select id, email, 'Bench User', 'Bench', 'User', true from unnest($1::uuid[], $2::text[]) as t(id, email)`,
      [batch.map((b) => b.id), batch.map((b) => b.email)],
    );
    await db.query(
      `insert into session (token, user_id, expires_at)
       select token, user_id, now() + interval '1 day' from unnest($1::text[], $2::uuid[]) as t(token, user_id)`,
      [batch.map((b) => b.token), batch.map((b) => b.id)],
    );
    for (const b of batch) {
      const signature = createHmac('sha256', AUTH_SECRET).update(b.token).digest('base64');
      clients.push({ userId: b.id, cookie: `${COOKIE}=${encodeURIComponent(`${b.token}.${signature}`)}`, server: 0 });
    }
  }
  return clients;
}

/** `n`: the bench's own number of the message (`seq` is the user's realtime sequence number, ADR 0061). */
type Handler = (message: { type: string; n?: number; publishedAt?: number }) => void;
const handlers = new WeakMap<WebSocket, Handler>();

/** Opens every client's socket on its server, 50 at a time; resolves once all said ready. */
async function openSockets(clients: Client[], servers: RunningServer[]) {
  const started = performance.now();
  for (let i = 0; i < clients.length; i += 50) {
    await Promise.all(
      clients.slice(i, i + 50).map(
        (c) =>
          new Promise<void>((resolve, reject) => {
            const base = servers[c.server].baseUrl;
            const ws = new WebSocket(base.replace(/^http/, 'ws') + '/api/realtime', {
              headers: { cookie: c.cookie, origin: base },
              perMessageDeflate: false,
            });
            c.ws = ws;
            ws.once('unexpected-response', (_req, res) => reject(new Error(`socket refused: ${res.statusCode}`)));
            ws.once('error', reject);
            ws.on('message', (data) => {
              const message = JSON.parse(String(data)) as { type: string; n?: number; publishedAt?: number };
              if (message.type === 'ready') return resolve();
              handlers.get(ws)?.(message);
            });
          }),
      ),
    );
  }
  console.log(`Opened ${clients.length} sockets in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

function closeSockets(clients: Client[]) {
  for (const c of clients) c.ws?.terminate();
}

/** `rate` messages a second for `seconds` between random pairs; every delivery timed and counted. */
async function run(name: string, clients: Client[], servers: RunningServer[], rate: number, seconds: number): Promise<PhaseResult> {
  const total = rate * seconds;
  const sentAt = new Float64Array(total);
  const crossed = new Uint8Array(total);
  const receivedAt = new Float64Array(total);
  const receipts = new Uint16Array(total);
  const answeredAt = new Float64Array(total);
  const accepted = new Uint8Array(total);
  const fanOutMs = new Float64Array(total).fill(NaN);
  const expectedBy = new Int32Array(total).fill(-1);
  let httpErrors = 0;
  let misdelivered = 0;
  // Sequence numbers are per run; each socket records what it hears.
  clients.forEach((c, index) =>
    handlers.set(c.ws!, (m) => {
      if (m.type !== 'bench.message' || typeof m.n !== 'number' || m.n >= total) return;
      if (expectedBy[m.n] !== index) return void misdelivered++; // another user's event: must never happen
      if (receipts[m.n]++ === 0) {
        receivedAt[m.n] = performance.now();
        if (typeof m.publishedAt === 'number') fanOutMs[m.n] = Date.now() - m.publishedAt;
      }
    }),
  );
  const inFlight: Promise<void>[] = [];
  const started = performance.now();
  for (let seq = 0; seq < total; seq++) {
    const due = started + (seq * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const from = Math.floor(Math.random() * clients.length);
    let to = Math.floor(Math.random() * (clients.length - 1));
    if (to >= from) to++;
    const via = Math.floor(Math.random() * servers.length);
    expectedBy[seq] = to;
    crossed[seq] = via === clients[to].server ? 0 : 1;
    sentAt[seq] = performance.now();
    inFlight.push(
      fetch(`${servers[via].baseUrl}/api/bench/realtime/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: servers[via].baseUrl },
        body: JSON.stringify({ from: clients[from].userId, to: clients[to].userId, seq }),
      })
        .then(async (res) => {
          await res.arrayBuffer();
          answeredAt[seq] = performance.now();
          if (res.status === 200) accepted[seq] = 1;
          else httpErrors++;
        })
        .catch(() => {
          httpErrors++;
        }),
    );
  }
  await Promise.all(inFlight);
  const until = performance.now() + GRACE_MS;
  while (performance.now() < until && receipts.some((r, seq) => r === 0 && accepted[seq])) await sleep(50);

  const all: number[] = [];
  const cross: number[] = [];
  const same: number[] = [];
  let lost = 0;
  let duplicated = 0;
  for (let seq = 0; seq < total; seq++) {
    if (receipts[seq] === 0) {
      // A send the server refused (or that never answered) is counted in httpErrors, not lost.
      if (accepted[seq]) lost++;
      continue;
    }
    if (receipts[seq] > 1) duplicated += receipts[seq] - 1;
    const latency = receivedAt[seq] - sentAt[seq];
    all.push(latency);
    (crossed[seq] ? cross : same).push(latency);
  }
  const http = Array.from(answeredAt, (t, seq) => t - sentAt[seq]).filter((t) => t > 0);
  const fan = Array.from(fanOutMs).filter((t) => Number.isFinite(t));
  for (const list of [all, cross, same, http, fan]) list.sort((a, b) => a - b);
  const result: PhaseResult = {
    name,
    rate,
    sent: total,
    httpErrors,
    misdelivered,
    delivered: all.length,
    lost,
    duplicated,
    p50: pct(all, 50),
    p99: pct(all, 99),
    max: all[all.length - 1] ?? NaN,
    httpP50: pct(http, 50),
    httpP99: pct(http, 99),
    fanOutP50: pct(fan, 50),
    fanOutP99: pct(fan, 99),
  };
  if (servers.length > 1) {
    result.cross = { delivered: cross.length, p50: pct(cross, 50), p99: pct(cross, 99) };
    result.same = { delivered: same.length, p50: pct(same, 50), p99: pct(same, 99) };
  }
  console.log(
    `  ${name}: ${total} sent at ${rate}/s, ${all.length} delivered, ${lost} lost, ${duplicated} duplicated, p50 ${ms(result.p50)} ms, p99 ${ms(result.p99)} ms (the send request: p50 ${ms(result.httpP50)}, p99 ${ms(result.httpP99)} ms; publish to receipt: p50 ${ms(result.fanOutP50)}, p99 ${ms(result.fanOutP99)} ms)`,
  );
  return result;
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
