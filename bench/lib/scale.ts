import os from 'node:os';
import pg from 'pg';
import { DEMO_PASSWORD, DEMO_USERS } from '../../src/server/seed/demo-users.js';
import { onCleanup } from './cleanup.js';
import { ADMIN_URL } from './database.js';
import type { Target, TargetResult } from './load.js';
import { median, ratio } from './ratios.js';
import { table } from './report.js';
import { signIn, startBenchServer, type RunningServer, type Session } from './server.js';

/**
 * The opt-in data-at-scale runs of the search and clubs benches (issue 24, "Data at scale"):
 * BENCH_SCALE=1000000 measures the searches at SCALE_BASE (100k) and at BENCH_SCALE rows in
 * the same rounds, each size on its own kept database and its own server (the same code,
 * the same settings), so that a slow spell of the shared machine falls on both sizes alike.
 *
 * Seeding a million courses takes tens of minutes: the databases are kept between runs,
 * named for the bench and the size (`agora_bench_search_1000000`), and marked seeded only
 * once the seed committed (a half-seeded one is dropped and seeded again). BENCH_RESEED=true
 * drops them first. A kept database is migrated by the server as it starts, like any other.
 */
export const SCALE_BASE = 100_000;

export function benchScale(): number | null {
  const raw = process.env.BENCH_SCALE;
  if (!raw) return null;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= SCALE_BASE) throw new Error(`BENCH_SCALE must be an integer above ${SCALE_BASE} (say 1000000)`);
  return n;
}

/** "100k", "1M". */
export const sizeLabel = (n: number) => (n >= 1_000_000 && n % 1_000_000 === 0 ? `${n / 1_000_000}M` : `${Math.round(n / 1000)}k`);

const admin = async <T>(f: (c: pg.Client) => Promise<T>) => {
  const c = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  await c.connect();
  try {
    return await f(c);
  } finally {
    await c.end();
  }
};
const urlOf = (name: string) => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

/** Whether the kept database holds a committed seed of `size` rows (the marker table the seed writes last). */
async function seeded(name: string, size: number): Promise<boolean> {
  const c = new pg.Client({ connectionString: urlOf(name) });
  await c.connect();
  try {
    const { rows } = await c.query(`select to_regclass('bench_seeded') is not null as marked`);
    if (!rows[0].marked) return false;
    const { rows: m } = await c.query(`select size from bench_seeded`);
    return m.length === 1 && Number(m[0].size) === size;
  } finally {
    await c.end();
  }
}

export interface ScaleSite {
  size: number;
  label: string;
  database: string;
  /** True when the database was seeded by an earlier run. */
  reused: boolean;
  seedSeconds: number;
  server: RunningServer;
  session: Session;
  client: pg.Client;
}

/**
 * A kept database of `size` rows with the real server on it and the demo learner signed in:
 * created, migrated (by the server) and seeded (`seed`, in one transaction) when it does not
 * hold that seed yet. The server is stopped at cleanup; the database stays.
 */
export async function scaleSite(opts: {
  bench: string;
  root: string;
  size: number;
  seed: (client: pg.Client, size: number) => Promise<unknown>;
  log: (line: string) => void;
}): Promise<ScaleSite> {
  const database = `agora_bench_${opts.bench}_${opts.size}`;
  const exists = await admin(async (c) => (await c.query(`select 1 from pg_database where datname = $1`, [database])).rowCount === 1);
  let reused = exists && process.env.BENCH_RESEED !== 'true' && (await seeded(database, opts.size));
  if (!reused) {
    if (exists) await admin((c) => c.query(`drop database ${database} with (force)`));
    await admin((c) => c.query(`create database ${database}`));
  }
  const server = await startBenchServer({ name: `${opts.bench}-${opts.size}`, root: opts.root, databaseUrl: urlOf(database) });
  const session = await signIn(server, DEMO_USERS[0].email, DEMO_PASSWORD);
  const client = new pg.Client({ connectionString: urlOf(database) });
  await client.connect();
  onCleanup(`close the connection to ${database}`, () => client.end());
  let seedSeconds = 0;
  if (!reused) {
    opts.log(`${database}: seeding ${opts.size.toLocaleString('en')} rows (kept for later runs)`);
    const t0 = performance.now();
    await opts.seed(client, opts.size);
    seedSeconds = (performance.now() - t0) / 1000;
    await client.query(`create table bench_seeded (size int not null, seeded_at timestamptz not null default now(), seconds real)`);
    await client.query(`insert into bench_seeded (size, seconds) values ($1, $2)`, [opts.size, seedSeconds]);
    await client.query('vacuum analyze');
    opts.log(`${database}: seeded in ${seedSeconds.toFixed(0)} s`);
    reused = false;
  } else {
    const { rows } = await client.query(`select seeded_at, seconds from bench_seeded`);
    opts.log(`${database}: reused (seeded ${new Date(rows[0].seeded_at).toISOString()} in ${Number(rows[0].seconds).toFixed(0)} s)`);
  }
  return { size: opts.size, label: sizeLabel(opts.size), database, reused, seedSeconds, server, session, client };
}

