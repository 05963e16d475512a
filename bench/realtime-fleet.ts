/**
 * The realtime bench across a fleet (issue 24), part of `npm run bench`; alone:
 * `npm run bench:realtime-fleet` or `npm run bench -- --realtime-fleet-only`.
 *
 *   1. a fresh PostgreSQL database and the fleet of tests/support/fleet.ts (three instances,
 *      each with its own data directory, behind HAProxy configured by deploy/haproxy.cfg), and
 *      N users with a sign-in session each, written straight to the database (signing up 1,000
 *      people through the API would measure password hashing);
 *   2. the baseline, in the same run: every socket on instance 1, every message sent to it
 *      (one process, as bench/realtime.ts measures it);
 *   3. the sockets spread over the three instances (socket i on instance i mod 3), each message
 *      sent to one of the three at random: the deliveries that crossed instances (PostgreSQL's
 *      NOTIFY between processes) apart from those that stayed on one;
 *   4. as users connect: every socket and every send through the balancer.
 *
 * Each message is one POST /api/bench/realtime/send (an insert, then a publish after the
 * commit: BENCH_ROUTES); its latency runs from just before the POST to the receipt on the
 * recipient's socket; lost (accepted but never heard) and duplicated deliveries are counted,
 * and so are events heard by another user's socket (never allowed).
 *
 * Budget, parts 3 and 4: p99 < 100 ms, 0 lost, 0 duplicated, 0 failed sends; the ratios to
 * the baseline are reported beside. REALTIME_FLEET_SOCKETS (1000), REALTIME_FLEET_RATE (200
 * a second), REALTIME_FLEET_SECONDS (10 per part) scale it for a smaller machine. Figures go to
 * bench/results/realtime-fleet-latest.json.
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
import { table, writeResults } from './lib/report.js';
import { startFleet } from '../tests/support/fleet.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench/results/realtime-fleet-latest.json');
const AUTH_SECRET = `bench-${randomBytes(24).toString('hex')}`;
const COOKIE = 'agora.session_token';

const SOCKETS = envInt('REALTIME_FLEET_SOCKETS', 1000, 3);
const RATE = envInt('REALTIME_FLEET_RATE', 200);
const SECONDS = envInt('REALTIME_FLEET_SECONDS', 10);
const BUDGET = { p99Ms: 100 };
/** How long after the last send a delivery may still arrive before it counts as lost. */
const GRACE_MS = 5000;
/** Sockets opened at once (each is a session lookup on its instance). */
const OPEN_BATCH = 50;
const WARM_UP_SECONDS = 2;

interface Client {
  userId: string;
  cookie: string;
  /** Where its socket is: an instance's index, or -1 for the balancer. */
  at: number;
  ws?: WebSocket;
}

interface Part {
  name: string;
  rate: number;
  sent: number;
  httpErrors: number;
  misdelivered: number;
  delivered: number;
  lost: number;
  duplicated: number;
  p50: number;
  p99: number;
  max: number;
  /** The send request alone (HTTP, insert, publish, answer). */
  sendP50: number;
  sendP99: number;
  /** From the publish (after the insert committed) to the receipt. */
  fanOutP50: number;
  fanOutP99: number;
  /** Deliveries whose socket was on another instance than the one the message was sent to. */
  cross?: { delivered: number; p50: number; p99: number };
  same?: { delivered: number; p50: number; p99: number };
}

/** A bench.message as heard: `n` is the bench's number (`seq` before the per-user sequence took that name). */
type Heard = { type: string; n?: number; seq?: number; publishedAt?: number };

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');
const ratio = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : NaN);
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

