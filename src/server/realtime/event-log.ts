import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';

/**
 * The per-user sequence and the short log of recent events (docs/decisions/0061-no-push-lost.md).
 *
 * Every event published to a user gets the next number of that user's counter
 * (`realtime_sequence`), in the same statement that stores it in `realtime_event` and
 * NOTIFYs it to every process: the publisher's one statement per batch (fan-out.ts). The
 * counter row's lock orders a user's events across processes: number n + 1 is given only
 * after n's transaction committed, so numbers commit, and are notified, in order.
 *
 * Only users with a presence row (presence.ts: a socket open somewhere, or closed less than
 * PRESENCE_LINGER_SECONDS ago) are numbered, stored and notified; an event to anyone else
 * reaches nobody and costs no NOTIFY, as before. So that a client cannot mistake "nothing was
 * published" for "nothing reached you", the sweep that removes a user's last presence row
 * bumps their counter once with no event (a "hole", stored as a null event): any socket that
 * resumes from before it is told to resync.
 */

/** How long the log keeps an event (a socket gone longer than this resyncs). */
export const LOG_RETENTION_SECONDS = 300;
/** At most this many missed events are replayed; more, and the socket is told to resync. */
export const REPLAY_MAX_EVENTS = 500;

/**
 * The publisher's statement (one per batch of NOTIFYs). `items`: a JSON array of
 * `{g, o, u, e, t}` (notification g, position o, user, event JSON, publish time) and
 * `{g, o, c, t}` (a control line sent as is). Per notification it sends a first line
 * `t <publish time, ms since the epoch>` (the delivery-lag metric's start; a process that does
 * not know it logs it and goes on), then lines `e <user> <seq> <event JSON>` for the events of
 * users present, `r ...` control lines as given; a notification whose events all went to
 * absent users is not sent. Counter rows are taken in user order (no deadlock
 * between processes publishing to the same users).
 */
export const PUBLISH_SQL = sql`
  with item as (
    select * from json_to_recordset(${sql.placeholder('items')}::json) as t(g int, o int, u uuid, e text, c text, t bigint)
  ),
  ev as (select o, u, e from item where c is null),
  present as (
    select distinct ev.u from ev where exists (select 1 from realtime_presence p where p.user_id = ev.u)
  ),
  bumped as (
    insert into realtime_sequence as s (user_id, seq)
    select ev.u, count(*) from ev where ev.u in (select u from present) group by ev.u order by ev.u
    on conflict (user_id) do update set seq = s.seq + excluded.seq
    returning s.user_id, s.seq
  ),
  numbered as (
    select ev.o, ev.u, ev.e,
      b.seq - count(*) over (partition by ev.u) + row_number() over (partition by ev.u order by ev.o) as seq
    from ev join bumped b on b.user_id = ev.u
  ),
  logged as (insert into realtime_event (user_id, seq, event) select u, seq, e from numbered)
  select pg_notify(${sql.placeholder('channel')},
    coalesce('t ' || min(item.t) || E'\n', '') || string_agg(coalesce(item.c, 'e ' || n.u || ' ' || n.seq || ' ' || n.e), E'\n' order by item.o)) as sent
  from item left join numbered n on n.o = item.o
  where item.c is not null or n.o is not null
  group by item.g
  order by item.g`;

/** One queued notification: events to number (user, event JSON), or a control line; `at`: when it was published (ms). */
export type Outgoing = ({ events: [userId: string, json: string][] } | { control: string }) & { at?: number };

/** The `items` parameter of PUBLISH_SQL for a batch of notifications. */
export function publishItems(batch: Outgoing[]): string {
  const items: object[] = [];
  let o = 0;
  batch.forEach((out, g) => {
    const t = out.at ?? null;
    if ('control' in out) items.push({ g, o: o++, c: out.control, t });
    else for (const [u, e] of out.events) items.push({ g, o: o++, u, e, t });
  });
  return JSON.stringify(items);
}

/** What a socket (re)starting or catching up reads, in one statement. */
export interface LogRead {
  /** The user's last sequence number (0: none yet). */
  current: number;
  /** Sockets the user holds across processes (presence rows refreshed in the last minute). */
  sockets: number;
  /** The logged events after `after`, in order, at most `max` (event null: a hole). */
  events: { seq: number; event: string | null }[];
}

const READ_SQL = sql`
  select (select seq from realtime_sequence where user_id = ${sql.placeholder('user')}) as current,
    (select coalesce(sum(sockets), 0) from realtime_presence
      where user_id = ${sql.placeholder('user')} and seen_at > now() - interval '60 seconds') as sockets,
    (select json_agg(json_build_object('seq', r.seq, 'event', r.event) order by r.seq)
      from (select seq, event from realtime_event
            where user_id = ${sql.placeholder('user')} and seq > ${sql.placeholder('after')}
            order by seq limit ${sql.placeholder('max')}) r) as events`;

export function readEventLog(database: Database, userId: string, after: number, max: number): Promise<LogRead> {
  return database
    .prepared<{ current: string | number | null; sockets: string | number; events: LogRead['events'] | null }>(
      'realtime.read-log',
      READ_SQL,
      {
        user: userId,
        after,
        max,
      },
    )
    .then(([row]) => ({ current: Number(row?.current ?? 0), sockets: Number(row?.sockets ?? 0), events: row?.events ?? [] }));
}

/**
 * Whether `read` holds every event after `after` up to its current number, none a hole and
 * not too many: then a socket at `after` can be replayed them; else it must resync.
 */
export function replayable(read: LogRead, after: number): boolean {
  const missed = read.current - after;
  if (missed < 0 || missed > REPLAY_MAX_EVENTS) return false;
  if (missed === 0) return true;
  // Numbers commit in order (the counter's row lock), so the rows after `after` are consecutive
  // unless the oldest were swept: the first must be after + 1, and there must be `missed` of them.
  return read.events.length === missed && read.events[0].seq === after + 1 && read.events.every((e) => e.event !== null);
}

/** An event as its socket receives it: `{"seq":n, ...the event}` (the event's JSON spliced, not re-encoded). */
export function onTheWire(seq: number, json: string): string {
  return `{"seq":${seq},${json.slice(1)}`;
}
