import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

/**
 * Background jobs (src/server/jobs): durable work done after the request answered,
 * drained by every app process with FOR UPDATE SKIP LOCKED (docs/decisions/0012).
 * A job is deleted when done; one that failed every attempt stays as 'failed'.
 */
export const job = pgTable(
  'job',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull(),
    /** 'queued' or 'failed' (gave up after the last attempt). */
    state: text('state').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    runAt: ts('run_at').notNull().defaultNow(),
    /** A process working on the job holds it until then; after, any process may take it. */
    lockedUntil: ts('locked_until'),
    lastError: text('last_error'),
    /** Optional identity of a scheduled job ("event-reminder:<event>:<user>:24h"): at most one queued job per key. */
    key: text('key'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('job_due_idx').on(t.state, t.runAt),
    uniqueIndex('job_queued_key_uq')
      .on(t.key)
      .where(sql`state = 'queued'`),
  ],
);
