import { index, integer, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';
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
