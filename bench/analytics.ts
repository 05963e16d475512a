/**
 * The analytics bench (issue 13), part of `npm run bench`; alone: `npm run bench -- --analytics-only`.
 *
 *   1. a fresh PostgreSQL database and the real server in a child process (BENCH_ROUTES,
 *      demo accounts); the scale seed (scripts/seed-courses.ts, 100k courses by default)
 *      and one educator with a large catalogue (scripts/seed-analytics.ts: the demo
 *      educator gets 500 courses and 50k enrolments, with payments, reviews and a year of views);
 *   2. interleaved rounds, in the same run: GET /api/me (the demo learner), the analytics
 *      API of that educator for 12 months and for 30 days (as served: a large catalogue's
 *      figures are kept 30 s), the 12 months computed on every request (header
 *      x-bench-no-cache, BENCH_ROUTES only), and a course page with view
 *      counting on beside the same page with counting off (header x-bench-no-count, honoured
 *      only with BENCH_ROUTES);
 *   3. a table, bench/results/analytics-latest.json; exit 1 when the 12-month p99 is not
 *      under 200 ms or a response was not the expected 2xx.
 *
 * ANALYTICS_BENCH_COURSES (scale seed size), ANALYTICS_BENCH_CONNECTIONS (analytics and
 * /api/me, default 10: an educator's page, not a public one), BENCH_CONNECTIONS (the course
 * pages, default 50), BENCH_ROUNDS, ANALYTICS_BENCH_SECONDS override the defaults.
 */

