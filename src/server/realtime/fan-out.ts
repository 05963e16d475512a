import type { Client } from 'pg';
import type { Database } from '../db/client.js';
import { fixedText } from '../db/fixed-text.js';
import { PUBLISH_SQL, publishItems, type Outgoing } from './event-log.js';

/**
 * How an event published on one app process reaches the sockets on every process
 * (docs/decisions/0018-realtime-fan-out.md): PostgreSQL NOTIFY on one channel, and one
 * dedicated LISTEN connection per process. On PGlite (one process) the same NOTIFY runs
 * through PGlite's own listen/notify.
 */
export const REALTIME_CHANNEL = 'agora_realtime_v2';

export interface FanOut {
  /**
   * Numbers, logs and sends one notification (under 8000 bytes) to every listening process,
   * this one included (event-log.ts: PUBLISH_SQL).
   */
  publish(out: Outgoing): Promise<void>;
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
  if (database.kind === 'pglite' && database.listen) {
    let unlisten: (() => Promise<void>) | null = null;
    return {
      async publish(out) {
        await database.prepared('realtime.publish', PUBLISH_SQL, { channel: REALTIME_CHANNEL, items: publishItems([out]) });
      },
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
    publish: publisher.publish,
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
  publish(out: Outgoing): Promise<void>;
  stop(): Promise<void>;
}

const publishStatement = fixedText<{ channel: string; items: string }>(() => PUBLISH_SQL);
/**
 * Attempts per batch. A deadlock (40P01) rolls the whole batch back, NOTIFYs included: it is
 * safe to run again; a lost connection is retried on a new one.
 */
const RETRIES = 3;

/**
 * NOTIFY on a connection of its own, outside the app's pool: a publish never waits behind
 * requests for a pooled connection (under load that wait is what drops publishes), and the
 * publishes of a process keep their order. What queues while one statement runs goes out
 * in the next, up to 100 notifications at a time: one statement (PUBLISH_SQL: number, log,
 * NOTIFY), one commit, one turn of NOTIFY's commit lock for the lot. Every line carries its
 * sequence number, so no two payloads are identical (PostgreSQL would fold them).
 *
 * The connection commits asynchronously (`synchronous_commit = off`): NOTIFY's queue lock is
 * held until the commit ends, so a WAL flush would be paid by every publish of every process,
 * one batch after another. What that risks: a PostgreSQL crash (not an app's) may forget the
 * last fraction of a second of numbers and log rows; every listener is cut by that crash and
 * every socket then catches up from the log, and one whose number is ahead of its user's
 * counter is told to resync (docs/decisions/0061-no-push-lost.md).
 */
function batchedPublisher(url: string): Publisher {
  type Pending = { out: Outgoing; resolve: () => void; reject: (err: Error) => void };
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
          const { sql: text, params } = publishStatement({ channel: REALTIME_CHANNEL, items: publishItems(batch.map((p) => p.out)) });
          for (let attempt = 1, c2 = c; ; attempt++) {
            try {
              await c2.query({ name: 'realtime.publish', text, values: params });
              break;
            } catch (err) {
              const code = (err as { code?: string }).code;
              if (attempt >= RETRIES) throw err;
              if (code === '40P01') continue;
              // The connection was lost (terminated, restarted): once more on a new one. Had the
              // lost statement committed, its events arrive twice (numbered apart); never lost.
              if (code !== undefined && !code.startsWith('08') && !code.startsWith('57P0')) throw err;
              if (client === c2) client = null;
              c2.end().catch(() => {});
              c2 = await connection();
            }
          }
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
    publish(out) {
      if (stopped) return Promise.reject(new Error('realtime publisher stopped'));
      return new Promise<void>((resolve, reject) => {
        queue.push({ out, resolve, reject });
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
