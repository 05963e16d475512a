/**
 * The search bench (issue 3, "Data at scale and bench"), part of `npm run bench`; alone:
 * `npm run bench:search`.
 *
 *   1. a fresh PostgreSQL database and the real server in a child process (BENCH_ROUTES,
 *      demo accounts); sign in as the demo learner;
 *   2. seed 10k courses (scripts/seed-courses.ts), measure the searches; seed 90k more
 *      (100k), check the server's result cache was dropped by the seed's NOTIFY, measure
 *      again with the naive query, the uncached search, the course page and a bare route;
 *   3. EXPLAIN ANALYZE of one search at 100k; a table; bench/results/search-latest.json;
 *      exit 1 when a budget is missed or a response was not the expected 2xx.
 *
 * Budgets at 100k courses, 50 connections, words matching 1-35% of courses: every search
 * >= 10x the req/s of the naive query on a word in a few percent of courses ("kids", 3.5%:
 * the ~100 req/s the issue describes), p99 < 100 ms; 10k -> 100k costs < 2x. Word by word
 * ratios (1.3%, 3.5%, 30%) and /api/me, the ceiling of any route that checks the session,
 * are printed beside, and every search also without the result cache ("uncached": each
 * request queries) against the same budgets, and the course page beside /api/me.
 * BENCH_CONNECTIONS, BENCH_ROUNDS, SEARCH_BENCH_SECONDS, SEARCH_BENCH_WARMUP_SECONDS,
 * SEARCH_BENCH_SMALL / SEARCH_BENCH_LARGE (course counts) override the defaults.
 */

import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PgDialect } from 'drizzle-orm/pg-core';
import { searchSql, type SearchParams } from '../src/server/courses/search-service.js';
import { seedCourses, type SeedResult } from '../scripts/seed-courses.js';
import { cleanup, cleanupOnSignals } from './lib/cleanup.js';
import { envInt, runMain } from './lib/cli.js';
import { measure, type LoadSettings, type Target, type TargetResult } from './lib/load.js';
import { startSeedingBench } from './lib/server.js';
import { table, writeResults } from './lib/report.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench/results/search-latest.json');

const BUDGET = {
  /** Search req/s over the naive query's on the reference word, at the large size. */
  searchOverNaive: 10,
  /** p99 of every search at the large size. */
  p99Ms: 100,
  /** req/s at the small size over req/s at the large size, per search. */
  growth: 2,
};

const settings: LoadSettings = {
  connections: envInt('BENCH_CONNECTIONS', 50),
  seconds: envInt('SEARCH_BENCH_SECONDS', 3),
  rounds: envInt('BENCH_ROUNDS', 3),
  warmupSeconds: envInt('SEARCH_BENCH_WARMUP_SECONDS', 1, 0),
};
const SMALL = envInt('SEARCH_BENCH_SMALL', 10_000);
const LARGE = envInt('SEARCH_BENCH_LARGE', 100_000);

/**
 * The words. In the seeded data "python" is in ~1% of courses, "kids" ~4%, "beginners"
 * ~30%; "kintsugi" in a few dozen at 100k; "pyhton" in none (a typo of python).
 */
const WORDS = { python: 'python', kids: 'kids', beginners: 'beginners', rare: 'kintsugi', typo: 'pyhton' };
/** The word of the budget's naive reference ("a few percent of courses"). */
const REFERENCE = 'kids' as const;
/** The naive query on the 30% word takes ~300 ms of CPU a call: fewer connections, so answers come back before the 10 s timeout. */
const NAIVE_SLOW_CONNECTIONS = 10;

const log = (line: string) => console.log(`  ${line}`);

interface Phase {
  courses: number;
  seed: SeedResult;
  routes: TargetResult[];
  /** Published courses matching each word (exact). */
  matches: Record<string, number>;
  /** Measured apart, with other settings (informational). */
  extra?: TargetResult[];
}

function searchTargets(cookie: string): Target[] {
  const s = (name: string, query: string) => ({ name, path: `/api/courses/search?${query}`, headers: { cookie } });
  return [
    s('search python', `q=${WORDS.python}`),
    s('search kids', `q=${WORDS.kids}`),
    s('search beginners', `q=${WORDS.beginners}`),
    s('search rare', `q=${WORDS.rare}`),
    s('search typo', `q=${WORDS.typo}`),
    s('search filtered', `q=${WORDS.kids}&format=online&hasSeats=true&maxPrice=20000&level=beginner`),
    s(
      'search no words',
      'category=cooking&startsAfter=' + new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10) + '&hasSeats=true',
    ),
  ];
}

