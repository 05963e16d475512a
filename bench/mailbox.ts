/**
 * `npm run bench` (mailbox part; alone: `npm run bench:mailbox`): the send-message endpoint
 * (POST /api/mailbox/conversations/:userId/messages) beside a reference route doing the same
 * insert (POST /api/bench/mailbox-insert/:userId: session lookup, validation, one
 * autocommit INSERT), in the same run, interleaved rounds (issue 10). Budget: >= 0.75x.
 *
 *   - 5,000 users in 2,500 pairs, each with a session (written in SQL: sessionsFor); the
 *     senders take turns, each request sent to the sender's partner with a fresh clientId, so
 *     the real route does its whole work at the production send limit (30 a minute: the
 *     rate read, replay check, blocks, the conversation and its lock, the insert, the domain
 *     event, the realtime pushes, the new-message notice);
 *   - autocannon at 50 connections, warm-up then BENCH_ROUNDS rounds of BENCH_SECONDS
 *     per route; the ratio is taken per round (routes of a round ran back to back), median.
 *
 * Needs PostgreSQL (the users are written with SQL); exits 1 when the budget is missed or
 * any answer was not 2xx. Results in bench/results/mailbox-latest.json. Each round also
 * reads the CPU time of the server and its database backends (bench/lib/cpu.ts): CPU per
 * request, the same comparison by cost, steadier than req/s on a shared machine.
 * MAILBOX_BENCH_CPU_PROF=<dir> writes the server's CPU profile there (node --cpu-prof).
 */
import { randomBytes, randomUUID } from 'node:crypto';

import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Result } from 'autocannon';
import pg from 'pg';
import { DEMO_PASSWORD, DEMO_USERS } from '../src/server/seed/demo-users.js';
import { cleanup, cleanupOnSignals } from './lib/cleanup.js';
import { envInt, runMain } from './lib/cli.js';
import { createBenchDatabase } from './lib/database.js';
import { cpuMeter } from './lib/cpu.js';
import { table, writeResults } from './lib/report.js';
import { sessionsFor, signIn, startBenchServer } from './lib/server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench/results/mailbox-latest.json');
const BUDGET = 0.75;
/** 5,000 senders taking turns: up to 2,500 sends a second, each sends at most 30 a minute (the production limit). */
const PAIRS = envInt('MAILBOX_BENCH_PAIRS', 2500);
const AUTH_SECRET = randomBytes(32).toString('hex');
const connections = envInt('BENCH_CONNECTIONS', 50);
const seconds = envInt('BENCH_SECONDS', 10);
const rounds = envInt('BENCH_ROUNDS', 5);
const warmupSeconds = envInt('BENCH_WARMUP_SECONDS', 6, 0);

