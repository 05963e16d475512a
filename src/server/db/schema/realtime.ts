import { bigint, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

/**
 * Who has a realtime socket open, on which app process (src/server/realtime/presence.ts,
 * docs/decisions/0032-presence-gated-publish.md): one row per user and process with the
 * number of that user's sockets there. A send publishes only to users with a row. Rows of a
 * process that died stay until their `seen_at` is 90 s old (any process sweeps them); until
 * then they only cost a push nobody receives. No foreign key: it is refreshed by every
 * process every 25 s, and a user erased meanwhile must not make that refresh fail.
 */
export const realtimePresence = pgTable(
  'realtime_presence',
  {
    userId: uuid('user_id').notNull(),
    /** The app process (a random id per start). */
    instanceId: uuid('instance_id').notNull(),
    sockets: integer('sockets').notNull(),
    seenAt: ts('seen_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.instanceId] }), index('realtime_presence_instance_idx').on(t.instanceId)],
);

/**
 * The last realtime sequence number given to each user (src/server/realtime/event-log.ts,
 * docs/decisions/0061-no-push-lost.md): every event pushed to a user carries the next one,
 * whichever process publishes it. Bumped without an event ("a hole") when the user's last
 * presence row is swept: what was published meanwhile reached nobody and was not kept.
 * Never reset (a client may hold a number); no foreign key, as presence.
 */
export const realtimeSequence = pgTable('realtime_sequence', {
  userId: uuid('user_id').primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
});

/**
 * The recent events of each user, by sequence: what a reconnecting socket is replayed from.
 * `event` is the event's JSON as published (null: a hole, see above). Kept for
 * REALTIME_LOG_SECONDS, swept by the presence beat.
 */
export const realtimeEvent = pgTable(
  'realtime_event',
  {
    userId: uuid('user_id').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    event: text('event'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.seq] })],
);
