import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.js';

/**
 * A small in-memory cache of search and explore answers (serialized JSON), per server.
 *
 * An entry is served only while both hold:
 *   - the cache's version is the one the entry was computed under. The version moves
 *     when any course row changes: a statement trigger on `course` sends NOTIFY
 *     course_changed (drizzle/0004), which every server LISTENs to, so writes from
 *     another instance or a script count too; and this server bumps it itself when one of
 *     its own API writes completes (read-your-writes without waiting for the notice).
 *   - it is younger than the TTL (30 s), a ceiling for what no notice covers (the date
 *     moving on, a notice lost while the listener reconnects).
 * While the listener is down the cache is off. Concurrent misses of one key share one
 * computation. Details and trade-offs: docs/decisions/0041-search-result-cache.md.
 */
export interface SearchCacheOptions {
  maxEntries?: number;
  ttlMs?: number;
  /** Off: every call computes (tests of the query itself, the bench's uncached route). */
  enabled?: boolean;
}

interface Entry {
  version: number;
  at: number;
  value: string;
}

export class SearchCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, { version: number; promise: Promise<string> }>();
  private version = 0;
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  /** False while the change listener is not connected (PostgreSQL only). */
  private listening = true;
  enabled: boolean;
  hits = 0;
  misses = 0;

  constructor(opts: SearchCacheOptions = {}) {
    this.maxEntries = opts.maxEntries ?? 500;
    this.ttlMs = opts.ttlMs ?? 30_000;
    this.enabled = opts.enabled ?? true;
  }

  /** Course data changed somewhere: nothing cached so far may be served again. */
  invalidate() {
    this.version++;
    this.entries.clear();
  }

  setListening(on: boolean) {
    this.listening = on;
    this.invalidate();
  }

  /**
   * The value of `key` as it can be served now (a hit), or the computation of it already
   * under way; undefined when a call would compute (the search route then reads the session
   * in the search's own statement).
   */
  ready(key: string): Promise<string> | undefined {
    if (!this.enabled || !this.listening) return undefined;
    const entry = this.entries.get(key);
    if (entry && entry.version === this.version && Date.now() - entry.at < this.ttlMs) {
      // Most recently used last: the first key of the Map is the one to evict.
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.hits++;
      return Promise.resolve(entry.value);
    }
    const running = this.inflight.get(key);
    if (running && running.version === this.version) return running.promise;
    return undefined;
  }

  /** The cached value of `key`, or `compute()` (stored if course data did not change meanwhile). */
  async get(key: string, compute: () => Promise<string>): Promise<string> {
    if (!this.enabled || !this.listening) {
      this.misses++;
      return compute();
    }
    const version = this.version;
    const ready = this.ready(key);
    if (ready) return ready;

    this.misses++;
    const promise = compute();
    this.inflight.set(key, { version, promise });
    try {
      const value = await promise;
      // Computed under the version it started with: if data changed meanwhile, the
      // answer may predate the change, so it is returned but not kept.
      if (this.version === version) {
        this.entries.delete(key);
        this.entries.set(key, { version, at: Date.now(), value });
        while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      }
      return value;
    } finally {
      if (this.inflight.get(key)?.promise === promise) this.inflight.delete(key);
    }
  }
}

type Notifiable = { listen(channel: string, cb: () => void): Promise<unknown> };

/**
 * LISTEN course_changed on a connection of its own (PostgreSQL), or through PGlite's
 * listen(). Reconnects with a backoff; the cache is off while it is not listening.
 * Returns a function that stops listening.
 */
export async function listenForCourseChanges(opts: {
  database: Database;
  url?: string;
  cache: SearchCache;
  log: FastifyBaseLogger;
}): Promise<() => Promise<void>> {
  const { database, cache, log } = opts;
  if (database.kind === 'pglite') {
    const client = (database.db as unknown as { $client: Notifiable }).$client;
    if (typeof client.listen !== 'function') return async () => {};
    const unlisten = (await client.listen('course_changed', () => cache.invalidate())) as (() => Promise<void>) | undefined;
    return async () => {
      await unlisten?.().catch(() => {});
    };
  }
  if (!opts.url) {
    cache.setListening(false);
    return async () => {};
  }
  const { default: pg } = await import('pg');
  let stopped = false;
  let client: InstanceType<typeof pg.Client> | null = null;
  let retry: NodeJS.Timeout | null = null;
  let delay = 500;

  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: opts.url, application_name: 'agora-search-cache' });
    client = c;
    c.on('notification', () => cache.invalidate());
    c.on('error', (err) => {
      log.warn({ err }, 'search cache: change listener lost, cache off until it reconnects');
      lost(c);
    });
    c.on('end', () => lost(c));
    try {
      await c.connect();
      await c.query('LISTEN course_changed');
      if (stopped) return void c.end().catch(() => {});
      delay = 500;
      cache.setListening(true);
    } catch (err) {
      log.warn({ err }, 'search cache: could not listen for course changes, cache off for now');
      lost(c);
    }
  };
  const lost = (c: InstanceType<typeof pg.Client>) => {
    if (client !== c) return;
    client = null;
    cache.setListening(false);
    c.end().catch(() => {});
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, delay);
    retry.unref();
    delay = Math.min(delay * 2, 30_000);
  };

  cache.setListening(false);
  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const c = client;
    client = null;
    await c?.end().catch(() => {});
  };
}