/**
 * The same searches without the session lookup and without the result cache: what a miss
 * costs (every request queries). Named like the cached ones: "uncached python" beside
 * "search python".
 */
const uncachedTargets = (): Target[] =>
  searchTargets('')
    .filter((t) => t.name !== 'search no words')
    .map((t) => ({
      name: t.name.replace(/^search /, 'uncached '),
      path: t.path.replace('/api/courses/search?', '/api/bench/search-uncached?'),
    }));

async function main() {
  cleanupOnSignals();
  const { loadBefore, server, session, client } = await startSeedingBench({ name: 'search', title: 'search', root: ROOT, load: settings });

  const seed = async (courses: number) => {
    console.log(`\nSeeding ${courses.toLocaleString('en')} courses`);
    const result = await seedCourses(client, { courses, log: (line) => log(line) });
    console.log(
      `  done in ${result.totalSeconds.toFixed(1)} s: ${Object.entries(result.counts)
        .map(([k, v]) => `${k} ${v.toLocaleString('en')}`)
        .join(', ')}`,
    );
    return result;
  };
  /** Published courses matching each word (exact counts), and the share of all published. */
  const matches = async () => {
    const out: Record<string, number> = {};
    for (const [key, word] of Object.entries(WORDS)) {
      const { rows } = await client.query(
        `select count(*)::int as n from course where status = 'published' and search @@ websearch_to_tsquery('english', $1)`,
        [word],
      );
      out[key] = rows[0].n;
    }
    return out;
  };
  /** What the server answers (total is capped at 1000): tells whether its cache saw the seed. */
  const served = async (word: string) => {
    const res = await fetch(`${server.baseUrl}/api/courses/search?q=${word}&pageSize=1`, { headers: { cookie: session.cookie } });
    return ((await res.json()) as { total: number }).total;
  };

  // ---- the small size
  const smallSeed = await seed(SMALL);
  const smallMatches = await matches();
  const smallServed = await served(WORDS.kids);
  console.log(`\n${SMALL.toLocaleString('en')} courses: published courses matching each word ${JSON.stringify(smallMatches)}`);
  const smallRoutes = await measure(
    server.baseUrl,
    [{ name: 'noop', path: '/api/bench/noop' }, ...searchTargets(session.cookie), ...uncachedTargets()],
    settings,
    log,
  );
  const small: Phase = { courses: SMALL, seed: smallSeed, routes: smallRoutes, matches: smallMatches };

  // ---- the large size (the server keeps running: its cache must notice the seed)
  const largeSeed = await seed(LARGE - SMALL);
  const largeMatches = await matches();
  const cacheDropped = (await served(WORDS.kids)) !== smallServed;
  console.log(
    `\n${LARGE.toLocaleString('en')} courses: published courses matching each word ${JSON.stringify(largeMatches)}; result cache dropped by the seed's NOTIFY: ${cacheDropped ? 'yes' : 'NO'}`,
  );
  const {
    rows: [page],
  } = await client.query(
    `select id from course where status = 'published' and next_start_on is not null order by rating_count desc, id limit 1`,
  );
  // The heavy routes last in each round: requests still running when autocannon stops
  // would otherwise slow down the route measured next (the next round starts with noop).
  const largeRoutes = await measure(
    server.baseUrl,
    [
      { name: 'noop', path: '/api/bench/noop' },
      // The floor: one prepared primary-key SELECT, no session (what a route reading the database once can serve).
      { name: 'floor', path: `/api/bench/select?id=${session.userId}` },
      { name: 'me', path: '/api/me', headers: { cookie: session.cookie } },
      { name: 'course page', path: `/api/courses/${page.id}`, headers: { cookie: session.cookie } },
      ...searchTargets(session.cookie),
      ...(['python', 'kids'] as const).map((w) => ({ name: `naive ${w}`, path: `/api/bench/search-naive?q=${WORDS[w]}` })),
      ...uncachedTargets(),
    ],
    settings,
    log,
  );
  // The naive query on the 30% word, for the record (not a budget): on its own, fewer clients.
  log(`naive beginners: ${NAIVE_SLOW_CONNECTIONS} connections, one round`);
  const extra = await measure(
    server.baseUrl,
    [{ name: 'naive beginners', path: `/api/bench/search-naive?q=${WORDS.beginners}` }],
    { connections: NAIVE_SLOW_CONNECTIONS, seconds: settings.seconds * 2, rounds: 1, warmupSeconds: 0 },
    log,
  );
  const large: Phase = { courses: LARGE, seed: largeSeed, routes: largeRoutes, matches: largeMatches, extra };

  const explain = await explainSearch(client, { q: WORDS.kids });
  const explainRare = await explainSearch(client, { q: WORDS.rare });
  await cleanup();

  const failures = report(small, large, cacheDropped, explain, explainRare, loadBefore);
  saveResults(small, large, cacheDropped, explain, explainRare, failures, loadBefore);
  if (failures.length) {
    console.log(`\nFAIL: ${failures.join('; ')}`);
    process.exitCode = 1;
  } else {
    console.log('\nPASS: every search budget met, every response 2xx');
  }
}

