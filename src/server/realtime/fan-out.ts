import { sql } from 'drizzle-orm';
import type { Client } from 'pg';
import type { Database } from '../db/client.js';

/**
 * How an event published on one app process reaches the sockets on every process
 * (docs/decisions/0018-realtime-fan-out.md): PostgreSQL NOTIFY on one channel, and one
 * dedicated LISTEN connection per process. On PGlite (one process) the same NOTIFY runs
 * through PGlite's own listen/notify.
 */
export const REALTIME_CHANNEL = 'agora_realtime';

export interface FanOut {
  /** Sends a payload (under 8000 bytes) to every listening process, this one included. */
  notify(payload: string): Promise<void>;
  /** Starts listening; `onResync` runs after the listener reconnected (notifications may have been missed). */
  start(handlers: { onMessage(payload: string): void; onResync(): void }): Promise<void>;
  stop(): Promise<void>;
}

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export function createFanOut(opts: { database: Database; databaseUrl?: string; log: Logger }): FanOut | undefined {
  const { database } = opts;
  const notify = async (payload: string) => {
    await database.db.execute(sql`select pg_notify(${REALTIME_CHANNEL}, ${payload})`);
  };
  if (database.kind === 'pglite' && database.listen) {
    let unlisten: (() => Promise<void>) | null = null;
    return {
      notify,
      async start({ onMessage }) {
        unlisten = await database.listen!(REALTIME_CHANNEL, onMessage);
      },
      async stop() {
        await unlisten?.().catch(() => {});
        unlisten = null;
      },
    };
  }
  if (database.kind === 'postgres' && opts.databaseUrl)
    return postgresFanOut(opts.databaseUrl, batchedPublisher(opts.databaseUrl), opts.log);
  return undefined;
}

/**
 * One pg Client that only LISTENs. Lost (a restart, a failover, pg_terminate_backend): it
 * reconnects with back-off (250 ms doubling to 10 s, jittered) and then asks every local
 * socket to resync, since what was notified meanwhile never reached this process.
 */
function postgresFanOut(url: string, publisher: Publisher, log: Logger): FanOut {
  let client: Client | null = null;
  let stopped = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | null = null;
  let handlers: { onMessage(payload: string): void; onResync(): void } | null = null;

  const connect = async (): Promise<void> => {
    const { default: pg } = await import('pg');
    const c = new pg.Client({ connectionString: url, keepAlive: true, application_name: 'agora-realtime-listener' });
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      if (client === c) client = null;
      c.removeAllListeners('notification');
      c.end().catch(() => {});
      if (stopped) return;
      log.warn({ err: err?.message }, 'realtime: listener connection lost; reconnecting');
      schedule();
    };
    c.on('error', onLost);
    c.on('end', () => onLost());
    c.on('notification', (msg) => {
      if (msg.channel === REALTIME_CHANNEL && msg.payload !== undefined) handlers?.onMessage(msg.payload);
    });
    await c.connect();
    await c.query(`LISTEN ${REALTIME_CHANNEL}`);
    if (stopped) {
      await c.end().catch(() => {});
      return;
    }
    client = c;
  };

  const schedule = () => {
    if (timer || stopped) return;
    const ceiling = Math.min(10_000, 250 * 2 ** attempt++);
    const delay = ceiling / 2 + Math.random() * (ceiling / 2);
    timer = setTimeout(async () => {
      timer = null;
      try {
        await connect();
        attempt = 0;
        log.info({}, 'realtime: listener reconnected; telling sockets to resync');
        handlers?.onResync();
      } catch (err) {
        log.warn({ err: (err as Error).message }, 'realtime: listener could not reconnect');
        schedule();
      }
    }, delay);
    timer.unref();
  };

  return {
    notify: publisher.notify,
    async start(h) {
      handlers = h;
      stopped = false;
      try {
        await connect();
      } catch (err) {
        // The app still starts (requests do not need realtime); the listener keeps trying.
        log.warn({ err: (err as Error).message }, 'realtime: listener could not connect; retrying');
        schedule();
      }
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      const c = client;
      client = null;
      await c?.end().catch(() => {});
      await publisher.stop();
    },
  };
}

interface Publisher {
  notify(payload: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * NOTIFY on a connection of its own, outside the app's pool: a publish never waits behind
 * requests for a pooled connection (under load that wait is what drops publishes), and the
 * publishes of a process keep their order. What queues while one statement runs goes out
 * in the next, up to 100 at a time (`select pg_notify(..), pg_notify(..)`: one commit, one
 * turn of NOTIFY's commit lock for the lot). PostgreSQL folds identical payloads within one
 * transaction into one notification: the same event to the same user twice in one batch is
 * delivered once, which is harmless for "look again" events.
 *
 * The connection commits asynchronously (`synchronous_commit = off`): a NOTIFY is not
 * durable anyway (a listener that is down misses it, whatever the WAL says), so waiting for
 * the WAL flush bought nothing, and NOTIFY's queue lock is held until the commit ends:
 * the flush was paid by every publish of every process, one batch after another.
 */
function batchedPublisher(url: string): Publisher {
  type Pending = { payload: string; resolve: () => void; reject: (err: Error) => void };
  let client: Client | null = null;
  let connecting: Promise<Client> | null = null;
  let queue: Pending[] = [];
  let busy = false;
  let stopped = false;

  const connection = (): Promise<Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      const { default: pg } = await import('pg');
      const c = new pg.Client({
        connectionString: url,
        keepAlive: true,
        application_name: 'agora-realtime-publisher',
        query_timeout: 5000,
        options: '-c synchronous_commit=off',
      });
      const forget = () => {
        if (client === c) client = null;
      };
      c.on('error', forget);
      c.on('end', forget);
      await c.connect();
      client = c;
      return c;
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  };

  const flush = async () => {
    if (busy) return;
    busy = true;
    try {
      while (queue.length) {
        const batch = queue.slice(0, 100);
        queue = queue.slice(batch.length);
        try {
          const c = await connection();
          const text = 'select ' + batch.map((_, i) => `pg_notify($1, $${i + 2})`).join(', ');
          await c.query(text, [REALTIME_CHANNEL, ...batch.map((p) => p.payload)]);
          for (const p of batch) p.resolve();
        } catch (err) {
          // A broken connection is dropped; the next publish opens a new one.
          const c = client;
          client = null;
          c?.end().catch(() => {});
          for (const p of batch) p.reject(err as Error);
        }
      }
    } finally {
      busy = false;
    }
  };

  return {
    notify(payload) {
      if (stopped) return Promise.reject(new Error('realtime publisher stopped'));
      return new Promise<void>((resolve, reject) => {
        queue.push({ payload, resolve, reject });
        void flush();
      });
    },
    async stop() {
      stopped = true;
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
