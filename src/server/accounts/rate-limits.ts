import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { rowsOf } from '../db/transaction.js';

/** A key's fixed window after a hit: the hits counted in it and when it ends. */
export interface Hit {
  count: number;
  resetAt: Date;
  /** Milliseconds until the window ends, by the database's clock (every instance agrees). */
  ttlMs: number;
}

interface HitRow {
  count: number | string;
  reset_at: string | Date;
  ttl_ms: number | string;
}

/** A value of a statement: given, or a SQL expression, or a prepared statement's placeholder. */
type SqlValue<T> = T | SQL | Placeholder;

/** How often one process sweeps the windows that ended (rows are reused by their key anyway). */
const SWEEP_EVERY_MS = 60_000;
/** Rows removed by one sweep at most (a short statement; the next sweep takes the rest). */
const SWEEP_BATCH = 1000;
const lastSweep = new WeakMap<Db, number>();

/**
 * One hit on `key` as a SQL statement: a single `INSERT ... ON CONFLICT DO UPDATE ...
 * RETURNING`, so the count is read and written under the row's lock. N concurrent hits on
 * one key see N distinct counts (1..N), whatever the instance or the connection: a limit of
 * `max` lets exactly `max` through. A window that ended starts again at `by` (0: a hit
 * already counted, checked again without counting it twice). With `from` (a CTE's name),
 * the hit is counted only when that relation has a row: a statement counts an attempt once
 * its other checks passed (the mailbox send), and commits as that statement does. Without
 * it the hit is a statement of its own, committed asynchronously (`synchronous_commit` off
 * for its transaction only): it does not wait for the WAL flush (4.1 ms against 0.45 ms a
 * hit here), other instances see it at once all the same, and a crash of PostgreSQL itself
 * can lose only the last fraction of a second of counts. Answers count, reset_at and ttl_ms.
 */
export function hitSql(key: SqlValue<string>, windowSeconds: SqlValue<number>, by: SqlValue<number> = 1, from?: SQL): SQL {
  const row = sql`${key}::text, ${by}::int, now() + make_interval(secs => ${windowSeconds}::float8)`;
  return sql`
    insert into rate_limit_hit as h (key, count, reset_at)
    select ${row} from ${from ?? sql`(select set_config('synchronous_commit', 'off', true)) as async`}
    on conflict (key) do update set
      count = case when h.reset_at <= now() then excluded.count else h.count + excluded.count end,
      reset_at = case when h.reset_at <= now() then excluded.reset_at else h.reset_at end
    returning count, reset_at, greatest(0, ceil(extract(epoch from (reset_at - now())) * 1000))::bigint as ttl_ms`;
}

/**
 * The rate limits of every instance, kept in PostgreSQL (`rate_limit_hit`: one row per key
 * and window): the Fastify routes' limits (rate-limit-store.ts), the auth library's limiter
 * (auth.ts) and the attempt counters (attempts.ts) all count here, so a limit is global
 * across instances and exact under concurrency (docs/decisions/0057-rate-limits-global-and-exact.md).
 * The same SQL runs on PGlite.
 */
export function createRateLimits(db: Db) {
  function sweepNow(): Promise<void> {
    return db
      .execute(
        sql`delete from rate_limit_hit where reset_at < now() and key in (
              select key from rate_limit_hit where reset_at < now() limit ${SWEEP_BATCH})`,
      )
      .then(() => undefined);
  }

  /** At most once a minute per process, beside a hit and never awaited by it. */
  function maybeSweep() {
    const now = Date.now();
    if (now - (lastSweep.get(db) ?? 0) < SWEEP_EVERY_MS) return;
    lastSweep.set(db, now);
    // A failed sweep (a closing pool, a database gone for a moment) is retried a minute later.
    sweepNow().catch(() => undefined);
  }

  const toHit = (row: HitRow): Hit => ({ count: Number(row.count), resetAt: new Date(row.reset_at), ttlMs: Number(row.ttl_ms) });

  return {
    /** Counts one hit (or `by`) on `key` in its window of `windowMs`, atomically; answers the window after it. */
    async hit(key: string, windowMs: number, by = 1): Promise<Hit> {
      maybeSweep();
      const [row] = await rowsOf<HitRow>(db, hitSql(key, windowMs / 1000, by));
      return toHit(row);
    },
    /** The window of `key` as it stands (count 0 when none is open), nothing counted or written. */
    async read(key: string): Promise<Hit> {
      const [row] = await rowsOf<HitRow>(
        db,
        sql`select count, reset_at, greatest(0, ceil(extract(epoch from (reset_at - now())) * 1000))::bigint as ttl_ms
            from rate_limit_hit where key = ${key} and reset_at > now()`,
      );
      return row ? toHit(row) : { count: 0, resetAt: new Date(), ttlMs: 0 };
    },
    /** Gives one hit back on `key` (an attempt whose outcome does not count). */
    async giveBack(key: string): Promise<void> {
      await db.execute(sql`update rate_limit_hit set count = count - 1 where key = ${key} and count > 0 and reset_at > now()`);
    },
    async clear(key: string): Promise<void> {
      await db.execute(sql`delete from rate_limit_hit where key = ${key}`);
    },
    /** Removes windows that ended (a batch); the limiter does it by itself once a minute. */
    sweep: sweepNow,
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;
