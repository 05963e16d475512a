import { sql } from 'drizzle-orm';
import { rowsOf, type Conn } from '../db/transaction.js';

export interface QueueStats {
  /** Queued jobs whose time has come, waiting for a worker. */
  due: number;
  /** Jobs a worker holds now. */
  running: number;
  /** Queued jobs for later (reminders, retries after a back-off). */
  scheduled: number;
  /** Jobs that failed every attempt (the admin console's list). */
  failed: number;
  /** How long since the oldest job due or running was due, in seconds (0 when none): a queue that is not drained, or a job that is stuck. */
  oldestDueSeconds: number;
}

/** The queue at a glance, in one statement (the metrics read it when scraped). */
export async function queueStats(conn: Conn): Promise<QueueStats> {
  const [row] = await rowsOf<{ due: number; running: number; scheduled: number; failed: number; oldest: number }>(
    conn,
    sql`select count(*) filter (where state = 'queued' and run_at <= now() and (locked_until is null or locked_until <= now()))::int as due,
               count(*) filter (where state = 'queued' and locked_until > now())::int as running,
               count(*) filter (where state = 'queued' and run_at > now() and (locked_until is null or locked_until <= now()))::int as scheduled,
               count(*) filter (where state = 'failed')::int as failed,
               coalesce(extract(epoch from now() - min(run_at) filter (where state = 'queued' and run_at <= now())), 0)::float8 as oldest
        from job`,
  );
  return { due: row.due, running: row.running, scheduled: row.scheduled, failed: row.failed, oldestDueSeconds: Number(row.oldest) };
}
