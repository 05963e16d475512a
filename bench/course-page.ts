/**
 * The course page beside /api/me (issue 11: the page >= 0.5x /api/me), alone and quick:
 * `npm run bench:course-page`. A fresh PostgreSQL database, the real server in a child
 * process (BENCH_ROUTES, demo accounts), the scale seed (COURSE_PAGE_BENCH_COURSES, 10k by
 * default), then interleaved rounds of a bare route, GET /api/me and the course page the
 * search bench measures (the published course with the most reviews and a next start),
 * as the demo learner, at BENCH_CONNECTIONS (50). The same pair is measured at 100k
 * courses by the search bench. COURSE_PAGE_BENCH_CPU_PROF=<dir> writes the server's CPU
 * profile there (node --cpu-prof) when it stops.
 */

import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedCourses } from '../scripts/seed-courses.js';
import { cleanup, cleanupOnSignals } from './lib/cleanup.js';
import { envInt, runMain } from './lib/cli.js';
import { measure, type LoadSettings, type TargetResult } from './lib/load.js';
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
const BUDGET = { overMe: 0.5 };
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
      { name: 'me', path: '/api/me', headers: { cookie: session.cookie } },
      { name: 'course page', path: `/api/courses/${page.id}`, headers: { cookie: session.cookie } },
    ],
    settings,
    log,
  );
  await cleanup();
  const byName = (name: string) => routes.find((r) => r.name === name) as TargetResult;
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
  const me = byName('me');
  const pageResult = byName('course page');
  const ratios = pageResult.rounds.map((x, i) => x.reqPerSec / (me.rounds[i].reqPerSec || 1));
  const ratio = pageResult.median.reqPerSec / (me.median.reqPerSec || 1);
  console.log(
    `  course page ÷ /api/me per round: ${ratios.map((x) => x.toFixed(2)).join(' / ')}; median ${ratio.toFixed(2)}x (aim >= ${BUDGET.overMe}x)`,
  );
  console.log(`  load average ${loadBefore.toFixed(2)} before, ${os.loadavg()[0].toFixed(2)} after (${os.cpus().length} CPUs)`);
  const bad = routes.some((r) => r.problems.non2xx + r.problems.errors + r.problems.timeouts + r.problems.mismatches > 0);
  if (bad) {
    console.log('\nFAIL: responses that were not the expected 2xx');
    process.exitCode = 1;
  }
}

runMain(main);
