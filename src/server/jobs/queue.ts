import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { and, desc, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { job, jobHistory } from '../db/schema/jobs.js';
import { rowsOf, type Conn } from '../db/transaction.js';

/** The job a handler runs: the same id (and key) on every attempt. */
export interface JobContext {
  id: string;
  kind: string;
  key: string | null;
  /** This attempt's number (1 = first). */
  attempts: number;
}

/** What one kind of job does with its payload; throwing schedules a retry. */
export type JobHandler = (payload: unknown, job: JobContext) => Promise<void>;

export interface JobQueueOptions {
  /** Attempts before a job is left as 'failed'. */
  maxAttempts?: number;
  /** How often every process looks for due jobs (retries, jobs of a process that died). Default 5 s. */
  pollMs?: number;
  /**
   * The lease: how long a job stays held after its worker last renewed it. The worker renews
   * it every `heartbeatMs` while the job runs; a worker that died stops renewing, and any
   * process takes the job over at its first poll after the lease lapsed (lease + poll). Default 15 s.
   */
  leaseSeconds?: number;
  /** How often a worker renews the leases of the jobs it runs. Default: a third of the lease. */
  heartbeatMs?: number;
  /** How long finished jobs (job_history) and failed ones are kept for the admin page. Default 7 days. */
  keepDays?: number;
  /** How often the keeping time is enforced (a recurring job, once across all processes). Default 1 h. */
  pruneEveryMs?: number;
  /** This worker's name (kept as the job's `locked_by`); default host:pid:random. */
  workerId?: string;
}

interface ClaimedJob {
  id: string;
  kind: string;
  key: string | null;
  payload: unknown;
  attempts: number;
}

/** Defaults of the queue's timing (config.ts reads JOBS_LEASE_SECONDS, JOBS_POLL_MS, JOBS_KEEP_DAYS). */
export const JOB_DEFAULTS = { leaseSeconds: 15, pollMs: 5_000, keepDays: 7 } as const;

const PRUNE_JOB = 'jobs.prune';
const recurringKey = (kind: string) => `every:${kind}`;

const running = new AsyncLocalStorage<{ job: JobContext; children: Map<string, number> }>();

/** The job the calling code runs in (through async calls), or null outside a job. */
export function currentJob(): JobContext | null {
  return running.getStore()?.job ?? null;
}

/**
 * A key for a thing the current job makes (an email), the same on every attempt of the job:
 * `<kind>:<job id>:<hash of what>:<n>`, `what` naming the thing (an email's recipient and
 * subject) and `n` counting the things with the same `what` in this attempt. A retried job
 * then re-creates the same keyed job (ignored while the first is still queued) instead of a
 * second one, whatever order it makes its things in. null outside a job.
 */
export function childKeyOfCurrentJob(kind: string, what: string): string | null {
  const store = running.getStore();
  if (!store) return null;
  const hash = createHash('sha256').update(what).digest('hex').slice(0, 16);
  const n = (store.children.get(hash) ?? 0) + 1;
  store.children.set(hash, n);
  return `${kind}:${store.job.id}:${hash}:${n}`;
}

/** Deletes what was kept long enough: finished jobs and failed ones older than `keepDays`. */
export async function pruneJobs(conn: Conn, keepDays: number): Promise<{ history: number; failed: number }> {
  const history = await rowsOf<{ id: string }>(
    conn,
    sql`delete from job_history where finished_at < now() - make_interval(days => ${keepDays}) returning id`,
  );
  const failed = await rowsOf<{ id: string }>(
    conn,
    sql`delete from job where state = 'failed' and finished_at < now() - make_interval(days => ${keepDays}) returning id`,
  );
  return { history: history.length, failed: failed.length };
}

export interface JobQueueStats {
  kind: string;
  /** Due and waiting for a worker (none holds it). */
  due: number;
  /** Held by a live lease (running). */
  running: number;
  /** Failed every attempt (kept for the admin page). */
  failed: number;
  /** How long the oldest due job has waited past its time, in seconds (0 when none waits). */
  oldestDueSeconds: number;
}

/**
 * The queue's depth and age by kind (for metrics): jobs due or running, failed, and the wait of
 * the oldest due one. Jobs scheduled for later (reminders) are not counted: reading them all
 * would cost a scan of the table; only the index range of due and failed jobs is read.
 */
export async function jobQueueStats(conn: Conn): Promise<JobQueueStats[]> {
  const rows = await rowsOf<{
    kind: string;
    due: number | string;
    running: number | string;
    failed: number | string;
    oldest: number | string | null;
  }>(
    conn,
    sql`
      select kind,
        count(*) filter (where state = 'queued' and (locked_until is null or locked_until <= now())) as due,
        count(*) filter (where state = 'queued' and locked_until > now()) as running,
        count(*) filter (where state = 'failed') as failed,
        extract(epoch from now() - min(run_at) filter (where state = 'queued' and (locked_until is null or locked_until <= now()))) as oldest
      from job
      where (state = 'queued' and run_at <= now()) or state = 'failed'
      group by kind
      order by kind`,
  );
  return rows.map((r) => ({
    kind: r.kind,
    due: Number(r.due),
    running: Number(r.running),
    failed: Number(r.failed),
    oldestDueSeconds: r.oldest === null ? 0 : Math.max(0, Number(r.oldest)),
  }));
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
 * null when the job is gone; `write` stores the field. The job's lease is its worker's
 * heartbeat's business: a worker that dies mid-way is taken over as any other.
 */
export const jobProgress = {
  async read<T>(tx: Conn, key: string, field: string): Promise<{ value: T | null } | null> {
    const [row] = await rowsOf<{ value: T | null }>(
      tx,
      sql`select payload->(${field}::text) as value from job where key = ${key} and state = 'queued' for update`,
    );
    return row ?? null;
  },
  async write(tx: Conn, key: string, field: string, value: unknown): Promise<void> {
    await tx.execute(sql`
        update job set payload = jsonb_set(payload, array[${field}::text], ${JSON.stringify(value)}::jsonb)
        where key = ${key} and state = 'queued'`);
  },
};

/** The jobs that failed for good (newest first, at most 100): the admin console's list. */
export async function failedJobs(conn: Conn) {
  return conn
    .select({
      id: job.id,
      kind: job.kind,
      attempts: job.attempts,
      lastError: job.lastError,
      createdAt: job.createdAt,
      finishedAt: job.finishedAt,
    })
    .from(job)
    .where(eq(job.state, 'failed'))
    .orderBy(desc(job.createdAt))
    .limit(100);
}

/** The jobs that finished most recently (newest first, at most 100): the admin console's history. */
export async function finishedJobs(conn: Conn) {
  return conn
    .select({
      id: jobHistory.id,
      kind: jobHistory.kind,
      outcome: jobHistory.outcome,
      attempts: jobHistory.attempts,
      ranBy: jobHistory.ranBy,
      lastError: jobHistory.lastError,
      createdAt: jobHistory.createdAt,
      startedAt: jobHistory.startedAt,
      finishedAt: jobHistory.finishedAt,
    })
    .from(jobHistory)
    .orderBy(desc(jobHistory.finishedAt))
    .limit(100);
}

/**
 * Puts a failed job back in the queue with fresh attempts (any process picks it up); null when
 * no failed job has this id, 'key-queued' when a queued job already holds its key.
 */
export async function requeueFailedJob(conn: Conn, jobId: string): Promise<{ id: string; kind: string } | 'key-queued' | null> {
  const [row] = await conn
    .update(job)
    .set({ state: 'queued', attempts: 0, runAt: new Date(), lockedUntil: null, finishedAt: null })
    .where(
      and(
        eq(job.id, jobId),
        eq(job.state, 'failed'),
        sql`(${job.key} is null or not exists (select 1 from job q where q.key = ${job.key} and q.state = 'queued'))`,
      ),
    )
    .returning({ id: job.id, kind: job.kind });
  if (row) return row;
  const [failed] = await conn
    .select({ id: job.id })
    .from(job)
    .where(and(eq(job.id, jobId), eq(job.state, 'failed')));
  return failed ? 'key-queued' : null;
}

/**
 * A durable job queue in the app's own database (docs/decisions/0012, 0060). `enqueue` writes
 * the job already held by this process and runs it at once in the background, so the request
 * answers without waiting and the work starts without a poll. A failure, or a process that
 * dies, leaves the job for any process: each polls for due jobs with FOR UPDATE SKIP LOCKED,
 * so several processes on one database never run a job twice at the same time. A running
 * job is held by a short lease its worker renews (a heartbeat): a job of a process that died
 * is taken over once the lease lapsed (lease + poll, 20 s by default). Only the lease's holder
 * may finish a job (the claim's worker and attempt fence the update). Delivery is at least
 * once: a process killed after the work and before its record is retried.
 */
export function createJobQueue(db: Db, log: FastifyBaseLogger, options: JobQueueOptions = {}) {
  const maxAttempts = options.maxAttempts ?? 8;
  const pollMs = options.pollMs ?? JOB_DEFAULTS.pollMs;
  const leaseSeconds = options.leaseSeconds ?? JOB_DEFAULTS.leaseSeconds;
  const heartbeatMs = options.heartbeatMs ?? Math.max(200, Math.floor((leaseSeconds * 1000) / 3));
  const keepDays = options.keepDays ?? JOB_DEFAULTS.keepDays;
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const handlers = new Map<string, JobHandler>();
  /** Recurring jobs: kind -> interval (ms). */
  const recurring = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  /** The jobs this worker holds a lease on: id -> attempt. */
  const held = new Map<string, number>();
  let timer: NodeJS.Timeout | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  let beating: Promise<void> | null = null;
  let polling: Promise<void> | null = null;
  let stopped = false;

  /** The fence of every update of a claimed job: still ours, this attempt, not finished. */
  const ours = (j: ClaimedJob) => sql`id = ${j.id} and locked_by = ${workerId} and attempts = ${j.attempts} and state = 'queued'`;

  async function renewLeases() {
    if (!held.size) return;
    const ids = [...held.keys()];
    const renewed = await rowsOf<{ id: string }>(
      db,
      sql`update job set locked_until = now() + make_interval(secs => ${leaseSeconds})
          where id = any(${`{${ids.join(',')}}`}::uuid[]) and locked_by = ${workerId} and state = 'queued'
          returning id`,
    );
    if (renewed.length < ids.length) {
      const kept = new Set(renewed.map((r) => r.id));
      for (const id of ids)
        if (held.has(id) && !kept.has(id)) log.warn({ jobId: id, workerId }, 'background job: lease lost (another worker took it over)');
    }
  }

  function beat() {
    beating ??= renewLeases()
      .catch((err) => log.warn({ err }, 'background jobs: could not renew leases'))
      .finally(() => {
        beating = null;
      });
  }

  function hold(j: ClaimedJob) {
    held.set(j.id, j.attempts);
    if (!heartbeat) {
      heartbeat = setInterval(beat, heartbeatMs);
      heartbeat.unref();
    }
  }

  function release(j: ClaimedJob) {
    held.delete(j.id);
    if (!held.size && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = null;
    }
  }

  /** Moves a job that ended into job_history, in one statement; false when the lease was lost. */
  async function record(conn: Conn, j: ClaimedJob, outcome: 'done' | 'failed', error: string | null): Promise<boolean> {
    const moved = await rowsOf<{ id: string }>(
      conn,
      sql`
      with gone as (delete from job where ${ours(j)} returning id, kind, key, attempts, created_at, started_at)
      insert into job_history (id, kind, key, outcome, attempts, ran_by, last_error, created_at, started_at)
      select id, kind, key, ${outcome}, attempts, ${workerId}, ${error}, created_at, started_at from gone
      returning id`,
    );
    return moved.length > 0;
  }

  async function finish(j: ClaimedJob, err?: unknown) {
    const message = err === undefined ? null : err instanceof Error ? err.message : String(err);
    const every = recurring.get(j.kind);
    let fenced: boolean;
    if (every !== undefined && j.key === recurringKey(j.kind)) {
      // A recurring pass: recorded and the next one scheduled in one transaction, whatever
      // its outcome (a failed pass is not retried; the next one is).
      if (message !== null) log.warn({ err, jobId: j.id, kind: j.kind }, 'recurring background job failed; the next pass is scheduled');
      fenced = await db.transaction(async (tx) => {
        if (!(await record(tx, j, message === null ? 'done' : 'failed', message))) return false;
        await tx.execute(sql`
          insert into job (kind, payload, run_at, key)
          values (${j.kind}, '{}'::jsonb, now() + make_interval(secs => ${every / 1000}), ${j.key})
          on conflict (key) where state = 'queued' do nothing`);
        return true;
      });
    } else if (message === null) {
      fenced = await record(db, j, 'done', null);
    } else if (j.attempts >= maxAttempts) {
      log.error({ err, jobId: j.id, kind: j.kind, attempts: j.attempts }, 'background job failed for good');
      const rows = await rowsOf<{ id: string }>(
        db,
        sql`update job set state = 'failed', locked_until = null, last_error = ${message}, finished_at = now() where ${ours(j)} returning id`,
      );
      fenced = rows.length > 0;
    } else {
      // Exponential backoff: 5 s, 10 s, 20 s ... capped at an hour.
      const delaySeconds = Math.min(3600, 5 * 2 ** (j.attempts - 1));
      log.warn({ err, jobId: j.id, kind: j.kind, attempts: j.attempts, delaySeconds }, 'background job failed; retrying later');
      const rows = await rowsOf<{ id: string }>(
        db,
        sql`
        update job set locked_until = null, last_error = ${message}, run_at = now() + make_interval(secs => ${delaySeconds})
        where ${ours(j)} returning id`,
      );
      fenced = rows.length > 0;
    }
    if (!fenced)
      log.warn(
        { jobId: j.id, kind: j.kind, workerId },
        'background job ended after its lease was lost; the outcome is left to the worker that took it over',
      );
  }

  function run(j: ClaimedJob) {
    const handler = handlers.get(j.kind);
    hold(j);
    const context: JobContext = { id: j.id, kind: j.kind, key: j.key, attempts: j.attempts };
    const work = (async () => {
      let failure: unknown;
      try {
        if (!handler) throw new Error(`no handler for job kind ${j.kind}`);
        await running.run({ job: context, children: new Map() }, () => handler(j.payload, context));
      } catch (err) {
        failure = err ?? new Error('job failed');
      }
      try {
        await finish(j, failure);
      } finally {
        release(j);
      }
    })().catch((err) => log.error({ err, jobId: j.id }, 'could not record the outcome of a background job'));
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
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
      update job set attempts = attempts + 1, locked_until = now() + make_interval(secs => ${leaseSeconds}),
        locked_by = ${workerId}, started_at = now()
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
      returning id, kind, key, payload, attempts`,
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

  /** Makes sure each recurring job has its next pass queued (one across every process: its key). */
  async function scheduleRecurring() {
    for (const [kind, every] of recurring) {
      await db.execute(sql`
        insert into job (kind, payload, run_at, key)
        values (${kind}, '{}'::jsonb, now() + make_interval(secs => ${every / 1000}), ${recurringKey(kind)})
        on conflict (key) where state = 'queued' do nothing`);
    }
  }

  const queue = {
    /** This worker's name, as kept in the jobs it holds (`locked_by`) and finished (`ran_by`). */
    workerId,
    /** The timing in force (the admin page says how long finished jobs are kept). */
    settings: { leaseSeconds, heartbeatMs, pollMs, keepDays, maxAttempts },
    /** What to do with jobs of `kind`, in this process. */
    register(kind: string, handler: JobHandler) {
      handlers.set(kind, handler);
    },
    /**
     * Scheduled work that runs every `intervalMs` once across all processes (not once per
     * process): one queued job holds the key `every:<kind>`; the pass that runs it records it
     * and queues the next in one transaction. Register before start().
     */
    every(kind: string, intervalMs: number, handler: (job: JobContext) => Promise<void>) {
      handlers.set(kind, (_payload, context) => handler(context));
      recurring.set(kind, intervalMs);
    },
    /**
     * Stores a job (durable once this resolves) and starts it in the background. With a `key`,
     * nothing is stored (nor run) while a queued job holds the key.
     */
    async enqueue(kind: string, payload: unknown, opts: { key?: string | null } = {}): Promise<void> {
      const [j] = await rowsOf<ClaimedJob>(
        db,
        sql`
        insert into job (kind, payload, attempts, locked_until, locked_by, started_at, key)
        values (${kind}, ${JSON.stringify(payload)}::jsonb, 1, now() + make_interval(secs => ${leaseSeconds}), ${workerId}, now(), ${opts.key ?? null})
        on conflict (key) where state = 'queued' do nothing
        returning id, kind, key, payload, attempts`,
      );
      if (!j) return;
      if (stopped) {
        // Shutting down: leave it to another (or the next) process.
        await db.execute(sql`update job set attempts = 0, locked_until = null where ${ours(j)}`);
        return;
      }
      void run(j);
    },
    /**
     * Stores a job to run at `runAt` (default: now) by whichever process polls first; with a
     * `key`, at most one queued job holds it (a second schedule with the same key is ignored,
     * answering false). Pass `conn` (a transaction) to store the job with the write that
     * caused it: it exists exactly when that write committed.
     */
    async schedule(kind: string, payload: unknown, opts: { runAt?: Date; key?: string; conn?: Conn } = {}): Promise<boolean> {
      const conn = opts.conn ?? db;
      const runAt = (opts.runAt ?? new Date()).toISOString();
      const inserted = await rowsOf<{ id: string }>(
        conn,
        sql`
        insert into job (kind, payload, run_at, key)
        values (${kind}, ${JSON.stringify(payload)}::jsonb, ${runAt}::timestamptz, ${opts.key ?? null})
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
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work));
    },
    /** Deletes finished and failed jobs older than the keeping time (also a recurring job). */
    prune: () => pruneJobs(db, keepDays),
    /** Starts polling for due jobs (retries, jobs left behind by a process that died) and queues the recurring ones. */
    async start() {
      stopped = false;
      await scheduleRecurring().catch((err) => log.warn({ err }, 'could not schedule the recurring background jobs'));
      timer ??= setInterval(() => void poll(), pollMs);
      timer.unref();
    },
    /** Looks for due jobs now and waits until those found are done (tests, start-up). */
    async runDue() {
      await Promise.all(inFlight);
      await poll();
      await Promise.all(inFlight);
    },
    /** Stops polling and waits for the jobs this process is running (their leases renewed meanwhile). */
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await polling;
      await Promise.all(inFlight);
      await beating;
    },
  };
  queue.every(PRUNE_JOB, options.pruneEveryMs ?? 3_600_000, async () => {
    const pruned = await pruneJobs(db, keepDays);
    if (pruned.history || pruned.failed) log.info({ ...pruned, keepDays }, 'background jobs: pruned finished and failed jobs');
  });
  return queue;
}

export type JobQueue = ReturnType<typeof createJobQueue>;
