import type { Db } from '../db/client.js';
import { AppError } from '../http/errors.js';
import { createRateLimits } from './rate-limits.js';

/**
 * Counters of attempts in a fixed window, kept in the database so a limit holds across
 * restarts and across instances (sign-in failures per IP and per account, resends), on the
 * shared limiter (rate-limits.ts).
 */
export function createAttemptCounter(db: Db) {
  const limits = createRateLimits(db);

  function limited(message: string, ttlMs: number) {
    const retryAfterSeconds = Math.max(1, Math.ceil(ttlMs / 1000));
    const minutes = Math.ceil(retryAfterSeconds / 60);
    return new AppError(429, 'rate_limited', `${message} Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, {
      retryAfterSeconds,
    });
  }

  async function giveBack(keys: string[]) {
    for (const key of keys) await limits.giveBack(key);
  }

  return {
    /**
     * Counts one attempt on every key before the guarded work runs (one atomic upsert per
     * key), so concurrent attempts cannot all pass a check that reads first and counts
     * later. Over the limit on any key: the attempt is given back and 429 thrown. Answers
     * a function that gives the attempt back on some keys (for an outcome that does not count).
     */
    async take(keys: string[], limit: number, windowSeconds: number, message: string): Promise<(keys: string[]) => Promise<void>> {
      let overMs: number | null = null;
      for (const key of keys) {
        const hit = await limits.hit(key, windowSeconds * 1000);
        if (hit.count > limit && (overMs === null || hit.ttlMs > overMs)) overMs = hit.ttlMs;
      }
      if (overMs !== null) {
        await giveBack(keys);
        throw limited(message, overMs);
      }
      return (back: string[]) => giveBack(back.filter((k) => keys.includes(k)));
    },
    /** The attempts counted on `key` in its current window. */
    async count(key: string): Promise<number> {
      return (await limits.read(key)).count;
    },
    async clear(keys: string[]) {
      for (const key of keys) await limits.clear(key);
    },
  };
}

export type AttemptCounter = ReturnType<typeof createAttemptCounter>;
