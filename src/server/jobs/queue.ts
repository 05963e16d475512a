import { and, desc, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { job } from '../db/schema/jobs.js';
import { rowsOf, type Conn } from '../db/transaction.js';

/** What one kind of job does with its payload; throwing schedules a retry. */
export type JobHandler = (payload: unknown) => Promise<void>;

export interface JobQueueOptions {
  /** Attempts before a job is left as 'failed'. */
  maxAttempts?: number;
  /** How often every process looks for due jobs (retries, jobs of a process that died). */
  pollMs?: number;
  /** How long a process holds a job it works on before another may take it over. */
  lockSeconds?: number;
}

interface ClaimedJob {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
}

/** A value of a SQL statement: a parameter, an expression, or a prepared statement's placeholder. */
type SqlValue = SQL | Placeholder;

/**
 * The queue's keyed schedule (`schedule` with a key) as a SQL fragment, for a statement that
 * stores its job in its own round trip: `insert into job ... select ... from <source>`, one
 * job per row of `source` (a CTE of the caller's statement), none while a queued job holds
 * the key. Use it as a CTE: `reminder as (${enqueueJobSql({ ... })})`. The job table stays
 * the queue's (ADR 0035); any process runs the job when it is due.
 */
export function enqueueJobSql(job: { kind: SqlValue; payload: SqlValue; runAt: SqlValue; key: SqlValue; from: SQL }): SQL {
  return sql`
        insert into job (kind, payload, run_at, key)
        select ${job.kind}, ${job.payload}, ${job.runAt}, ${job.key}
        from ${job.from}
        on conflict (key) where state = 'queued' do nothing`;
}

/** Removes the queued jobs of `kind` whose key starts with `keyPrefix` (every reminder of a cancelled event). */
export async function unscheduleByKeyPrefix(conn: Conn, kind: string, keyPrefix: string): Promise<void> {
  await conn.execute(sql`delete from job where kind = ${kind} and state = 'queued' and starts_with(key, ${keyPrefix})`);
}

/** Removes the queued jobs whose payload names this user (`userId` or `recipientId`): an erased account. */
export async function unscheduleJobsOfUser(conn: Conn, userId: string): Promise<void> {
  await conn.execute(
    sql`delete from job where state = 'queued' and (payload->>'userId' = ${userId} or payload->>'recipientId' = ${userId})`,
  );
}

/**
 * A long job's own progress, kept in its payload (a fan-out's cursor): `read` locks the
 * queued job with this key (for the caller's transaction) and answers the payload field, or
 * null when the job is gone; `write` stores the field and extends the job's hold.
 */
export const jobProgress = {
  async read<T>(tx: Conn, key: string, field: string): Promise<{ value: T | null } | null> {
    const [row] = await rowsOf<{ value: T | null }>(
      tx,
      sql`select payload->(${field}::text) as value from job where key = ${key} and state = 'queued' for update`,
    );
    return row ?? null;
  },
  async write(tx: Conn, key: string, field: string, value: unknown, holdSeconds: number): Promise<void> {
    await tx.execute(sql`
        update job set payload = jsonb_set(payload, array[${field}::text], ${JSON.stringify(value)}::jsonb),
          locked_until = now() + make_interval(secs => ${holdSeconds})
        where key = ${key} and state = 'queued'`);
  },
};

/** The jobs that failed for good (newest first, at most 100): the admin console's list. */
export async function failedJobs(conn: Conn) {
  return conn
    .select({ id: job.id, kind: job.kind, attempts: job.attempts, lastError: job.lastError, createdAt: job.createdAt })
    .from(job)
    .where(eq(job.state, 'failed'))
    .orderBy(desc(job.createdAt))
    .limit(100);
}

/** Puts a failed job back in the queue with fresh attempts (any process picks it up); null when no failed job has this id. */
export async function requeueFailedJob(conn: Conn, jobId: string): Promise<{ id: string; kind: string } | null> {
  const [row] = await conn
    .update(job)
    .set({ state: 'queued', attempts: 0, runAt: new Date(), lockedUntil: null })
    .where(and(eq(job.id, jobId), eq(job.state, 'failed')))
    .returning({ id: job.id, kind: job.kind });
  return row ?? null;
}

/**
 * A durable job queue in the app's own database (docs/decisions/0012). `enqueue` writes
 * the job already held by this process and runs it at once in the background, so the
 * request answers without waiting and the work starts without a poll. A failure, or a
 * process that dies, leaves the job for any process: each polls for due jobs with
 * FOR UPDATE SKIP LOCKED, so several processes on one database never run a job twice
 * at the same time. Delivery is at least once (a process killed mid-job is retried).
 */
export function createJobQueue(db: Db, log: FastifyBaseLogger, options: JobQueueOptions = {}) {
  const maxAttempts = options.maxAttempts ?? 8;
  const pollMs = options.pollMs ?? 5_000;
  const lockSeconds = options.lockSeconds ?? 120;
  const handlers = new Map<string, JobHandler>();
  const running = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let polling: Promise<void> | null = null;
  let stopped = false;

  async function finish(job: ClaimedJob, err?: unknown) {
    if (err === undefined) {
      await db.execute(sql`delete from job where id = ${job.id}`);
      return;
    }
    const message = err instanceof Error ? err.message : String(err);
    if (job.attempts >= maxAttempts) {
      log.error({ err, jobId: job.id, kind: job.kind, attempts: job.attempts }, 'background job failed for good');
      await db.execute(sql`update job set state = 'failed', locked_until = null, last_error = ${message} where id = ${job.id}`);
      return;
    }
    // Exponential backoff: 5 s, 10 s, 20 s ... capped at an hour.
    const delaySeconds = Math.min(3600, 5 * 2 ** (job.attempts - 1));
    log.warn({ err, jobId: job.id, kind: job.kind, attempts: job.attempts, delaySeconds }, 'background job failed; retrying later');
    await db.execute(sql`
      update job set locked_until = null, last_error = ${message}, run_at = now() + make_interval(secs => ${delaySeconds})
      where id = ${job.id}`);
  }

  function run(job: ClaimedJob) {
    const handler = handlers.get(job.kind);
    const work = (async () => {
      let failure: unknown;
      try {
        if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
        await handler(job.payload);
      } catch (err) {
        failure = err ?? new Error('job failed');
      }
      await finish(job, failure);
    })().catch((err) => log.error({ err, jobId: job.id }, 'could not record the outcome of a background job'));
    running.add(work);
    void work.finally(() => running.delete(work));
    return work;
  }

  async function pollOnce(keys?: string[]) {
    const kinds = [...handlers.keys()];
    if (!kinds.length || stopped || keys?.length === 0) return;
    const byKey = keys
      ? sql`and key in (${sql.join(
          keys.map((k) => sql`${k}`),
          sql`, `,
        )})`
      : sql``;
    const claimed = await rowsOf<ClaimedJob>(
      db,
      sql`
      update job set attempts = attempts + 1, locked_until = now() + make_interval(secs => ${lockSeconds})
      where id in (
        select id from job
        where state = 'queued' and run_at <= now() and (locked_until is null or locked_until <= now())
          and kind in (${sql.join(
            kinds.map((k) => sql`${k}`),
            sql`, `,
          )}) ${byKey}
        order by run_at
        limit 20
        for update skip locked
      )
      returning id, kind, payload, attempts`,
    );
    await Promise.all(claimed.map(run));
  }

  function poll() {
    polling ??= pollOnce()
      .catch((err) => log.warn({ err }, 'could not poll for background jobs'))
      .finally(() => {
        polling = null;
      });
    return polling;
  }

  return {
    /** What to do with jobs of `kind`, in this process. */
    register(kind: string, handler: JobHandler) {
      handlers.set(kind, handler);
    },
    /** Stores a job (durable once this resolves) and starts it in the background. */
    async enqueue(kind: string, payload: unknown): Promise<void> {
      const [job] = await rowsOf<ClaimedJob>(
        db,
        sql`
        insert into job (kind, payload, attempts, locked_until)
        values (${kind}, ${JSON.stringify(payload)}::jsonb, 1, now() + make_interval(secs => ${lockSeconds}))
        returning id, kind, payload, attempts`,
      );
      if (stopped) {
        // Shutting down: leave it to another (or the next) process.
        await db.execute(sql`update job set attempts = 0, locked_until = null where id = ${job.id}`);
        return;
      }
      void run(job);
    },
    /**
     * Stores a job to run at `runAt` (default: now) by whichever process polls first; with a
     * `key`, at most one queued job holds it (a second schedule with the same key is ignored,
     * answering false). Pass `conn` (a transaction) to store the job with the write that
     * caused it: it exists exactly when that write committed.
     */
    async schedule(kind: string, payload: unknown, options: { runAt?: Date; key?: string; conn?: Conn } = {}): Promise<boolean> {
      const conn = options.conn ?? db;
      const runAt = (options.runAt ?? new Date()).toISOString();
      const inserted = await rowsOf<{ id: string }>(
        conn,
        sql`
        insert into job (kind, payload, run_at, key)
        values (${kind}, ${JSON.stringify(payload)}::jsonb, ${runAt}::timestamptz, ${options.key ?? null})
        on conflict (key) where state = 'queued' do nothing
        returning id`,
      );
      return inserted.length > 0;
    },
    /** Removes the queued job with this key, if any (a reminder for an event that was cancelled). */
    async unschedule(key: string, conn: Conn = db): Promise<void> {
      await conn.execute(sql`delete from job where key = ${key} and state = 'queued'`);
    },
    /**
     * Runs the due queued jobs with these keys now, in this process (a job just scheduled in
     * a transaction that has committed), instead of waiting for the next poll. Resolves when
     * they are done; a job another process holds is left to it.
     */
    async runNow(keys: string[]): Promise<void> {
      if (stopped) return;
      await pollOnce(keys).catch((err) => log.warn({ err }, 'could not start background jobs'));
    },
    /**
     * Starts the due queued jobs with these keys in this process, in the background (the
     * request that committed them does not wait: a fan-out to a big club). runDue() and stop()
     * wait for them like for any job this process runs.
     */
    runSoon(keys: string[]): void {
      if (stopped) return;
      const work = pollOnce(keys).catch((err) => log.warn({ err }, 'could not start background jobs'));
      running.add(work);
      void work.finally(() => running.delete(work));
    },
    /** Starts polling for due jobs (retries, and jobs left behind by a process that died). */
    start() {
      stopped = false;
      timer ??= setInterval(() => void poll(), pollMs);
      timer.unref();
    },
    /** Looks for due jobs now and waits until those found are done (tests, start-up). */
    async runDue() {
      await Promise.all(running);
      await poll();
      await Promise.all(running);
    },
    /** Stops polling and waits for the jobs this process is running. */
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await polling;
      await Promise.all(running);
    },
  };
}

export type JobQueue = ReturnType<typeof createJobQueue>;