/** EXPLAIN (ANALYZE, BUFFERS) of the exact SQL GET /api/courses/search runs. */
async function explainSearch(client: pg.Client, p: Partial<SearchParams>): Promise<string> {
  const query = new PgDialect().sqlToQuery(searchSql({ sort: 'relevance', page: 1, pageSize: 20, ...p } as SearchParams));
  const { rows } = await client.query(`explain (analyze, buffers) ${query.sql}`, query.params);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

const byName = (phase: Phase, name: string) => phase.routes.find((r) => r.name === name)!;
const pct = (phase: Phase, word: string) => `${((phase.matches[word] / (phase.seed.counts.published || 1)) * 100).toFixed(2)}%`;

function report(small: Phase, large: Phase, cacheDropped: boolean, explain: string, explainRare: string, loadBefore: number): string[] {
  const failures: string[] = [];
  for (const phase of [small, large]) {
    console.log(`\n=== ${phase.courses.toLocaleString('en')} courses (median round of each route) ===`);
    table(
      ['route', 'req/s', 'p50', 'p99', 'req/s per round', 'bad'],
      phase.routes.map((r) => [
        r.name,
        String(r.median.reqPerSec),
        `${r.median.p50Ms} ms`,
        `${r.median.p99Ms} ms`,
        r.rounds.map((x) => x.reqPerSec).join(' / '),
        String(r.problems.non2xx + r.problems.errors + r.problems.timeouts + r.problems.mismatches),
      ]),
    );
    for (const r of phase.routes) {
      const p = r.problems;
      if (p.non2xx || p.errors || p.timeouts || p.mismatches) {
        console.log(
          `  !! ${r.name}: ${p.non2xx} non-2xx (${JSON.stringify(p.statusCodes)}), ${p.errors} errors, ${p.timeouts} timeouts, ${p.mismatches} unexpected bodies`,
        );
        failures.push(`${phase.courses} courses, ${r.name}: responses that were not the expected 2xx`);
      }
    }
  }

  const naiveExtra = large.extra ?? [];
  if (naiveExtra.length) {
    const r = naiveExtra[0];
    console.log(
      `  (${r.name}, ${NAIVE_SLOW_CONNECTIONS} connections: ${r.median.reqPerSec} req/s, p50 ${r.median.p50Ms} ms, p99 ${r.median.p99Ms} ms)`,
    );
  }
  console.log('\n=== Budgets ===');
  // The budget's reference: the naive query on a word in a few percent of courses, what the
  // issue describes ("about 100 req/s at 100k rows"). Every search must do 10x that.
  const reference = byName(large, `naive ${REFERENCE}`).median.reqPerSec;
  console.log(
    `  naive query, "${WORDS[REFERENCE]}" (${large.matches[REFERENCE]} matches, ${pct(large, REFERENCE)}): ${reference} req/s — the reference`,
  );
  for (const r of large.routes.filter((x) => x.name.startsWith('search '))) {
    const ratio = r.median.reqPerSec / reference;
    const ok = ratio >= BUDGET.searchOverNaive;
    console.log(
      `  ${r.name.padEnd(18)} ${String(r.median.reqPerSec).padStart(5)} req/s = ${ratio.toFixed(1)}x the reference (budget >= ${BUDGET.searchOverNaive}x) ${ok ? 'ok' : 'UNDER BUDGET'}`,
    );
    if (!ok) failures.push(`${r.name} is ${ratio.toFixed(1)}x the naive query (budget ${BUDGET.searchOverNaive}x)`);
  }
  // Word by word (no budget of its own): search and the uncached search against the naive
  // query on the same word, and /api/me, the ceiling of any route that checks the session.
  console.log('  same word:');
  for (const w of ['python', 'kids', 'beginners'] as const) {
    const naive = large.routes.find((x) => x.name === `naive ${w}`) ?? naiveExtra.find((x) => x.name === `naive ${w}`);
    if (!naive) continue;
    const n = naive.median.reqPerSec || 1;
    const f = (name: string) => (byName(large, name).median.reqPerSec / n).toFixed(1);
    console.log(
      `    "${WORDS[w]}" (${large.matches[w]} matches, ${pct(large, w)}): naive ${naive.median.reqPerSec} req/s${naive === naiveExtra.find((x) => x.name === `naive ${w}`) ? ` (${NAIVE_SLOW_CONNECTIONS} connections)` : ''}; search ${f(`search ${w}`)}x, uncached ${f(`uncached ${w}`)}x, /api/me ${f('me')}x`,
    );
  }
  for (const r of large.routes.filter((x) => x.name.startsWith('search '))) {
    if (r.median.p99Ms >= BUDGET.p99Ms) {
      console.log(`  ${r.name}: p99 ${r.median.p99Ms} ms (budget < ${BUDGET.p99Ms} ms) OVER BUDGET`);
      failures.push(`${r.name} p99 ${r.median.p99Ms} ms at ${large.courses} courses`);
    }
  }
  console.log(
    `  p99 of every search at ${large.courses.toLocaleString('en')} courses < ${BUDGET.p99Ms} ms: ${failures.some((f) => f.includes('p99')) ? 'NO' : 'ok'} (worst ${Math.max(...large.routes.filter((x) => x.name.startsWith('search ')).map((x) => x.median.p99Ms))} ms)`,
  );
  const bare = byName(large, 'noop').median;
  if (bare.p99Ms >= BUDGET.p99Ms / 2) {
    console.log(
      `  NOTE: the bare route's own p99 was ${bare.p99Ms} ms (${bare.reqPerSec} req/s): the machine was saturated by other work, latencies say more about it than about search`,
    );
  }
  // The same budgets for a cache miss (every request queries), reported beside the served
  // figures. Not a failure of the run: the served route is what the budget judges
  // (docs/decisions/0005-course-search.md), this shows how much of it the cache carries.
  console.log(
    `\n=== Cached (served) and uncached (every request queries), ${large.courses.toLocaleString('en')} courses; reference: naive "${WORDS[REFERENCE]}" ${reference} req/s ===`,
  );
  const rows: string[][] = [];
  const ref = byName(large, `naive ${REFERENCE}`);
  // Per round: both routes ran in the same minute of a shared machine (its load moves a lot).
  const perRound = (r: TargetResult) => {
    const ratios = r.rounds.map((x, i) => x.reqPerSec / (ref.rounds[i]?.reqPerSec || 1)).sort((a, b) => a - b);
    return ratios[Math.floor((ratios.length - 1) / 2)];
  };
  for (const r of large.routes.filter((x) => x.name.startsWith('uncached '))) {
    const cached = byName(large, r.name.replace(/^uncached /, 'search '));
    const smallR = small.routes.find((x) => x.name === r.name);
    const growth = smallR ? smallR.median.reqPerSec / r.median.reqPerSec : NaN;
    const ratio = r.median.reqPerSec / reference;
    const met = ratio >= BUDGET.searchOverNaive && r.median.p99Ms < BUDGET.p99Ms && growth < BUDGET.growth;
    rows.push([
      r.name.replace(/^uncached /, ''),
      String(cached.median.reqPerSec),
      `${cached.median.p99Ms} ms`,
      `${(cached.median.reqPerSec / reference).toFixed(1)}x`,
      `${perRound(cached).toFixed(1)}x`,
      String(r.median.reqPerSec),
      `${r.median.p99Ms} ms`,
      `${ratio.toFixed(1)}x`,
      `${perRound(r).toFixed(1)}x`,
      growth.toFixed(2),
      met ? 'met' : 'NOT MET',
    ]);
  }
  table(
    [
      'search',
      'cached req/s',
      'p99',
      'x ref',
      'x ref/round',
      'uncached req/s',
      'p99',
      'x ref',
      'x ref/round',
      `growth ${small.courses / 1000}k->${large.courses / 1000}k`,
      'uncached budget',
    ],
    rows,
  );
  console.log("  (x ref: median round over the reference's median round; x ref/round: median of the ratios within each round)");
  const fl = byName(large, 'floor');
  console.log(
    `  floor (one prepared primary-key SELECT, no session): ${fl.median.reqPerSec} req/s, ${perRound(fl).toFixed(1)}x the reference: no uncached search can exceed it`,
  );
  const me = byName(large, 'me').median;
  const page = byName(large, 'course page').median;
  const meRound = byName(large, 'me');
  const pageRatios = byName(large, 'course page')
    .rounds.map((x, i) => x.reqPerSec / (meRound.rounds[i]?.reqPerSec || 1))
    .sort((a, b) => a - b);
  console.log(`  course page ÷ /api/me per round: ${pageRatios.map((x) => x.toFixed(2)).join(' / ')}`);
  console.log(
    `  course page: ${page.reqPerSec} req/s, p50 ${page.p50Ms} ms, p99 ${page.p99Ms} ms (aim: p99 < ${BUDGET.p99Ms} ms ${page.p99Ms < BUDGET.p99Ms ? 'ok' : 'NOT MET'}); /api/me ${me.reqPerSec} req/s, p99 ${me.p99Ms} ms: the page is ${(page.reqPerSec / me.reqPerSec).toFixed(2)}x /api/me`,
  );
  for (const r of small.routes.filter((x) => x.name.startsWith('search '))) {
    const growth = r.median.reqPerSec / byName(large, r.name).median.reqPerSec;
    const ok = growth < BUDGET.growth;
    console.log(
      `  growth ${small.courses / 1000}k -> ${large.courses / 1000}k, ${r.name}: ${growth.toFixed(2)}x (budget < ${BUDGET.growth}x) ${ok ? 'ok' : 'OVER BUDGET'}`,
    );
    if (!ok) failures.push(`${r.name} costs ${growth.toFixed(2)}x more at ${large.courses} than at ${small.courses} courses`);
  }
  const noopRatio = (phase: Phase) => byName(phase, 'search kids').median.reqPerSec / byName(phase, 'noop').median.reqPerSec;
  console.log(
    `  search kids ÷ noop: ${noopRatio(small).toFixed(2)} at ${small.courses / 1000}k, ${noopRatio(large).toFixed(2)} at ${large.courses / 1000}k`,
  );
  console.log(`  result cache dropped when the seed added courses (NOTIFY): ${cacheDropped ? 'yes' : 'NO'}`);
  if (!cacheDropped) failures.push('the server kept serving cached results after the seed changed the courses');

  console.log(`\n=== Seed ===`);
  for (const phase of [small, large]) {
    console.log(
      `  +${(phase === small ? small.courses : large.courses - small.courses).toLocaleString('en')} courses in ${phase.seed.totalSeconds.toFixed(1)} s; totals ${Object.entries(
        phase.seed.counts,
      )
        .map(([k, v]) => `${k} ${v.toLocaleString('en')}`)
        .join(', ')}`,
    );
  }
  console.log(`\n=== EXPLAIN ANALYZE of GET /api/courses/search?q=${WORDS.kids} at ${large.courses.toLocaleString('en')} courses ===`);
  console.log(
    explain
      .split('\n')
      .map((l) => `  ${l}`)
      .join('\n'),
  );
  console.log(`\n=== EXPLAIN ANALYZE of GET /api/courses/search?q=${WORDS.rare} ===`);
  console.log(
    explainRare
      .split('\n')
      .map((l) => `  ${l}`)
      .join('\n'),
  );
  console.log(
    `\n  load average 1 min: ${loadBefore.toFixed(2)} before, ${os.loadavg()[0].toFixed(2)} after, on ${os.cpus().length} CPUs${loadBefore > os.cpus().length ? ' — the machine was busy: figures are low and noisy' : ''}`,
  );
  return failures;
}

function saveResults(
  small: Phase,
  large: Phase,
  cacheDropped: boolean,
  explain: string,
  explainRare: string,
  failures: string[],
  loadBefore: number,
) {
  writeResults(
    ROOT,
    RESULTS,
    {
      settings,
      budgets: BUDGET,
      words: WORDS,
      phases: [small, large],
      cacheDroppedBySeed: cacheDropped,
      explain: { [WORDS.kids]: explain, [WORDS.rare]: explainRare },
      pass: failures.length === 0,
      failures,
    },
    { loadAverage1mBefore: loadBefore },
  );
}

runMain(main);
