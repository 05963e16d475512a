import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { rowsOf } from '../db/transaction.js';
import { LOG_RETENTION_SECONDS } from './event-log.js';

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
 * nobody receives). A row at zero lingers PRESENCE_LINGER_SECONDS before it is swept: a
 * socket that drops and comes back (to any process) within that time finds every event
 * published meanwhile numbered and logged (event-log.ts), not skipped. Every 25 s each
 * process writes its exact counts again and refreshes `seen_at`; then one process at a time
 * sweeps the lingering rows and those of processes not seen for 90 s (a process that died),
 * and bumps the counter of each user left with no row (a "hole": what is published to them
 * from then on reaches nobody and is not logged, so a socket resuming from before it must
 * resync), and drops log rows older than LOG_RETENTION_SECONDS.
 *
 * A write whose statement began before a join committed does not see it, and may commit
 * after the new socket's first catch-up read: the socket layer asks the client to catch up
 * again once such a statement must have ended (sockets.ts, `catchUpAgainMs`).
 */
export const PRESENCE_BEAT_MS = 25_000;
export const PRESENCE_STALE_SECONDS = 90;
/** How long a user's row stays after their last socket here closed (below LOG_RETENTION_SECONDS). */
export const PRESENCE_LINGER_SECONDS = 120;

export interface Presence {
  /** One more local listener of `userId` (resolves once committed; never throws). */
  join(userId: string): Promise<void>;
  /** One fewer (never throws). */
  leave(userId: string): Promise<void>;
  /** Starts the 25 s refresh; `counts` is this process's listeners per user. */
  start(counts: () => Map<string, number>): void;
  /** Stops the refresh; this process's rows linger (at zero), then another process sweeps them. */
  stop(): Promise<void>;
  /** The refresh and the sweep now (tests). */
  beat(): Promise<void>;
  /** The sweep alone (tests). */
  sweep(): Promise<void>;
}

interface Logger {
  warn(obj: object, msg: string): void;
}

/**
 * The SQL condition "someone has a socket open for this user id, or closed one less than
 * PRESENCE_LINGER_SECONDS ago": for statements that decide whether to publish (one
 * primary-key probe). Publishing to them keeps the event for their return (event-log.ts).
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

  const refresh = () => {
    const mine = counts();
    const users = [...mine.keys()];
    const sockets = users.map((u) => mine.get(u)!);
    return run(
      'refresh',
      sql`with mine as (
            select * from unnest(${`{${users.join(',')}}`}::uuid[], ${`{${sockets.join(',')}}`}::int[]) as t (user_id, sockets)
          ),
          upserted as (
            insert into realtime_presence (user_id, instance_id, sockets, seen_at)
            select user_id, ${instanceId}, sockets, now() from mine
            on conflict (user_id, instance_id) do update set sockets = excluded.sockets, seen_at = now()
          )
          update realtime_presence p set sockets = 0, seen_at = now()
          where p.instance_id = ${instanceId} and p.sockets > 0
            and not exists (select 1 from mine where mine.user_id = p.user_id)`,
    );
  };

  /**
   * One process at a time (a transaction-scoped advisory lock, taken before the statement so
   * that its snapshot sees every earlier sweep): "no row left" is then exact for deletions,
   * and a join racing it only adds a hole (an extra resync, never a missed one).
   */
  const sweep = async () => {
    try {
      await database.db.transaction(async (tx) => {
        const [lock] = await rowsOf<{ ok: boolean }>(
          tx,
          sql`select pg_try_advisory_xact_lock(hashtextextended('agora.realtime.sweep', 0)) as ok`,
        );
        if (!lock?.ok) return;
        await tx.execute(sql`
          with gone as (
            delete from realtime_presence
            where (sockets = 0 and seen_at < now() - make_interval(secs => ${PRESENCE_LINGER_SECONDS}))
              or seen_at < now() - make_interval(secs => ${PRESENCE_STALE_SECONDS})
            returning user_id, instance_id
          ),
          absent as (
            select distinct g.user_id from gone g
            where not exists (
              select 1 from realtime_presence p where p.user_id = g.user_id
                and not exists (select 1 from gone x where x.user_id = p.user_id and x.instance_id = p.instance_id))
          ),
          holes as (
            insert into realtime_sequence as s (user_id, seq) select user_id, 1 from absent order by user_id
            on conflict (user_id) do update set seq = s.seq + 1
            returning s.user_id, s.seq
          )
          insert into realtime_event (user_id, seq, event) select user_id, seq, null from holes`);
        await tx.execute(sql`delete from realtime_event where created_at < now() - make_interval(secs => ${LOG_RETENTION_SECONDS})`);
      });
    } catch (err) {
      // Rolled back whole (a deadlock, the database away): the next beat sweeps again.
      log.warn({ err: (err as Error).message }, 'realtime presence: sweep failed');
    }
  };

  const beat = async () => {
    await refresh();
    await sweep();
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
        // At zero the row lingers (seen_at: from when), swept PRESENCE_LINGER_SECONDS later.
        sql`update realtime_presence set sockets = greatest(sockets - 1, 0), seen_at = now()
            where user_id = ${userId} and instance_id = ${instanceId}`,
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
      await run('stop', sql`update realtime_presence set sockets = 0, seen_at = now() where instance_id = ${instanceId}`);
    },
    beat,
    sweep,
  };
}