import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { DEMO_PASSWORD, DEMO_USERS } from '../src/server/seed/demo-users.js';
import { seedCourses } from '../scripts/seed-courses.js';
import { seedBigEducator } from '../scripts/seed-analytics.js';
import { cleanup, cleanupOnSignals, onCleanup } from './lib/cleanup.js';
import { envInt, runMain } from './lib/cli.js';
import { createBenchDatabase } from './lib/database.js';
import { measure, type LoadSettings, type TargetResult } from './lib/load.js';
import { signIn, startBenchServer } from './lib/server.js';
import { table, writeResults } from './lib/report.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench/results/analytics-latest.json');
const BUDGET = { p99Ms: 200 };
const COURSES = envInt('ANALYTICS_BENCH_COURSES', 100_000);
const seconds = envInt('ANALYTICS_BENCH_SECONDS', 5);
const rounds = envInt('BENCH_ROUNDS', 3);
const analyticsLoad: LoadSettings = { connections: envInt('ANALYTICS_BENCH_CONNECTIONS', 10), seconds, rounds, warmupSeconds: 1 };
const pageLoad: LoadSettings = { connections: envInt('BENCH_CONNECTIONS', 50), seconds, rounds, warmupSeconds: 1 };
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const log = (line: string) => console.log(`  ${line}`);
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function main() {
  cleanupOnSignals();
  console.log(
    `Agora analytics bench — ${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(2)}`,
  );
  const loadBefore = os.loadavg()[0];
  const database = await createBenchDatabase();
  if (database.kind !== 'postgres') throw new Error(`the analytics bench needs PostgreSQL: ${database.reason}`);
  console.log(`Database: PostgreSQL, fresh database ${database.name} (dropped at the end)`);
  const server = await startBenchServer({ name: 'analytics', root: ROOT, databaseUrl: database.url });
  console.log(`Server: pid ${server.pid} at ${server.baseUrl}`);
  const learner = await signIn(server, DEMO_USERS[0].email, DEMO_PASSWORD);
  const educatorUser = DEMO_USERS.find((u) => u.educator)!;
  const educator = await signIn(server, educatorUser.email, DEMO_PASSWORD);

  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  onCleanup('close the seed connection', () => client.end());
  console.log(`\nSeeding ${COURSES.toLocaleString('en')} courses, then ${educatorUser.email}'s large catalogue`);
  const seed = await seedCourses(client, { courses: COURSES, log });
  const big = await seedBigEducator(client, { email: educatorUser.email, log });
  const {
    rows: [page],
  } = await client.query(`select id from course where educator_id = $1 and status = 'published' order by id limit 1`, [big.educatorId]);
  const {
    rows: [counts],
  } = await client.query(
    `select (select count(*)::int from course) as courses, (select count(*)::int from enrolment) as enrolments,
            (select count(*)::int from course where educator_id = $1) as "educatorCourses",
            (select count(*)::int from enrolment e join course c on c.id = e.course_id where c.educator_id = $1) as "educatorEnrolments",
            (select count(*)::int from payment where educator_id = $1) as "educatorPayments"`,
    [big.educatorId],
  );
  console.log(`  totals: ${JSON.stringify(counts)}`);

  // The learner's view of the course page is counted before the load (one per viewer per
  // day), so the analytics answer is the same for every request of the run.
  const coursePath = `/api/courses/${page.id}`;
  await fetch(server.baseUrl + coursePath, { headers: { cookie: learner.cookie, 'user-agent': BROWSER } });
  await new Promise((r) => setTimeout(r, 3000));

  // The answer carries when it was computed (asOf): statuses are checked, not bodies.
  const analytics = (name: string, from: string, fresh = false) => ({
    name,
    path: `/api/educator/${big.educatorId}/analytics?from=${from}&to=${day(0)}`,
    headers: { cookie: educator.cookie, ...(fresh && { 'x-bench-no-cache': '1' }) },
    anyBody: true,
  });
  const me = { name: 'me', path: '/api/me', headers: { cookie: learner.cookie } };
  console.log(`\nLoad: analytics and /api/me at ${analyticsLoad.connections} connections`);
  const apiRoutes = await measure(
    server.baseUrl,
    [
      me,
      analytics('analytics 12 months', day(-364)),
      analytics('analytics 30 days', day(-29)),
      analytics('analytics 12 months, computed', day(-364), true),
    ],
    analyticsLoad,
    log,
  );
  console.log(`\nLoad: the course page at ${pageLoad.connections} connections, view counting on and off`);
  const pageRoutes = await measure(
    server.baseUrl,
    [
      { ...me, name: 'me (50)' },
      { name: 'course page, counting', path: coursePath, headers: { cookie: learner.cookie, 'user-agent': BROWSER } },
      {
        name: 'course page, not counting',
        path: coursePath,
        headers: { cookie: learner.cookie, 'user-agent': BROWSER, 'x-bench-no-count': '1' },
      },
    ],
    pageLoad,
    log,
  );
  await cleanup();

  const failures: string[] = [];
  const all = [...apiRoutes, ...pageRoutes];
  console.log('\n=== Analytics bench (median round of each route) ===');
  table(
    ['route', 'connections', 'req/s', 'p50', 'p99', 'req/s per round', 'bad'],
    all.map((r) => [
      r.name,
      String(apiRoutes.includes(r) ? analyticsLoad.connections : pageLoad.connections),
      String(r.median.reqPerSec),
      `${r.median.p50Ms} ms`,
      `${r.median.p99Ms} ms`,
      r.rounds.map((x) => x.reqPerSec).join(' / '),
      String(r.problems.non2xx + r.problems.errors + r.problems.timeouts + r.problems.mismatches),
    ]),
  );
  for (const r of all) {
    const p = r.problems;
    if (p.non2xx || p.errors || p.timeouts || p.mismatches) failures.push(`${r.name}: responses that were not the expected 2xx`);
  }
  const byName = (name: string) => all.find((r) => r.name === name) as TargetResult;
  const year = byName('analytics 12 months').median;
  const ok = year.p99Ms < BUDGET.p99Ms;
  const computed = byName('analytics 12 months, computed').median;
  console.log(`\n  analytics, 12 months: p99 ${year.p99Ms} ms (budget < ${BUDGET.p99Ms} ms) ${ok ? 'ok' : 'OVER BUDGET'}`);
  console.log(
    `  analytics, 12 months computed on every request: ${computed.reqPerSec} req/s, p50 ${computed.p50Ms} ms, p99 ${computed.p99Ms} ms (no budget)`,
  );
  if (!ok) failures.push(`analytics 12 months p99 ${year.p99Ms} ms`);
  const on = byName('course page, counting').median;
  const off = byName('course page, not counting').median;
  console.log(
    `  course page with view counting: ${on.reqPerSec} req/s, p99 ${on.p99Ms} ms; without: ${off.reqPerSec} req/s, p99 ${off.p99Ms} ms (${((on.reqPerSec / (off.reqPerSec || 1)) * 100).toFixed(0)}%)`,
  );
  const loadAfter = os.loadavg()[0];
  console.log(`  load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after (${os.cpus().length} CPUs)`);
  writeResults(
    ROOT,
    RESULTS,
    {
      budget: BUDGET,
      settings: { analytics: analyticsLoad, page: pageLoad },
      seed: { seconds: seed.totalSeconds, counts },
      routes: all,
      failures,
    },
    { loadBefore, loadAfter },
  );
  if (failures.length) {
    console.log(`\nFAIL: ${failures.join('; ')}`);
    process.exitCode = 1;
  } else console.log('\nPASS: analytics p99 under budget, every response 2xx');
}

runMain(main);
