import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { rowsOf } from '../db/transaction.js';
import { AppError } from '../http/errors.js';

/** A counter's row: attempts in the window that ends at reset_at. */
interface Hit {
  count: number;
  reset_at: string | Date;
}

/**
 * Counters of attempts in a fixed window, kept in the database so a limit holds across
 * restarts and across instances (sign-in failures per IP and per account, resends).
 */
export function createAttemptCounter(db: Db) {
  async function current(key: string): Promise<{ count: number; resetAt: Date } | null> {
    const [row] = await rowsOf<Hit>(db, sql`select count, reset_at from rate_limit_hit where key = ${key} and reset_at > now()`);
    return row ? { count: Number(row.count), resetAt: new Date(row.reset_at) } : null;
  }

  function limited(message: string, resetAt: Date) {
    const retryAfterSeconds = Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000));
    const minutes = Math.ceil(retryAfterSeconds / 60);
    return new AppError(429, 'rate_limited', `${message} Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, {
      retryAfterSeconds,
    });
  }

  async function giveBack(keys: string[]) {
    for (const key of keys) await db.execute(sql`update rate_limit_hit set count = count - 1 where key = ${key} and count > 0`);
  }

  return {
    /**
     * Counts one attempt on every key before the guarded work runs (one atomic upsert per
     * key), so concurrent attempts cannot all pass a check that reads first and counts
     * later. Over the limit on any key: the attempt is given back and 429 thrown. Answers
     * a function that gives the attempt back on some keys (for an outcome that does not count).
     */
    async take(keys: string[], limit: number, windowSeconds: number, message: string): Promise<(keys: string[]) => Promise<void>> {
      let over: Date | null = null;
      for (const key of keys) {
        const [row] = await rowsOf<Hit>(
          db,
          sql`
          insert into rate_limit_hit (key, count, reset_at)
          values (${key}, 1, now() + make_interval(secs => ${windowSeconds}))
          on conflict (key) do update set
            count = case when rate_limit_hit.reset_at <= now() then 1 else rate_limit_hit.count + 1 end,
            reset_at = case when rate_limit_hit.reset_at <= now() then excluded.reset_at else rate_limit_hit.reset_at end
          returning count, reset_at`,
        );
        if (Number(row.count) > limit) {
          const resetAt = new Date(row.reset_at);
          if (!over || resetAt > over) over = resetAt;
        }
      }
      if (over) {
        await giveBack(keys);
        throw limited(message, over);
      }
      return (back: string[]) => giveBack(back.filter((k) => keys.includes(k)));
    },
    /** The attempts counted on `key` in its current window. */
    async count(key: string): Promise<number> {
      return (await current(key))?.count ?? 0;
    },
    async clear(keys: string[]) {
      for (const key of keys) await db.execute(sql`delete from rate_limit_hit where key = ${key}`);
    },
  };
}

export type AttemptCounter = ReturnType<typeof createAttemptCounter>;