async function main() {
  cleanupOnSignals();
  console.log(
    `Agora realtime fleet bench — ${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(2)}`,
  );
  console.log(`Load: ${SOCKETS} WebSockets, ${RATE} messages/s between random pairs for ${SECONDS} s per part\n`);
  const loadBefore = os.loadavg()[0];

  const database = await createBenchDatabase();
  if (database.kind !== 'postgres') throw new Error(`the realtime fleet bench needs PostgreSQL: ${database.reason}`);
  const fleet = await startFleet({
    databaseUrl: database.url,
    // All at once on the empty database: the migrations run once, under their advisory lock.
    start: 'together',
    env: { AUTH_SECRET, BENCH_ROUTES: 'true', LOG_LEVEL: 'error', AUTH_RATE_LIMIT: '100000' },
  });
  onCleanup('stop the fleet', () => fleet.stop());
  console.log(
    `Fleet: ${fleet.instances.map((i) => `${i.name} pid ${i.pid}`).join(', ')}, HAProxy pid ${fleet.haproxyPid} at ${fleet.balancerUrl}`,
  );
  const instanceUrls = fleet.instances.map((i) => i.url);
  const baseOf = (at: number) => (at < 0 ? fleet.balancerUrl : instanceUrls[at]);

  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  onCleanup('close the bench connection', () => db.end());
  const clients = await makeUsers(db, SOCKETS);
  await db.query('create table bench_message (id bigserial primary key, from_id uuid not null, to_id uuid not null, seq integer not null)');
  console.log(`Users: ${clients.length} with a sign-in session each\n`);

  const parts: Part[] = [];
  // 2. The baseline: one instance. First a warm-up (not counted): each instance's send route
  // and fan-out compiled and its pool filled, so the baseline is not the coldest part.
  for (const c of clients) c.at = 0;
  await openSockets(clients, baseOf, 'on instance 1');
  await run('warm-up (not counted)', clients, () => Math.floor(Math.random() * fleet.instances.length), baseOf, WARM_UP_SECONDS);
  parts.push(await run('one instance (baseline)', clients, () => 0, baseOf));
  closeSockets(clients);

  // 3. Spread over the three, each message sent to any of them.
  clients.forEach((c, i) => (c.at = i % fleet.instances.length));
  await openSockets(clients, baseOf, 'spread over the three instances');
  parts.push(await run('three instances', clients, () => Math.floor(Math.random() * fleet.instances.length), baseOf));
  closeSockets(clients);

  // 4. As users connect: through the balancer, both ways.
  const before = await fleet.servers();
  for (const c of clients) c.at = -1;
  await openSockets(clients, baseOf, 'through the balancer');
  const spread = (await fleet.servers()).map((s) => `${s.name} ${s.sessions - (before.find((b) => b.name === s.name)?.sessions ?? 0)}`);
  console.log(`  HAProxy put the sockets on: ${spread.join(', ')}`);
  parts.push(await run('three instances, through the balancer', clients, () => -1, baseOf));
  closeSockets(clients);

  console.log('');
  table(
    [
      'part',
      'rate/s',
      'sent',
      'delivered',
      'lost',
      'dup',
      'send err',
      'p50 ms',
      'p99 ms',
      'max ms',
      'send p50',
      'send p99',
      'fan-out p50',
      'fan-out p99',
    ],
    parts.map((r) => [
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
      ms(r.sendP50),
      ms(r.sendP99),
      ms(r.fanOutP50),
      ms(r.fanOutP99),
    ]),
  );
  const [base, spreadPart, balanced] = parts;
  const ratios = {
    threeP50: ratio(spreadPart.p50, base.p50),
    threeP99: ratio(spreadPart.p99, base.p99),
    crossP50: ratio(spreadPart.cross?.p50 ?? NaN, base.p50),
    crossP99: ratio(spreadPart.cross?.p99 ?? NaN, base.p99),
    balancerP50: ratio(balanced.p50, base.p50),
    balancerP99: ratio(balanced.p99, base.p99),
  };
  console.log(
    `\nThree instances (direct): crossing deliveries ${spreadPart.cross?.delivered ?? 0}, p50 ${ms(spreadPart.cross?.p50 ?? NaN)} / p99 ${ms(spreadPart.cross?.p99 ?? NaN)} ms;` +
      ` staying ${spreadPart.same?.delivered ?? 0}, p50 ${ms(spreadPart.same?.p50 ?? NaN)} / p99 ${ms(spreadPart.same?.p99 ?? NaN)} ms`,
  );
  console.log(
    `Against the baseline (one instance, same run): three instances p50 x${ratios.threeP50.toFixed(2)}, p99 x${ratios.threeP99.toFixed(2)}` +
      ` (crossing deliveries p50 x${ratios.crossP50.toFixed(2)}, p99 x${ratios.crossP99.toFixed(2)});` +
      ` through the balancer p50 x${ratios.balancerP50.toFixed(2)}, p99 x${ratios.balancerP99.toFixed(2)}`,
  );

  const failures: string[] = [];
  for (const r of [spreadPart, balanced]) {
    if (!(r.p99 < BUDGET.p99Ms)) failures.push(`${r.name}: p99 ${ms(r.p99)} ms >= ${BUDGET.p99Ms} ms`);
    if (r.lost) failures.push(`${r.name}: ${r.lost} lost`);
    if (r.duplicated) failures.push(`${r.name}: ${r.duplicated} duplicated`);
    if (r.httpErrors) failures.push(`${r.name}: ${r.httpErrors} sends failed`);
    if (r.misdelivered) failures.push(`${r.name}: ${r.misdelivered} events reached another user`);
  }
  const loadAfter = os.loadavg()[0];
  console.log(`\nLoad average: ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after (${os.cpus().length} CPUs)`);
  writeResults(
    ROOT,
    RESULTS,
    { budget: BUDGET, sockets: SOCKETS, rate: RATE, seconds: SECONDS, instances: fleet.instances.length, parts, ratios, failures },
    { loadBefore, loadAfter },
  );
  await cleanup();
  if (failures.length) {
    console.log(`\nRealtime fleet bench: FAIL\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log(`\nRealtime fleet bench: PASS (p99 < ${BUDGET.p99Ms} ms, nothing lost or duplicated across three instances)`);
  }
}

/** N verified users with one sign-in session each, and their session cookies (signed as better-auth does). */
async function makeUsers(db: pg.Client, n: number): Promise<Client[]> {
  const clients: Client[] = [];
  for (let from = 0; from < n; from += 500) {
    const batch = Array.from({ length: Math.min(500, n - from) }, (_, i) => ({
      id: randomUUID(),
      email: `bench-fleet-${from + i}-${randomBytes(4).toString('hex')}@example.com`,
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
      clients.push({ userId: b.id, cookie: `${COOKIE}=${encodeURIComponent(`${b.token}.${signature}`)}`, at: 0 });
    }
  }
  return clients;
}

const handlers = new WeakMap<WebSocket, (message: Heard) => void>();

/** Opens every client's socket where `at` says, OPEN_BATCH at a time; resolves once all said ready. */
async function openSockets(clients: Client[], baseOf: (at: number) => string, where: string) {
  const started = performance.now();
  for (let i = 0; i < clients.length; i += OPEN_BATCH) {
    await Promise.all(
      clients.slice(i, i + OPEN_BATCH).map(
        (c) =>
          new Promise<void>((resolve, reject) => {
            const base = baseOf(c.at);
            const ws = new WebSocket(base.replace(/^http/, 'ws') + '/api/realtime', {
              headers: { cookie: c.cookie, origin: base },
              perMessageDeflate: false,
            });
            c.ws = ws;
            ws.once('unexpected-response', (_req, res) => reject(new Error(`socket refused by ${base}: ${res.statusCode}`)));
            ws.once('error', reject);
            ws.on('message', (data) => {
              const message = JSON.parse(String(data)) as Heard;
              if (message.type === 'ready') return resolve();
              handlers.get(ws)?.(message);
            });
          }),
      ),
    );
  }
  console.log(`Opened ${clients.length} sockets ${where} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

function closeSockets(clients: Client[]) {
  for (const c of clients) c.ws?.terminate();
}

/** RATE messages a second for SECONDS between random pairs, each sent where `via()` says. */
async function run(name: string, clients: Client[], via: () => number, baseOf: (at: number) => string, seconds = SECONDS): Promise<Part> {
  const total = RATE * seconds;
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
  clients.forEach((c, index) =>
    handlers.set(c.ws!, (m) => {
      const n = typeof m.n === 'number' ? m.n : m.seq;
      if (m.type !== 'bench.message' || typeof n !== 'number' || n >= total) return;
      if (expectedBy[n] !== index) return void misdelivered++;
      if (receipts[n]++ === 0) {
        receivedAt[n] = performance.now();
        if (typeof m.publishedAt === 'number') fanOutMs[n] = Date.now() - m.publishedAt;
      }
    }),
  );
  const inFlight: Promise<void>[] = [];
  const started = performance.now();
  for (let seq = 0; seq < total; seq++) {
    const due = started + (seq * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const from = Math.floor(Math.random() * clients.length);
    let to = Math.floor(Math.random() * (clients.length - 1));
    if (to >= from) to++;
    const at = via();
    const base = baseOf(at);
    expectedBy[seq] = to;
    // Through the balancer neither end's instance is known here: counted as neither.
    crossed[seq] = at < 0 || clients[to].at < 0 ? 2 : at === clients[to].at ? 0 : 1;
    sentAt[seq] = performance.now();
    inFlight.push(
      fetch(`${base}/api/bench/realtime/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base },
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
      if (accepted[seq]) lost++;
      continue;
    }
    if (receipts[seq] > 1) duplicated += receipts[seq] - 1;
    const latency = receivedAt[seq] - sentAt[seq];
    all.push(latency);
    if (crossed[seq] === 1) cross.push(latency);
    else if (crossed[seq] === 0) same.push(latency);
  }
  const send = Array.from(answeredAt, (t, seq) => t - sentAt[seq]).filter((t) => t > 0);
  const fan = Array.from(fanOutMs).filter((t) => Number.isFinite(t));
  for (const list of [all, cross, same, send, fan]) list.sort((a, b) => a - b);
  const part: Part = {
    name,
    rate: RATE,
    sent: total,
    httpErrors,
    misdelivered,
    delivered: all.length,
    lost,
    duplicated,
    p50: pct(all, 50),
    p99: pct(all, 99),
    max: all[all.length - 1] ?? NaN,
    sendP50: pct(send, 50),
    sendP99: pct(send, 99),
    fanOutP50: pct(fan, 50),
    fanOutP99: pct(fan, 99),
  };
  if (cross.length) {
    part.cross = { delivered: cross.length, p50: pct(cross, 50), p99: pct(cross, 99) };
    part.same = { delivered: same.length, p50: pct(same, 50), p99: pct(same, 99) };
  }
  console.log(
    `  ${name}: ${total} sent at ${RATE}/s, ${all.length} delivered, ${lost} lost, ${duplicated} duplicated, ${httpErrors} sends failed, p50 ${ms(part.p50)} ms, p99 ${ms(part.p99)} ms (send p50 ${ms(part.sendP50)}, p99 ${ms(part.sendP99)} ms; publish to receipt p50 ${ms(part.fanOutP50)}, p99 ${ms(part.fanOutP99)} ms)`,
  );
  return part;
}

runMain(main);
