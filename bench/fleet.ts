/**
 * The fleet bench (issue 24), part of `npm run bench`; alone: `npm run bench:fleet` or
 * `npm run bench -- --fleet-only`.
 *
 *   1. a fresh PostgreSQL database and the fleet of tests/support/fleet.ts: three instances,
 *      each with its own data directory, behind HAProxy configured by deploy/haproxy.cfg;
 *   2. a signed-in user and a course, made through the API;
 *   3. autocannon at 50 connections, interleaved rounds: one instance direct, then the
 *      balancer over the three, each on GET /api/me (a session read) and GET /api/courses/:id
 *      (a page of data); the CPU time of the three app processes (and of HAProxy, apart) is
 *      read from /proc around each run, so each round gives the app's CPU per request;
 *   4. per round, the ratio balancer / direct of the app CPU per request; the median of the
 *      rounds is the figure. Budget: 0 non-2xx, the ratio within 1.15.
 *
 * FLEET_BENCH_ROUNDS, FLEET_BENCH_SECONDS, FLEET_BENCH_CONNECTIONS override; results go to
 * bench/results/fleet-latest.json.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Result } from 'autocannon';
import { cleanup, cleanupOnSignals, onCleanup } from './lib/cleanup.js';
import { envInt, runMain } from './lib/cli.js';
import { createBenchDatabase } from './lib/database.js';
import { table, writeResults } from './lib/report.js';
import { startFleet } from '../tests/support/fleet.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench/results/fleet-latest.json');
const CONNECTIONS = envInt('FLEET_BENCH_CONNECTIONS', 50);
const SECONDS = envInt('FLEET_BENCH_SECONDS', 8);
const ROUNDS = envInt('FLEET_BENCH_ROUNDS', 3);
const BUDGET = { cpuRatio: 1.15 };

const TICK_MS = 10; // USER_HZ
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

interface Run {
  mode: 'direct' | 'balancer';
  route: string;
  round: number;
  responses: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  appCpuMs: number;
  haproxyCpuMs: number;
  /** App CPU milliseconds per response (all three instances). */
  appCpuPerRequestMs: number;
}

