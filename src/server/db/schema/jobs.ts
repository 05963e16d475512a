import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

/**
 * Background jobs (src/server/jobs): durable work done after the request answered,
 * drained by every app process with FOR UPDATE SKIP LOCKED (docs/decisions/0012, 0056).
 * A job that is done moves to job_history; one that failed every attempt stays as 'failed'
 * (with its payload, so an admin may queue it again) until JOBS_KEEP_DAYS after it gave up.
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
    /**
     * The lease: the worker running the job holds it until then and renews it every few
     * seconds (a heartbeat); once it lapses (the worker died) any process takes the job over.
     */
    lockedUntil: ts('locked_until'),
    /** The worker (instance) holding or last holding the lease: only it renews or finishes the job. */
    lockedBy: text('locked_by'),
    /** When the current (or last) attempt started. */
    startedAt: ts('started_at'),
    /** When a failed job gave up (pruned JOBS_KEEP_DAYS later). */
    finishedAt: ts('finished_at'),
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
    index('job_failed_idx')
      .on(t.finishedAt)
      .where(sql`state = 'failed'`),
  ],
);

/**
 * Jobs that finished (done, or a recurring pass that failed), for the admin page: no payload
 * (an email's body, a reset link, stays out of it). Pruned JOBS_KEEP_DAYS after they finished.
 */
export const jobHistory = pgTable(
  'job_history',
  {
    id: uuid('id').primaryKey(),
    kind: text('kind').notNull(),
    key: text('key'),
    /** 'done' or 'failed' (a recurring job's pass that threw; the next pass is scheduled anyway). */
    outcome: text('outcome').notNull(),
    attempts: integer('attempts').notNull(),
    /** The worker that finished it. */
    ranBy: text('ran_by'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull(),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at').notNull().defaultNow(),
  },
  (t) => [index('job_history_finished_idx').on(t.finishedAt)],
);
