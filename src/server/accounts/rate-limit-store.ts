import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Db } from '../db/client.js';
import { createRateLimits, type RateLimits } from './rate-limits.js';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** What the plugin hands `child` for a route (its merged options and the route). */
interface RouteLimitOptions {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  routeInfo?: { method?: string | string[]; url?: string };
}

/**
 * A store for @fastify/rate-limit that counts in PostgreSQL (rate-limits.ts), so a route's
 * `config.rateLimit` holds across every instance on the database, atomically. The plugin
 * makes one child per route; its keys are `http:<METHOD><url>:<client key>`, as the
 * plugin's Redis store names them, so two routes never share a count.
 */
export function databaseRateLimitStore(db: Db): FastifyRateLimitStoreCtor {
  const limits = createRateLimits(db);

  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    private readonly prefix: string;
    private readonly limits: RateLimits;

    constructor(_options?: FastifyRateLimitOptions, prefix = 'http:') {
      this.prefix = prefix;
      this.limits = limits;
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      this.limits.hit(this.prefix + key, timeWindow).then(
        (hit) => callback(null, { current: hit.count, ttl: hit.ttlMs }),
        (err: Error) => callback(err),
      );
    }

    /** The plugin's `{ increment: false }` peek: the window as it stands, nothing counted. */
    read(key: string, callback: Callback): void {
      this.limits.read(this.prefix + key).then(
        (hit) => callback(null, { current: hit.count, ttl: hit.ttlMs }),
        (err: Error) => callback(err),
      );
    }

    child(route: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      const routeOptions = route as unknown as RouteLimitOptions;
      // A window that moves on every refused request is not what a fixed-window row keeps.
      if (routeOptions.continueExceeding || routeOptions.exponentialBackoff) {
        throw new Error('The database rate-limit store keeps fixed windows: continueExceeding and exponentialBackoff are not supported');
      }
      const method = [routeOptions.routeInfo?.method ?? ''].flat().join(',');
      return new DatabaseRateLimitStore(undefined, `${this.prefix}${method}${routeOptions.routeInfo?.url ?? ''}:`);
    }
  }

  return DatabaseRateLimitStore as unknown as FastifyRateLimitStoreCtor;
}