/** The targets of one site, named with its size ("1M uncached python"), on its own server. */
export const onSite = (site: ScaleSite, targets: Target[]): Target[] =>
  targets.map((t) => ({ ...t, name: `${site.label} ${t.name}`, baseUrl: site.server.baseUrl }));

/** The 1-minute load average, as printed beside every figure. */
export const loadNow = () => os.loadavg()[0];

export interface GrowthRow {
  route: string;
  small: TargetResult;
  large: TargetResult;
  /** req/s small ÷ req/s large in each round (same round: same minute of the machine), and their median. */
  perRound: number[];
  growth: number;
  /** The same, each size's route first divided by that size's /api/me (what the machine gave that server). */
  overMe: number;
}

/** Cost growth of each route from the small size to the large one, measured in the same rounds. */
export function growthRows(routes: TargetResult[], small: string, large: string, names: string[]): GrowthRow[] {
  const find = (name: string) => {
    const r = routes.find((x) => x.name === name);
    if (!r) throw new Error(`no route named "${name}" in this run`);
    return r;
  };
  const meS = find(`${small} me`);
  const meL = find(`${large} me`);
  return names.map((route) => {
    const s = find(`${small} ${route}`);
    const l = find(`${large} ${route}`);
    const per = s.rounds.map((x, i) => ratio(x.reqPerSec, l.rounds[i]?.reqPerSec ?? 0));
    const overMe = s.rounds.map((x, i) =>
      ratio(ratio(x.reqPerSec, meS.rounds[i].reqPerSec), ratio(l.rounds[i].reqPerSec, meL.rounds[i].reqPerSec)),
    );
    return { route, small: s, large: l, perRound: per, growth: median(per), overMe: median(overMe) };
  });
}

/**
 * The growth table both search benches print (courses and clubs): each route's req/s at both
 * sizes, the p99 at the large one and the growth, judged against the budgets; what misses them
 * is pushed to `failures`.
 */
export function printGrowth(
  rows: GrowthRow[],
  small: string,
  large: string,
  budget: { p99Ms: number; growth: number },
  failures: string[],
) {
  table(
    ['search', `req/s ${small}`, `req/s ${large}`, `p99 ${large}`, 'growth per round', 'growth', "growth ÷ /api/me's", 'verdict'],
    rows.map((g) => {
      const okP99 = g.large.median.p99Ms < budget.p99Ms;
      const ok = g.growth < budget.growth;
      if (!okP99) failures.push(`${large} ${g.route} p99 ${g.large.median.p99Ms} ms (budget < ${budget.p99Ms} ms)`);
      if (!ok) failures.push(`${g.route} costs ${g.growth.toFixed(2)}x more at ${large} than at ${small}`);
      return [
        g.route,
        String(g.small.median.reqPerSec),
        String(g.large.median.reqPerSec),
        `${g.large.median.p99Ms} ms`,
        g.perRound.map((x) => x.toFixed(2)).join(' / '),
        `${g.growth.toFixed(2)}x`,
        `${g.overMe.toFixed(2)}x`,
        okP99 && ok ? 'PASS' : `FAIL (${[!okP99 && 'p99', !ok && 'growth'].filter(Boolean).join(', ')})`,
      ];
    }),
  );
  console.log(
    `  (growth: req/s at ${small} ÷ req/s at ${large} within each round, median; budget < ${budget.growth}x; p99 budget < ${budget.p99Ms} ms)`,
  );
}
