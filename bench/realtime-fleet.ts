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
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { cleanup, cleanupOnSignals, onCleanup } from './lib/cleanup.js';
import { envInt, runMain } from './lib/cli.js';
import { createBenchDatabase } from './lib/database.js';
import { writeResults } from './lib/report.js';
import { startFleet } from '../tests/support/fleet.js';
import { closeSockets, makeUsers, ms, openSockets, partFailures, partsTable, runMessages, type Part } from './lib/sockets.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench/results/realtime-fleet-latest.json');
const AUTH_SECRET = `bench-${randomBytes(24).toString('hex')}`;

const SOCKETS = envInt('REALTIME_FLEET_SOCKETS', 1000, 3);
const RATE = envInt('REALTIME_FLEET_RATE', 200);
const SECONDS = envInt('REALTIME_FLEET_SECONDS', 10);
const BUDGET = { p99Ms: 100 };
const WARM_UP_SECONDS = 2;

const ratio = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : NaN);

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
  const clients = await makeUsers(db, SOCKETS, { authSecret: AUTH_SECRET, emailPrefix: 'bench-fleet' });
  await db.query('create table bench_message (id bigserial primary key, from_id uuid not null, to_id uuid not null, seq integer not null)');
  console.log(`Users: ${clients.length} with a sign-in session each\n`);

  const run = (name: string, via: () => number, seconds = SECONDS) => runMessages({ name, clients, via, baseOf, rate: RATE, seconds });
  const parts: Part[] = [];
  // 2. The baseline: one instance. First a warm-up (not counted): each instance's send route
  // and fan-out compiled and its pool filled, so the baseline is not the coldest part.
  for (const c of clients) c.at = 0;
  await openSockets(clients, baseOf, 'on instance 1');
  await run('warm-up (not counted)', () => Math.floor(Math.random() * fleet.instances.length), WARM_UP_SECONDS);
  parts.push(await run('one instance (baseline)', () => 0));
  closeSockets(clients);

  // 3. Spread over the three, each message sent to any of them.
  clients.forEach((c, i) => (c.at = i % fleet.instances.length));
  await openSockets(clients, baseOf, 'spread over the three instances');
  parts.push(await run('three instances', () => Math.floor(Math.random() * fleet.instances.length)));
  closeSockets(clients);

  // 4. As users connect: through the balancer, both ways.
  const before = await fleet.servers();
  for (const c of clients) c.at = -1;
  await openSockets(clients, baseOf, 'through the balancer');
  const spread = (await fleet.servers()).map((s) => `${s.name} ${s.sessions - (before.find((b) => b.name === s.name)?.sessions ?? 0)}`);
  console.log(`  HAProxy put the sockets on: ${spread.join(', ')}`);
  parts.push(await run('three instances, through the balancer', () => -1));
  closeSockets(clients);

  console.log('');
  partsTable(parts);
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

  const failures = partFailures([spreadPart, balanced], BUDGET.p99Ms);
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

runMain(main);