async function main() {
  cleanupOnSignals();
  if (process.platform !== 'linux') throw new Error('the fleet bench reads process CPU from /proc (Linux only)');
  console.log(
    `Agora fleet bench — ${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(2)}`,
  );
  console.log(`Load: ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s per mode and route\n`);
  const loadBefore = os.loadavg()[0];
  const database = await createBenchDatabase();
  if (database.kind !== 'postgres') throw new Error(`the fleet bench needs PostgreSQL: ${database.reason}`);

  const fleet = await startFleet({
    databaseUrl: database.url,
    // The empty database is migrated by the first instance, then the others start.
    start: 'staggered',
    env: { AUTH_RATE_LIMIT: '100000', LOG_LEVEL: 'error' },
  });
  onCleanup('stop the fleet', () => fleet.stop());
  console.log(
    `Fleet: ${fleet.instances.map((i) => `${i.name} pid ${i.pid}`).join(', ')}, HAProxy pid ${fleet.haproxyPid} at ${fleet.balancerUrl}`,
  );

  // A user and a course, through the API (the balancer).
  const lb = fleet.balancerUrl;
  const email = `fleet-bench-${Date.now()}@example.com`;
  const password = 'Analytical-Engine-1843';
  const post = (url: string, body: unknown, cookie = '') =>
    fetch(lb + url, { method: 'POST', headers: { 'content-type': 'application/json', origin: lb, cookie }, body: JSON.stringify(body) });
  const up = await post('/api/accounts/sign-up', { email, firstName: 'Bench', lastName: 'Mark', password, birthdate: '1990-12-10' });
  if (up.status !== 201) throw new Error(`sign-up answered ${up.status}: ${await up.text()}`);
  let link = '';
  for (let i = 0; i < 100 && !link; i++) {
    const box = (await (await fetch(`${lb}/api/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as { text: string }[];
    link = /https?:\/\/\S+/.exec(box[0]?.text ?? '')?.[0] ?? '';
    if (!link) await new Promise((r) => setTimeout(r, 100));
  }
  if (!link) throw new Error('no verification email');
  await fetch(link, { redirect: 'manual' });
  const signIn = await post('/api/accounts/sign-in', { email, password });
  if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}`);
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .filter((c) => !c.endsWith('='))
    .join('; ');
  const educator = await post(
    '/api/educators',
    {
      headline: 'Painter and patient teacher',
      bio: 'I have taught watercolour to adults for twelve years.',
      subjects: ['watercolour'],
      links: [],
    },
    cookie,
  );
  if (educator.status !== 201) throw new Error(`educator onboarding answered ${educator.status}: ${await educator.text()}`);
  const course = await post(
    '/api/courses',
    {
      title: 'Watercolour for the fleet',
      summary: 'Washes, layers and light in six relaxed evenings.',
      description: 'Wet-on-wet, glazing and colour mixing.',
      category: 'arts',
      level: 'beginner',
      language: 'English',
      format: 'online',
      priceCents: 0,
      currency: 'usd',
      refundPolicy: 'moderate',
    },
    cookie,
  );
  if (course.status !== 201) throw new Error(`course answered ${course.status}: ${await course.text()}`);
  const courseId = ((await course.json()) as { id: string }).id;

  const routes = [
    { name: 'GET /api/me', path: '/api/me', headers: { cookie } },
    { name: 'GET /api/courses/:id', path: `/api/courses/${courseId}`, headers: { cookie } },
  ];
  const modes = [
    { mode: 'direct' as const, base: fleet.instances[0].url },
    { mode: 'balancer' as const, base: lb },
  ];
  const appPids = () => fleet.instances.map((i) => i.pid);
  const appCpu = () => appPids().reduce((sum, pid) => sum + cpuMs(pid), 0);

  const runs: Run[] = [];
  const once = (base: string, route: (typeof routes)[number], seconds: number) =>
    autocannon({ url: base + route.path, connections: CONNECTIONS, duration: seconds, headers: route.headers, timeout: 10 });
  console.log('warm-up: 3 s per mode and route');
  for (const m of modes) for (const r of routes) await once(m.base, r, 3);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const r of routes) {
      for (const m of modes) {
        const app0 = appCpu();
        const lb0 = cpuMs(fleet.haproxyPid);
        const result: Result = await once(m.base, r, SECONDS);
        const appCpuMs = appCpu() - app0;
        const haproxyCpuMs = cpuMs(fleet.haproxyPid) - lb0;
        const responses = Object.values(result.statusCodeStats).reduce((a, s) => a + Number(s.count), 0);
        const run: Run = {
          mode: m.mode,
          route: r.name,
          round,
          responses,
          reqPerSec: Math.round(result.requests.average),
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
          appCpuMs,
          haproxyCpuMs,
          appCpuPerRequestMs: responses ? appCpuMs / responses : NaN,
        };
        runs.push(run);
        console.log(
          `  round ${round}/${ROUNDS} ${r.name.padEnd(20)} ${m.mode.padEnd(8)} ${String(run.reqPerSec).padStart(6)} req/s  p99 ${run.p99Ms} ms  app CPU ${run.appCpuPerRequestMs.toFixed(3)} ms/req${run.non2xx || run.errors ? `  NON-2XX ${run.non2xx} ERRORS ${run.errors}` : ''}`,
        );
      }
    }
  }

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const summary = routes.map((r) => {
    const ratios = Array.from({ length: ROUNDS }, (_, i) => {
      const of = (mode: Run['mode']) => runs.find((x) => x.route === r.name && x.mode === mode && x.round === i + 1)!;
      return of('balancer').appCpuPerRequestMs / of('direct').appCpuPerRequestMs;
    });
    const perMode = (mode: Run['mode']) => runs.filter((x) => x.route === r.name && x.mode === mode);
    return {
      route: r.name,
      directCpuMs: median(perMode('direct').map((x) => x.appCpuPerRequestMs)),
      balancerCpuMs: median(perMode('balancer').map((x) => x.appCpuPerRequestMs)),
      haproxyCpuMs: median(perMode('balancer').map((x) => x.haproxyCpuMs / x.responses)),
      directReqPerSec: median(perMode('direct').map((x) => x.reqPerSec)),
      balancerReqPerSec: median(perMode('balancer').map((x) => x.reqPerSec)),
      cpuRatio: median(ratios),
      cpuRatioRounds: ratios,
      non2xx: [...perMode('direct'), ...perMode('balancer')].reduce((a, x) => a + x.non2xx + x.errors, 0),
    };
  });
  const loadAfter = os.loadavg()[0];

  console.log('\nApp CPU per request (three instances), median of the rounds; ratio = balancer / direct, per round then median');
  table(
    ['route', 'direct ms/req', 'balancer ms/req', 'HAProxy ms/req', 'direct req/s', 'balancer req/s', 'ratio', 'rounds', 'non-2xx'],
    summary.map((s) => [
      s.route,
      s.directCpuMs.toFixed(3),
      s.balancerCpuMs.toFixed(3),
      s.haproxyCpuMs.toFixed(3),
      String(s.directReqPerSec),
      String(s.balancerReqPerSec),
      s.cpuRatio.toFixed(2),
      s.cpuRatioRounds.map((x) => x.toFixed(2)).join('/'),
      String(s.non2xx),
    ]),
  );
  const failures = [
    ...summary.filter((s) => s.non2xx > 0).map((s) => `${s.route}: ${s.non2xx} non-2xx or errors`),
    ...summary
      .filter((s) => !(s.cpuRatio <= BUDGET.cpuRatio))
      .map((s) => `${s.route}: app CPU ratio ${s.cpuRatio.toFixed(2)} > ${BUDGET.cpuRatio}`),
  ];
  console.log(
    `\nLoad average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after (a busy machine inflates CPU per request alike in both modes).`,
  );
  writeResults(
    ROOT,
    RESULTS,
    { budget: BUDGET, connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS, summary, runs, failures },
    { loadBefore, loadAfter },
  );
  console.log(failures.length ? `\nFleet bench: FAIL\n  ${failures.join('\n  ')}` : '\nFleet bench: PASS');
  await cleanup();
  if (failures.length) process.exitCode = 1;
}

runMain(main);
