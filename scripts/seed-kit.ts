/**
 * What the scale seeds share (scripts/seed-courses.ts, seed-clubs.ts, seed-analytics.ts):
 * the SQL runner they take, array literals, the timed step, the bulk-load transaction's
 * settings, the secondary indexes dropped and rebuilt around the inserts, the command
 * line and the database it opens. Imports nothing of the product but the database opener.
 */
import { performance } from 'node:perf_hooks';

/** Something that runs SQL with positional parameters (a pg Client, or PGlite). */
export interface SqlRunner {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/** What every scale seed is asked, besides its counts. */
export interface SeedRunOptions {
  /** 0..1; the same seed and counts give the same text. */
  seed?: number;
  log?: (line: string) => void;
}

/** What a scale seed answers: its batch tag, the totals in the database, seconds per step. */
export interface SeedResult {
  batch: string;
  counts: Record<string, number>;
  /** Seconds per step. */
  timings: Record<string, number>;
  totalSeconds: number;
}

const quoteLiteral = (s: string) => `'${s.replace(/'/g, "''")}'`;
/** A PostgreSQL text[] literal of these strings. */
export const textArray = (items: string[]) => `array[${items.map(quoteLiteral).join(',')}]::text[]`;
/** A random element of an array literal (1-based), chosen by a value in [0, 1). */
export const pick = (arr: string, r: string) => `(${arr})[1 + floor((${r}) * cardinality(${arr}))::int]`;

/**
 * `step(name, sql, params)` runs one statement, or several in turn, logs its time and adds
 * it to `timings` (seconds per step name); answers the last statement's result.
 */
export function timedSteps(db: SqlRunner, log: (line: string) => void) {
  const timings: Record<string, number> = {};
  const step = async (name: string, sql: string | string[], params: unknown[] = []) => {
    const t = performance.now();
    let res: { rows: Record<string, unknown>[] } = { rows: [] };
    for (const statement of Array.isArray(sql) ? sql : [sql]) res = await db.query(statement, params);
    timings[name] = Number(((performance.now() - t) / 1000 + (timings[name] ?? 0)).toFixed(2));
    log(`${name.padEnd(26)} ${((performance.now() - t) / 1000).toFixed(2).padStart(7)} s`);
    return res;
  };
  return { step, timings };
}

export type Step = ReturnType<typeof timedSteps>['step'];

/**
 * Opens the bulk load's transaction: the random seed (the same seed gives the same text),
 * no synchronous commit, memory for sorts and index builds, and, where the role may
 * (a superuser), replica mode: the rows are consistent by construction, so per-row
 * foreign-key checks and triggers are skipped (the seed does the triggers' work itself).
 * Answers whether replica mode is on.
 */
export async function beginBulkLoad(db: SqlRunner, seed: number): Promise<boolean> {
  await db.query('begin');
  try {
    await db.query(`select setseed(${seed})`);
    await db.query(`set local synchronous_commit = off`);
    await db.query(`set local maintenance_work_mem = '256MB'`);
    await db.query(`set local work_mem = '64MB'`);
    await db.query('savepoint replica');
  } catch (err) {
    await db.query('rollback').catch(() => {});
    throw err;
  }
  try {
    await db.query(`set local session_replication_role = replica`);
    await db.query('release savepoint replica');
    return true;
  } catch {
    await db.query('rollback to savepoint replica');
    return false;
  }
}

/**
 * The plain secondary indexes of these tables (not primary, not unique, not behind a
 * constraint), with their definitions: dropped before the inserts and built again after,
 * since building a GIN or GiST index once is several times faster than a million inserts.
 */
export async function secondaryIndexes(db: SqlRunner, tables: string[]): Promise<{ name: string; def: string }[]> {
  const { rows } = await db.query(
    `
      select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
      from pg_index i join pg_class t on t.oid = i.indrelid
      where t.relname = any($1) and t.relnamespace = 'public'::regnamespace
        and not i.indisprimary and not i.indisunique
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    [tables],
  );
  return rows as { name: string; def: string }[];
}

/** A row of counts (PostgreSQL may answer them as strings) as numbers. */
export const countsOf = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));

/** The value of `--name value` or `--name=value` on a command line. */
export function argValue(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i >= 0) return args[i + 1];
  return args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
}

/**
 * The database a seed command fills, opened (and migrated) as the app does: PostgreSQL at
 * DATABASE_URL through one pg client, or else PGlite in DATA_DIR, only for at most
 * 2000 `what` (one in-process connection: data at scale wants PostgreSQL).
 */
export async function openSeedDatabase(
  count: number,
  what: string,
): Promise<{ runner: SqlRunner; close: () => Promise<void>; where: string }> {
  const url = process.env.DATABASE_URL;
  if (!url && count > 2000) {
    throw new Error(
      `DATABASE_URL is required for more than 2000 ${what} (PGlite is one in-process connection: use PostgreSQL for data at scale)`,
    );
  }
  const { openDatabase } = await import('../src/server/db/client.js');
  const dataDir = process.env.DATA_DIR || './data';
  const database = await openDatabase(url ? { url, dataDir, poolSize: 1 } : { dataDir });
  if (!url) {
    const runner = (database.db as unknown as { $client: SqlRunner }).$client;
    return { runner, close: () => database.close(), where: `PGlite at ${dataDir}` };
  }
  await database.close();
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return { runner: client, close: () => client.end(), where: new URL(url).pathname.slice(1) };
}
