/**
 * The course page beside /api/me, alone and quick: `npm run bench:course-page`. A fresh
 * PostgreSQL database, the real server in a child process (BENCH_ROUTES, demo accounts), the
 * scale seed (COURSE_PAGE_BENCH_COURSES, 10k by default), then interleaved rounds of a bare
 * route, the floor (one prepared primary-key SELECT), GET /api/me and the course page the
 * search bench measures (the published course with the most reviews and a next start), as the
 * demo learner, at BENCH_CONNECTIONS (50). Budgets (issue 22 §7, docs/decisions/0004), each
 * the median of the per-round ratios: the course page >= 0.5x /api/me (a session lookup and
 * nothing else), /api/me >= 0.75x the floor; exit 1 when one is missed or a response was not
 * the expected 2xx. They are judged at 100k courses by the search bench; here at the size
 * asked. COURSE_PAGE_BENCH_CPU_PROF=<dir> writes the server's CPU profile there
 * (node --cpu-prof) when it stops.
 */

import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedCourses } from '../scripts/seed-courses.js';
import { cleanup, cleanupOnSignals } from './lib/cleanup.js';
import { envInt, runMain } from './lib/cli.js';
import { measure, type LoadSettings } from './lib/load.js';
import { judgeRatio, verdictLine } from './lib/ratios.js';
import { startSeedingBench } from './lib/server.js';
import { table } from './lib/report.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COURSES = envInt('COURSE_PAGE_BENCH_COURSES', 10_000);
const settings: LoadSettings = {
  connections: envInt('BENCH_CONNECTIONS', 50),
  seconds: envInt('COURSE_PAGE_BENCH_SECONDS', 3),
  rounds: envInt('BENCH_ROUNDS', 3),
  warmupSeconds: 1,
};
const BUDGET = { pageOverMe: 0.5, meOverFloor: 0.75 };
const log = (line: string) => console.log(`  ${line}`);

async function main() {
  cleanupOnSignals();
  const profileDir = process.env.COURSE_PAGE_BENCH_CPU_PROF;
  const { loadBefore, server, session, client } = await startSeedingBench({
    name: 'course-page',
    title: 'course page',
    root: ROOT,
    load: settings,
    ...(profileDir && { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] }),
  });
  console.log(`\nSeeding ${COURSES.toLocaleString('en')} courses`);
  await seedCourses(client, { courses: COURSES, log });
  const {
    rows: [page],
  } = await client.query(
    `select id from course where status = 'published' and next_start_on is not null order by rating_count desc, id limit 1`,
  );
  const routes = await measure(
    server.baseUrl,
    [
      { name: 'noop', path: '/api/bench/noop' },
      { name: 'floor', path: `/api/bench/select?id=${session.userId}` },
      { name: 'me', path: '/api/me', headers: { cookie: session.cookie } },
      { name: 'course page', path: `/api/courses/${page.id}`, headers: { cookie: session.cookie } },
    ],
    settings,
    log,
  );
  await cleanup();
  console.log(`\n=== Course page bench, ${COURSES.toLocaleString('en')} courses (median round of each route) ===`);
  table(
    ['route', 'req/s', 'p50', 'p99', 'req/s per round'],
    routes.map((r) => [
      r.name,
      String(r.median.reqPerSec),
      `${r.median.p50Ms} ms`,
      `${r.median.p99Ms} ms`,
      r.rounds.map((x) => x.reqPerSec).join(' / '),
    ]),
  );
  const pageVerdict = judgeRatio(routes, { route: 'course page', over: 'me', min: BUDGET.pageOverMe });
  const meVerdict = judgeRatio(routes, { route: 'me', over: 'floor', min: BUDGET.meOverFloor });
  console.log(`  ${verdictLine(pageVerdict)}`);
  console.log(`  ${verdictLine(meVerdict)}`);
  console.log(`  load average ${loadBefore.toFixed(2)} before, ${os.loadavg()[0].toFixed(2)} after (${os.cpus().length} CPUs)`);
  const bad = routes.some((r) => r.problems.non2xx + r.problems.errors + r.problems.timeouts + r.problems.mismatches > 0);
  const failures = [
    ...(bad ? ['responses that were not the expected 2xx'] : []),
    ...[pageVerdict, meVerdict].filter((v) => !v.met).map((v) => `${v.route} is ${v.median.toFixed(2)}x ${v.over} (budget >= ${v.min}x)`),
  ];
  if (failures.length) {
    console.log(`\nFAIL: ${failures.join('; ')}`);
    process.exitCode = 1;
  } else {
    console.log('\nPASS: both budgets met, every response 2xx');
  }
}

runMain(main);
