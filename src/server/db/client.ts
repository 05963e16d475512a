import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PoolClient } from 'pg';
import { fillPlaceholders, sql, type SQL } from 'drizzle-orm';
import { compactPlaceholders } from './fixed-text.js';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.js';
import { ADVISORY_LOCKS, type AdvisoryLock } from './locks.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'postgres' | 'pglite';
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  /**
   * Runs a hot statement whose text never changes (only its parameters do) as a named
   * prepared statement: on PostgreSQL each pool connection parses and plans it once, where an
   * ordinary query is planned on every call (planning a many-CTE statement costs more than
   * running it; ADR 0029). On PGlite it is an ordinary parameterised query. Autocommit: for a
   * statement inside a transaction use the transaction's `execute`.
   *
   * With `values`, the query holds `sql.placeholder(key)`s filled from them, and its text is
   * built once per name (no walk of the SQL tree per call): pass the same SQL object each time.
   */
  prepared<R>(name: string, query: SQL, values?: Record<string, unknown>): Promise<R[]>;
  /**
   * PGlite only: its own LISTEN (one process, so no connection of its own). On PostgreSQL
   * a listener needs a dedicated connection, which realtime/fan-out.ts opens from the URL.
   */
  listen?(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /** True when every migration of this build is applied (readiness; false when the database is unreachable). */
  schemaCurrent(): Promise<boolean>;
  /**
   * Runs `fn` while this process holds a PostgreSQL advisory lock (on a connection of its own,
   * released when `fn` ends or the connection is lost). `wait: false`: when another process
   * holds it, `fn` does not run and `{ acquired: false }` is answered. PGlite (one process)
   * just runs `fn`.
   */
  withLock<T>(
    key: AdvisoryLock,
    fn: () => Promise<T>,
    opts?: { wait?: boolean },
  ): Promise<{ acquired: true; value: T } | { acquired: false }>;
  /** PostgreSQL only: the pool's connections now (for the metrics); null on PGlite. */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  close(): Promise<void>;
}

const dialect = new PgDialect();

/** The text and parameters of a prepared() call (built once per name when it has values). */
function compiler() {
  const byName = new Map<string, { sql: string; params: unknown[] }>();
  return (name: string, query: SQL, values?: Record<string, unknown>) => {
    if (!values) return dialect.sqlToQuery(query);
    let compiled = byName.get(name);
    if (!compiled) byName.set(name, (compiled = compactPlaceholders(dialect.sqlToQuery(query))));
    return { sql: compiled.sql, params: fillPlaceholders(compiled.params, values) };
  };
}

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../drizzle');

/** The newest migration of this build (drizzle's journal): its timestamp is what drizzle records as applied. */
function newestMigration(): number {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
  return Math.max(0, ...journal.entries.map((e) => e.when));
}

/** Whether drizzle's record of applied migrations reaches this build's newest one. */
async function appliedUpTo(query: (text: string) => Promise<{ rows: unknown[] }>): Promise<boolean> {
  try {
    const { rows } = await query('select max(created_at)::text as newest from drizzle.__drizzle_migrations');
    const newest = Number((rows[0] as { newest: string | null } | undefined)?.newest ?? 0);
    return newest >= newestMigration();
  } catch {
    // No record yet (3F000/42P01), or no database at all: not current.
    return false;
  }
}

/**
 * PostgreSQL when a URL is given, otherwise embedded PGlite under dataDir/pg.
 * Migrations are applied before the database is handed out.
 */