interface Route {
  name: string;
  path: (to: string) => string;
}
const ROUTES: Route[] = [
  { name: 'reference insert', path: (to) => `/api/bench/mailbox-insert/${to}` },
  { name: 'send message', path: (to) => `/api/mailbox/conversations/${to}/messages` },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

async function main() {
  cleanupOnSignals();
  const profileDir = process.env.MAILBOX_BENCH_CPU_PROF;
  console.log(`Agora mailbox bench — ${new Date().toISOString()}, ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(2)}\n`);
  const database = await createBenchDatabase();
  if (database.kind !== 'postgres') throw new Error(`the mailbox bench needs PostgreSQL (${database.reason})`);
  const server = await startBenchServer({
    name: 'mailbox',
    root: ROOT,
    databaseUrl: database.url,
    env: { AUTH_SECRET },
    ...(profileDir && { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] }),
  });
  console.log(`Server: pid ${server.pid} at ${server.baseUrl}`);
  // The demo data is seeded once the server is up: signing in as a demo user waits for it.
  const template = await signIn(server, DEMO_USERS[0].email, DEMO_PASSWORD);

  // PAIRS pairs of users, each with a session (written in SQL beside one real sign-in: see
  // sessionsFor). Enough senders that none passes the production send limit (30 a minute)
  // at the rates measured: the route reads the sender's last minute, as it does for real people.
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  const { rows: users } = await db.query<{ id: string }>(`
    insert into "user" (email, name, first_name, last_name, verified)
    select 'bench' || g || '@agora.local', 'Bench User ' || g, 'Bench', 'User ' || g, true
    from generate_series(1, ${PAIRS * 2}) g order by g returning id`);
  const sessions = await sessionsFor(
    db,
    template,
    users.map((u) => u.id),
    AUTH_SECRET,
  );
  await db.end();
  const partner = (i: number) => (i % 2 === 0 ? i + 1 : i - 1);
  // Each pair's conversation exists before the load (the reference inserts into it).
  const first = async (i: number) => {
    const res = await fetch(`${server.baseUrl}/api/mailbox/conversations/${sessions[i + 1].userId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie: sessions[i].cookie },
      body: JSON.stringify({ body: 'Hello!', clientId: randomUUID() }),
    });
    if (res.status !== 201) throw new Error(`first message answered ${res.status}: ${await res.text()}`);
  };
  for (let i = 0; i < sessions.length; i += 100)
    await Promise.all(
      Array.from({ length: 50 }, (_, k) => i + 2 * k)
        .filter((j) => j < sessions.length)
        .map(first),
    );
  console.log(`${sessions.length} users in ${PAIRS} pairs signed in; ${connections} connections, ${rounds} rounds of ${seconds} s\n`);

  const body = 'See you at the Tuesday class! Bring the sketchbook, https://example.com/list has the rest.';
  let turn = 0;
  const run = (route: Route, duration: number) =>
    autocannon({
      url: server.baseUrl,
      connections,
      duration,
      timeout: 10,
      requests: [
        {
          method: 'POST',
          setupRequest: (req) => {
            // Senders take turns, so none passes the send limit.
            const i = turn++ % sessions.length;
            return {
              ...req,
              method: 'POST',
              path: route.path(sessions[partner(i)].userId),
              headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie: sessions[i].cookie },
              body: JSON.stringify({ body, clientId: randomUUID() }),
            };
          },
        },
      ],
    });

  const results = new Map<string, Result[]>(ROUTES.map((r) => [r.name, []]));
  const cpuPerRequest = new Map<string, number[]>(ROUTES.map((r) => [r.name, []]));
  const cpu = await cpuMeter(server.pid, database.url);
  let bad = 0;
  if (warmupSeconds) for (const r of ROUTES) bad += (await run(r, warmupSeconds)).non2xx;
  for (let round = 1; round <= rounds; round++) {
    for (const r of ROUTES) {
      const before = await cpu.sample();
      const res = await run(r, seconds);
      const after = await cpu.sample();
      const n = res.requests.total;
      const serverMs = before && after && n ? (after.server - before.server) / n : NaN;
      const databaseMs = before && after && n ? (after.database - before.database) / n : NaN;
      const perRequest = serverMs + databaseMs;
      cpuPerRequest.get(r.name)!.push(perRequest);
      bad += res.non2xx + res.errors;
      results.get(r.name)!.push(res);
      console.log(
        `  round ${round}/${rounds} ${r.name.padEnd(17)} ${Math.round(res.requests.average).toString().padStart(6)} req/s  p50 ${res.latency.p50} ms  p99 ${res.latency.p99} ms  CPU ${perRequest.toFixed(3)} ms/req (server ${serverMs.toFixed(3)}, database ${databaseMs.toFixed(3)})${res.non2xx ? `  NON-2XX ${res.non2xx}` : ''}`,
      );
    }
  }
  await cpu.close();
  const ratios = results.get('send message')!.map((r, i) => r.requests.average / results.get('reference insert')![i].requests.average);
  const ratio = median(ratios);
  // The same comparison by cost: reference CPU per request ÷ send CPU per request (what the load around barely moves).
  const cpuRatios = cpuPerRequest.get('send message')!.map((ms, i) => cpuPerRequest.get('reference insert')![i] / ms);
  const cpuRatio = median(cpuRatios);
  console.log('');
  table(
    ['route', 'req/s (median round)', 'p50 ms', 'p99 ms'],
    ROUTES.map((r) => {
      const rs = results.get(r.name)!;
      const m = [...rs].sort((a, b) => a.requests.average - b.requests.average)[Math.floor((rs.length - 1) / 2)];
      return [r.name, String(Math.round(m.requests.average)), String(m.latency.p50), String(m.latency.p99)];
    }),
  );
  console.log(
    `\n  send ÷ reference per round: ${ratios.map((x) => x.toFixed(2)).join(', ')}; median ${ratio.toFixed(2)} (budget >= ${BUDGET})`,
  );
  console.log(
    `  by CPU per request (server + its database backends), reference ÷ send per round: ${cpuRatios.map((x) => x.toFixed(2)).join(', ')}; median ${cpuRatio.toFixed(2)}`,
  );
  console.log(`  non-2xx answers or errors: ${bad}`);
  writeResults(ROOT, RESULTS, {
    routes: ROUTES.map((r) => ({
      name: r.name,
      rounds: results.get(r.name)!.map((x, i) => ({
        reqPerSec: Math.round(x.requests.average),
        p50Ms: x.latency.p50,
        p99Ms: x.latency.p99,
        cpuMsPerRequest: cpuPerRequest.get(r.name)![i],
      })),
    })),
    ratios,
    ratio,
    cpuRatios,
    cpuRatio,
    bad,
  });
  const pass = ratio >= BUDGET && bad === 0;
  console.log(`\nmailbox bench: ${pass ? 'PASS' : 'FAIL'}`);
  if (!pass) process.exitCode = 1;
}

runMain(async () => {
  try {
    await main();
  } finally {
    await cleanup();
  }
});
