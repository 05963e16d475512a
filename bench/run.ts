/**
 * `npm run bench`: req/s and p50/p99 of GET /api/me beside two reference routes on the
 * same server, and the gzipped JS a first visit to /login loads (issue 2, section 6).
 *
 *   1. a fresh database (local PostgreSQL, else PGlite) and the real server in a child
 *      process with BENCH_ROUTES=true and the demo data;
 *   2. sign in as the demo user; autocannon at 50 connections, interleaved rounds of
 *      noop / select / me; the median round of each is reported;
 *   3. the /login JS from dist/web (built first when absent);
 *   4. a table, bench/results/latest.json, and exit 1 when a budget is missed or any
 *      response was not 2xx. The server is stopped and the database dropped however it ends.
 *
 * BENCH_ROUNDS, BENCH_SECONDS, BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS override the defaults.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_PASSWORD, DEMO_USERS } from '../src/server/seed/demo-users.js';
import { cleanup, cleanupOnSignals, onCleanup } from './lib/cleanup.js';
import { envInt, runMain } from './lib/cli.js';
import { createBenchDatabase, type BenchDatabase } from './lib/database.js';
import { measure, type LoadSettings, type TargetResult } from './lib/load.js';
import { measureLoginJs, type LoginJs } from './lib/login-js.js';
import { table, writeResults } from './lib/report.js';
import { freePort, signIn, startServer } from './lib/server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench/results/latest.json');

const BUDGET = {
  /** /api/me req/s over the single-SELECT reference. */
  meOverSelect: 0.5,
  /** gzipped JS a first visit to /login loads. */
  loginJsGzipKb: 130,
};

const settings: LoadSettings = {
  connections: envInt('BENCH_CONNECTIONS', 50),
  seconds: envInt('BENCH_SECONDS', 6),
  rounds: envInt('BENCH_ROUNDS', 3),
  warmupSeconds: envInt('BENCH_WARMUP_SECONDS', 2, 0),
};

const log = (line: string) => console.log(`  ${line}`);

interface ApiOutcome {
  database: string;
  routes: TargetResult[];
  /** Median over the rounds of (me req/s ÷ select req/s) within each round. */
  meOverSelect: number;
  meOverNoop: number;
  meOverSelectRounds: number[];
  meOverNoopRounds: number[];
  loadBefore: number;
  loadAfter: number;
}

