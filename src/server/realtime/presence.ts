import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';

/**
 * Who is listening, across every app process (docs/decisions/0032-presence-gated-publish.md).
 *
 * A publish costs a NOTIFY (a commit on PostgreSQL, a turn of its notify queue's lock) and
 * a parse on every process, whether or not the user has a socket open anywhere; most people
 * a message is sent to are not online. The table `realtime_presence` says who is: one row
 * per user and process, the number of that user's local listeners there. The hub joins a
 * user when their first local listener subscribes and leaves when their last one goes;
 * a write that needs it (the send-message statement) reads the table in its own statement
 * and publishes only to those present.
 *
 * Joins and leaves are +1 and -1 (they commute: two in flight cannot leave a row saying
 * nobody while a socket is open; the reverse, a row left saying someone, costs only a push
 * nobody receives). Every 25 s each process writes its exact counts again, refreshes
 * `seen_at`, and sweeps the rows of processes not seen for 90 s (a process that died).
 *
 * A write whose statement began before a join committed does not see it, and may commit
 * after the new socket's first catch-up read: the socket layer asks the client to catch up
 * again once such a statement must have ended (sockets.ts, `catchUpAgainMs`).
 */
export const PRESENCE_BEAT_MS = 25_000;
export const PRESENCE_STALE_SECONDS = 90;

export interface Presence {
  /** One more local listener of `userId` (resolves once committed; never throws). */
  join(userId: string): Promise<void>;
  /** One fewer (never throws). */
  leave(userId: string): Promise<void>;
  /** Starts the 25 s refresh; `counts` is this process's listeners per user. */
  start(counts: () => Map<string, number>): void;
  /** Stops the refresh and removes this process's rows. */
  stop(): Promise<void>;
  /** The refresh now (tests). */
  beat(): Promise<void>;
}

interface Logger {
  warn(obj: object, msg: string): void;
}

/**
 * The SQL condition "someone has a socket open for this user id": for statements that
 * decide whether to publish (one primary-key probe).
 */
export const presentSql = (userId: unknown) => sql`exists (select 1 from realtime_presence where user_id = ${userId})`;

export function createPresence(opts: { database: Database; log: Logger; instanceId?: string }): Presence {
  const { database, log } = opts;
  const instanceId = opts.instanceId ?? randomUUID();
  let timer: NodeJS.Timeout | null = null;
  let counts: () => Map<string, number> = () => new Map();

  const run = async (what: string, query: ReturnType<typeof sql>) => {
    try {
      await database.db.execute(query);
    } catch (err) {
      // Best effort: the next beat writes the exact counts again.
      log.warn({ err: (err as Error).message }, `realtime presence: ${what} failed`);
    }
  };

  const beat = async () => {
    const mine = counts();
    const users = [...mine.keys()];
    const sockets = users.map((u) => mine.get(u)!);
    await run(
      'refresh',
      sql`with mine as (
            select * from unnest(${`{${users.join(',')}}`}::uuid[], ${`{${sockets.join(',')}}`}::int[]) as t (user_id, sockets)
          ),
          upserted as (
            insert into realtime_presence (user_id, instance_id, sockets, seen_at)
            select user_id, ${instanceId}, sockets, now() from mine
            on conflict (user_id, instance_id) do update set sockets = excluded.sockets, seen_at = now()
          ),
          gone as (
            delete from realtime_presence p where p.instance_id = ${instanceId}
              and not exists (select 1 from mine where mine.user_id = p.user_id)
          )
          delete from realtime_presence
          where instance_id <> ${instanceId} and seen_at < now() - make_interval(secs => ${PRESENCE_STALE_SECONDS})`,
    );
  };

  return {
    join: (userId) =>
      run(
        'join',
        sql`insert into realtime_presence (user_id, instance_id, sockets) values (${userId}, ${instanceId}, 1)
            on conflict (user_id, instance_id) do update set sockets = realtime_presence.sockets + 1, seen_at = now()`,
      ),
    leave: (userId) =>
      run(
        'leave',
        sql`with last as (
              delete from realtime_presence where user_id = ${userId} and instance_id = ${instanceId} and sockets <= 1
            )
            update realtime_presence set sockets = sockets - 1
            where user_id = ${userId} and instance_id = ${instanceId} and sockets > 1`,
      ),
    start(c) {
      counts = c;
      if (timer) return;
      timer = setInterval(() => void beat(), PRESENCE_BEAT_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await run('stop', sql`delete from realtime_presence where instance_id = ${instanceId}`);
    },
    beat,
  };
}
