/**
 * What each search statement costs PostgreSQL, beside the session lookup's, on a seeded
 * database (`npx tsx bench/search-statements.ts [database url]`; default the kept
 * agora_bench_search_100000 of BENCH_SCALE, bench/lib/scale.ts). Not part of `npm run bench`.
 *
 * One connection with the search connections' settings (SEARCH_CONNECTION_OPTIONS), every
 * statement prepared as the app prepares it, run in interleaved rounds; the figure is the
 * backend's CPU per call (/proc, utime + stime), which the shared machine's other work
 * barely moves, and its ratio to the session lookup's measured in the same rounds (what
 * `/api/me` runs). Then EXPLAIN (ANALYZE, BUFFERS) of each, as the generic plan runs it.
 * STATEMENT_ROUNDS (default 5), STATEMENT_CALLS (per statement per round, default 300),
 * STATEMENT_ONLY=clubs (skip the courses), STATEMENT_EXPLAIN=false (no plans).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { viewerBySessionToken } from '../src/server/accounts/viewer.js';
import { oneWordQuery } from '../src/server/courses/search-one-word.js';
import type { SearchParams } from '../src/server/courses/search-parts.js';
import { SEARCH_CONNECTION_OPTIONS } from '../src/server/courses/search-routes.js';
import { clubOneWordQuery } from '../src/server/clubs/search-clubs.js';
import type { ClubSearchParams } from '../src/server/clubs/search-clubs.js';
import { ADMIN_URL } from './lib/database.js';
import { envInt, runMain } from './lib/cli.js';
import { median } from './lib/ratios.js';
import { table } from './lib/report.js';

const ROUNDS = envInt('STATEMENT_ROUNDS', 5);
const CALLS = envInt('STATEMENT_CALLS', 300);

const cpuMs = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};

type Statement = { name: string; text: string; values: unknown[] };

async function main() {
  const url =
    process.argv[2] ??
    (() => {
      const u = new URL(ADMIN_URL);
      u.pathname = '/agora_bench_search_100000';
      return u.toString();
    })();
  const clubsUrl = url.replace(/agora_bench_search_/, 'agora_bench_clubs_');
  const c = new pg.Client({ connectionString: url, options: SEARCH_CONNECTION_OPTIONS });
  await c.connect();
  const {
    rows: [{ token, pid }],
  } = await c.query(`select (select token from session where expires_at > now() limit 1) as token, pg_backend_pid() as pid`);
  const dialect = new PgDialect();
  const lookup = dialect.sqlToQuery(sql`${viewerBySessionToken(sql`${token}::text`)}`);
  const p = (q: Partial<SearchParams>) => ({ sort: 'relevance', page: 1, pageSize: 20, hasSeats: 'false', ...q }) as SearchParams;
  const courses: Statement[] = [{ name: 'session lookup', text: lookup.sql, values: lookup.params }];
  const add = (name: string, q: { name: string; sql: string; params: unknown[] }) => courses.push({ name, text: q.sql, values: q.params });
  for (const [label, params] of [
    ['python', p({ q: 'python' })],
    ['kids', p({ q: 'kids' })],
    ['beginners', p({ q: 'beginners' })],
    ['rare', p({ q: 'kintsugi' })],
    ['typo (first)', p({ q: 'pyhton' })],
    ['filtered', p({ q: 'kids', format: 'online', hasSeats: 'true', maxPrice: 20000, level: 'beginner' })],
  ] as const) {
    add(label, oneWordQuery(params));
    add(`${label} + session`, oneWordQuery(params, token));
  }
  if (process.env.STATEMENT_ONLY !== 'clubs') await measureAll(c, pid, courses, 'courses');

  // Clubs, when the kept clubs database is there.
  const cc = new pg.Client({ connectionString: clubsUrl, options: SEARCH_CONNECTION_OPTIONS });
  try {
    await cc.connect();
  } catch {
    console.log(`\n(no ${clubsUrl}: clubs skipped)`);
    await c.end();
    return;
  }
  const {
    rows: [cl],
  } = await cc.query(`select (select token from session where expires_at > now() limit 1) as token, pg_backend_pid() as pid`);
  const clookup = dialect.sqlToQuery(sql`${viewerBySessionToken(sql`${cl.token}::text`)}`);
  const cp = (q: Partial<ClubSearchParams>) => ({ sort: 'relevance', page: 1, pageSize: 20, ...q }) as ClubSearchParams;
  const clubs: Statement[] = [{ name: 'session lookup', text: clookup.sql, values: clookup.params }];
  for (const [label, params] of [
    ['weekend', cp({ q: 'weekend' })],
    ['london', cp({ q: 'london' })],
    ['rare', cp({ q: 'kintsugi' })],
    ['typo (first)', cp({ q: 'photgraphy' })],
    ['filtered', cp({ q: 'london', category: 'sport', upcoming: 'true' })],
  ] as const) {
    const q = clubOneWordQuery(params, params.q!, cl.token);
    clubs.push({ name: `${label} + session`, text: q.sql, values: q.params });
  }
  await measureAll(cc, cl.pid, clubs, 'clubs');
  await cc.end();
  await c.end();
}

async function measureAll(c: pg.Client, pid: number, statements: Statement[], title: string) {
  const run = (s: Statement, i: number) => c.query({ name: `s${i}`, text: s.text, values: s.values });
  // Prepared and planned once (generic plans), warm caches.
  for (let k = 0; k < 20; k++) for (const [i, s] of statements.entries()) await run(s, i);
  const per: number[][] = statements.map(() => []);
  const wall: number[][] = statements.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, s] of statements.entries()) {
      const cpu0 = cpuMs(pid);
      const t0 = performance.now();
      for (let k = 0; k < CALLS; k++) await run(s, i);
      wall[i].push(((performance.now() - t0) * 1000) / CALLS);
      per[i].push(((cpuMs(pid) - cpu0) * 1000) / CALLS);
    }
  }
  console.log(
    `\n=== ${title}: PostgreSQL CPU per call (µs), ${ROUNDS} rounds of ${CALLS} calls, load average ${os.loadavg()[0].toFixed(2)} ===`,
  );
  const base = per[0];
  table(
    ['statement', 'CPU µs per round', 'median', '÷ session lookup', 'wall µs (median)'],
    statements.map((s, i) => [
      s.name,
      per[i].map((x) => x.toFixed(0)).join(' / '),
      median(per[i]).toFixed(0),
      median(per[i].map((x, r) => x / (base[r] || 1))).toFixed(2),
      median(wall[i]).toFixed(0),
    ]),
  );
  if (process.env.STATEMENT_EXPLAIN !== 'false') {
    for (const [i, s] of statements.entries()) {
      const args = s.values.map((v) => (v === null || v === undefined ? 'null' : c.escapeLiteral(String(v)))).join(',');
      const { rows } = await c.query(`explain (analyze, buffers, costs off) execute s${i}${args ? `(${args})` : ''}`);
      console.log(`\n--- ${s.name}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
    }
  }
}

runMain(main);