async function benchApi(): Promise<ApiOutcome> {
  const loadBefore = os.loadavg()[0];
  const database = await createBenchDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'agora-bench-'));
  onCleanup(`remove ${dataDir}`, () => rmSync(dataDir, { recursive: true, force: true }));
  const databaseLabel = describeDatabase(database);
  console.log(`Database: ${databaseLabel}`);

  const port = await freePort();
  const started = Date.now();
  const server = await startServer({
    root: ROOT,
    port,
    env: {
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
      DATABASE_URL: database.kind === 'postgres' ? database.url : '',
      DATA_DIR: dataDir,
      BENCH_ROUTES: 'true',
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
    },
  });
  console.log(`Server: pid ${server.pid} at ${server.baseUrl}, ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const demo = DEMO_USERS[0];
  const session = await signIn(server, demo.email, DEMO_PASSWORD);
  console.log(`Signed in as ${demo.email} (user ${session.userId})`);
  console.log(
    `Load: ${settings.connections} connections, warm-up ${settings.warmupSeconds} s, then ${settings.rounds} interleaved rounds of ${settings.seconds} s per route`,
  );

  const routes = await measure(
    server.baseUrl,
    [
      { name: 'noop', path: '/api/bench/noop' },
      { name: 'select', path: `/api/bench/select?id=${session.userId}` },
      { name: 'me', path: '/api/me', headers: { cookie: session.cookie } },
    ],
    settings,
    log,
  );

  // Ratios per round (the routes of one round ran back to back, under the same load from
  // whatever else the machine was doing), then the median over the rounds.
  const rounds = (name: string) => routes.find((r) => r.name === name)!.rounds;
  const perRound = (a: string, b: string) => rounds(a).map((r, i) => r.reqPerSec / rounds(b)[i].reqPerSec);
  const meOverSelectRounds = perRound('me', 'select');
  const meOverNoopRounds = perRound('me', 'noop');
  return {
    database: databaseLabel,
    routes,
    meOverSelect: median(meOverSelectRounds),
    meOverNoop: median(meOverNoopRounds),
    meOverSelectRounds,
    meOverNoopRounds,
    loadBefore,
    loadAfter: os.loadavg()[0],
  };
}

function describeDatabase(database: BenchDatabase) {
  return database.kind === 'postgres'
    ? `PostgreSQL, fresh database ${database.name} (dropped at the end)`
    : `PGlite in a temp dir — FALLBACK: ${database.reason}. Figures are not comparable to PostgreSQL (one connection, in-process).`;
}

async function main() {
  cleanupOnSignals();
  console.log(
    `Agora bench — ${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), load average ${os.loadavg()[0].toFixed(2)}\n`,
  );

  let api: ApiOutcome | null = null;
  let apiError: string | null = null;
  try {
    api = await benchApi();
  } catch (err) {
    apiError = err instanceof Error ? err.message : String(err);
  } finally {
    await cleanup();
  }

  let web: LoginJs;
  try {
    web = measureLoginJs(ROOT, log);
  } catch (err) {
    web = { available: false, reason: `could not measure: ${err instanceof Error ? err.message : err}` };
  }

  const failures = report(api, apiError, web);
  saveResults(api, apiError, web, failures);
  if (failures.length) {
    console.log(`\nFAIL: ${failures.join('; ')}`);
    process.exitCode = 1;
  } else {
    console.log('\nPASS: every budget met, every response 2xx');
  }
}

/** Prints the table; returns what failed. */
function report(api: ApiOutcome | null, apiError: string | null, web: LoginJs): string[] {
  const failures: string[] = [];
  console.log('\n=== API (median round of each route) ===');
  if (!api) {
    console.log(`  API bench failed: ${apiError?.split('\n').join('\n    ')}`);
    failures.push('API bench did not run');
  } else {
    console.log(`  database: ${api.database}`);
    const rows = api.routes.map((r) => [
      r.name,
      r.path.replace(/id=[^&]+/, 'id=<uuid>'),
      String(r.median.reqPerSec),
      `${r.median.p50Ms} ms`,
      `${r.median.p99Ms} ms`,
      r.rounds.map((x) => x.reqPerSec).join(' / '),
      String(r.problems.non2xx + r.problems.errors + r.problems.timeouts + r.problems.mismatches),
    ]);
    table(['route', 'path', 'req/s', 'p50', 'p99', 'req/s per round', 'bad'], rows, 2);
    for (const r of api.routes) {
      const p = r.problems;
      if (p.non2xx || p.errors || p.timeouts || p.mismatches) {
        const codes = Object.entries(p.statusCodes)
          .map(([c, n]) => `${c}×${n}`)
          .join(', ');
        console.log(
          `  !! ${r.name}: ${p.non2xx} non-2xx${codes ? ` (${codes})` : ''}, ${p.errors} errors, ${p.timeouts} timeouts, ${p.mismatches} unexpected bodies`,
        );
        failures.push(`${r.name}: responses that were not the expected 2xx`);
      }
    }
    const ok = api.meOverSelect >= BUDGET.meOverSelect;
    const rounds = (ratios: number[]) => `(rounds: ${ratios.map((x) => x.toFixed(2)).join(' / ')})`;
    console.log(
      `  /api/me ÷ select: ${api.meOverSelect.toFixed(2)} ${rounds(api.meOverSelectRounds)}, budget >= ${BUDGET.meOverSelect}: ${ok ? 'ok' : 'OVER BUDGET'}`,
    );
    console.log(`  /api/me ÷ noop:   ${api.meOverNoop.toFixed(2)} ${rounds(api.meOverNoopRounds)}`);
    console.log(
      `  load average 1 min: ${api.loadBefore.toFixed(2)} before, ${api.loadAfter.toFixed(2)} after, on ${os.cpus().length} CPUs${api.loadBefore > os.cpus().length ? ' — the machine was busy before the bench started: figures are low and noisy' : ''}`,
    );
    if (!ok) failures.push(`/api/me is ${api.meOverSelect.toFixed(2)} of the select reference (budget ${BUDGET.meOverSelect})`);
  }

  console.log('\n=== /login initial JS (gzip -9) ===');
  if (!web.available) {
    console.log(`  ${web.reason.split('\n').join('\n  ')}`);
  } else {
    table(
      ['file', 'via', 'raw kB', 'gzip kB'],
      web.files.map((f) => [f.file, f.via, kb(f.bytes), kb(f.gzipBytes)]),
    );
    const total = web.gzipBytes / 1000;
    const ok = total <= BUDGET.loginJsGzipKb;
    console.log(
      `  total: ${total.toFixed(1)} kB gzipped (budget <= ${BUDGET.loginJsGzipKb} kB) ${ok ? 'ok' : 'OVER BUDGET'}${web.built ? ' — built by this run' : ''}`,
    );
    console.log(`  ${web.loginRoute}`);
    if (web.stale) console.log(`  NOTE: ${web.stale}`);
    if (!ok) failures.push(`/login JS is ${total.toFixed(1)} kB gzipped (budget ${BUDGET.loginJsGzipKb} kB)`);
  }
  return failures;
}

function saveResults(api: ApiOutcome | null, apiError: string | null, web: LoginJs, failures: string[]) {
  writeResults(ROOT, RESULTS, {
    settings,
    budgets: BUDGET,
    api: api ?? { error: apiError },
    loginJs: web.available ? { ...web, gzipKb: Number((web.gzipBytes / 1000).toFixed(1)) } : web,
    pass: failures.length === 0,
    failures,
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const kb = (bytes: number) => (bytes / 1000).toFixed(1);

runMain(main);