export async function openDatabase(opts: {
  url?: string;
  dataDir: string;
  poolSize?: number;
  /** Called with the SQL of every query the app makes (tests count queries per request). */
  onQuery?: (sql: string) => void;
  /** PostgreSQL only: how long to wait for a connection and for one statement (no limit when unset). */
  timeouts?: { connectMs: number; statementMs: number };
  /** PostgreSQL only: told when an idle connection breaks (the pool replaces it). */
  onConnectionError?: (err: Error) => void;
  /**
   * Apply the migrations this build lacks before handing the database out (the default; on
   * PostgreSQL under an advisory lock, so instances started together apply each once). False
   * (MIGRATE_ON_START=false): a deploy step runs `npm run migrate`, and readiness says whether
   * it has.
   */
  migrate?: boolean;
}): Promise<Database> {
  let database: Database;
  const compile = compiler();
  const logger = opts.onQuery ? { logQuery: (query: string) => opts.onQuery!(query) } : undefined;
  if (opts.url) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const t = opts.timeouts;
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize ?? 10,
      keepAlive: true,
      ...(t && {
        connectionTimeoutMillis: t.connectMs,
        statement_timeout: t.statementMs,
        // The client gives up a little after the server would have: covers a server that
        // stopped answering at all (a hung host, a dropped network), where no cancel arrives.
        query_timeout: t.statementMs + 2000,
      }),
    });
    // A connection ended by the server while idle in the pool (pg_terminate_backend, a restart,
    // a failover, a proxy's idle cut) is emitted here; without a listener it ends the process.
    // The pool has already dropped it and opens a new one on the next query.
    pool.on('error', (err) => opts.onConnectionError?.(err));
    // A connection checked out between two queries (inside a transaction) has no pool
    // listener: its error would end the process too. The query that follows fails instead,
    // and the pool discards the connection when it is released.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = drizzle(pool, { schema, logger });
    const holdLock = async <T>(key: AdvisoryLock, wait: boolean, fn: (client: PoolClient) => Promise<T>) => {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        if (!wait) {
          const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [key]);
          if (!rows[0].ok) return { acquired: false as const };
        } else {
          // Waiting for another instance's migrations is not a slow statement: no timeout here.
          await client.query('set statement_timeout = 0');
          await client.query('select pg_advisory_lock($1)', [key]);
          await client.query('reset statement_timeout');
        }
        try {
          return { acquired: true as const, value: await fn(client) };
        } finally {
          await client.query('select pg_advisory_unlock($1)', [key]).catch((err: Error) => (broken = err));
        }
      } catch (err) {
        broken = err as Error;
        throw err;
      } finally {
        // A connection that failed may still hold the lock in a half-open session: discard it.
        client.release(broken);
      }
    };
    const withLock: Database['withLock'] = (key, fn, lockOpts = {}) => holdLock(key, lockOpts.wait !== false, () => fn());
    if (opts.migrate !== false) {
      // One instance migrates at a time; the others wait, then find nothing left to apply.
      // On the lock's own connection: a pool of one would otherwise wait on itself.
      await holdLock(ADVISORY_LOCKS.migrations, true, (client) => migrate(drizzle(client), { migrationsFolder: MIGRATIONS })).catch(
        async (err) => {
          await pool.end().catch(() => {});
          throw err;
        },
      );
    }
    database = {
      db: db as unknown as Db,
      kind: 'postgres',
      ping: () => ping(db as unknown as Db),
      schemaCurrent: () => appliedUpTo((text) => pool.query(text)),
      withLock,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      prepared: async <R>(name: string, query: SQL, values?: Record<string, unknown>) => {
        const { sql: text, params } = compile(name, query, values);
        opts.onQuery?.(text);
        return (await pool.query({ name, text, values: params as unknown[] })).rows as R[];
      },
      close: () => pool.end(),
    };
  } else {
    const { PGlite } = await import('@electric-sql/pglite');
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
    const { btree_gist } = await import('@electric-sql/pglite/contrib/btree_gist');
    const { drizzle } = await import('drizzle-orm/pglite');
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    const dir = path.resolve(opts.dataDir, 'pg');
    mkdirSync(dir, { recursive: true });
    const client = await PGlite.create(dir, { extensions: { pg_trgm, btree_gist } });
    const db = drizzle(client, { schema, logger });
    if (opts.migrate !== false) await migrate(db, { migrationsFolder: MIGRATIONS });
    database = {
      db: db as unknown as Db,
      kind: 'pglite',
      ping: () => ping(db as unknown as Db),
      schemaCurrent: () => appliedUpTo((text) => client.query(text)),
      // One process: nobody to exclude.
      withLock: async (_key, fn) => ({ acquired: true, value: await fn() }),
      poolStats: () => null,
      prepared: async <R>(name: string, query: SQL, values?: Record<string, unknown>) => {
        const { sql: text, params } = compile(name, query, values);
        opts.onQuery?.(text);
        return (await client.query<R>(text, params as unknown[])).rows;
      },
      listen: (channel, onPayload) => client.listen(channel, onPayload),
      close: () => client.close(),
    };
  }
  return database;
}

async function ping(db: Db): Promise<boolean> {
  try {
    await Promise.race([db.execute(sql`select 1`), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000))]);
    return true;
  } catch {
    return false;
  }
}
