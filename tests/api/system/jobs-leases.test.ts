import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Database } from '../../../src/server/db/client.js';
import { loadConfig } from '../../../src/server/config.js';
import { createMailer, queuedMailer } from '../../../src/server/email/mailer.js';
import { createJobQueue, jobQueueStats, type JobQueue, type JobQueueOptions } from '../../../src/server/jobs/queue.js';
import { buildTestApp, openTestDatabase, type TestApp } from '../../support/app.js';
import { createSignedInUser, type SignedInUser } from '../../support/factories.js';
import { get, post } from '../../support/http.js';
import { parseMime, startSmtpServer } from '../../support/smtp.js';

/**
 * Issue 24 item 4, in one process with several workers (each with its own connection pool, as
 * instances have) on one PostgreSQL database: leases renewed by a heartbeat, recurring work
 * once across workers, finished jobs kept JOBS_KEEP_DAYS, the Message-ID of a retried email,
 * the queue's depth and age. The kill -9 of a real process is in jobs-crash.test.ts.
 */
const usesPostgres = !!inject('databaseUrl') && process.env.AGORA_TEST_PGLITE !== '1';
if (!usesPostgres) console.warn('  jobs-leases: the tests of several workers need PostgreSQL (PGlite run: skipped)');

const adminEmail = `jobs-admin-${randomUUID().slice(0, 8)}@example.com`;
let app: TestApp;
let admin: SignedInUser;
const pools: Database[] = [];
const queues: JobQueue[] = [];

beforeAll(async () => {
  app = await buildTestApp({ JOBS_KEEP_DAYS: '3', ADMIN_EMAILS: adminEmail });
  admin = await createSignedInUser(app, { email: adminEmail });
});
afterAll(async () => {
  await Promise.all(queues.map((q) => q.stop()));
  await Promise.all(pools.map((p) => p.close()));
  await app.close();
});

const db = () => app.database.db;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const rows = async <T>(query: ReturnType<typeof sql>) => ((await db().execute(query)) as unknown as { rows: T[] }).rows;

/** A worker as an instance has it: its own pool on the shared database, short lease and poll. */
async function worker(options: JobQueueOptions = {}): Promise<JobQueue> {
  const pool = await openTestDatabase();
  pools.push(pool);
  const queue = createJobQueue(pool.db, app.log, { leaseSeconds: 1, pollMs: 100, ...options });
  queues.push(queue);
  return queue;
}

async function waitFor(what: string, probe: () => Promise<boolean>, ceilingMs = 30_000) {
  const until = Date.now() + ceilingMs;
  while (!(await probe())) {
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await sleep(100);
  }
}

/** Counts runs of each job and the most runs of one job at the same moment. */
function tracker() {
  const active = new Map<string, number>();
  const runs = new Map<string, number>();
  let maxConcurrent = 0;
  return {
    runs,
    get maxConcurrent() {
      return maxConcurrent;
    },
    async around(id: string, work: () => Promise<void>) {
      const now = (active.get(id) ?? 0) + 1;
      active.set(id, now);
      runs.set(id, (runs.get(id) ?? 0) + 1);
      maxConcurrent = Math.max(maxConcurrent, now);
      try {
        await work();
      } finally {
        active.set(id, (active.get(id) ?? 1) - 1);
      }
    },
  };
}

describe.skipIf(!usesPostgres)('leases renewed by a heartbeat', () => {
  it('two workers never run one job at once, though each job outlasts the lease twice over', async () => {
    const kind = `test.long.${randomUUID()}`;
    const seen = tracker();
    const [a, b] = [await worker(), await worker()];
    for (const q of [a, b]) q.register(kind, (_payload, job) => seen.around(job.id, () => sleep(2_500)));
    for (let n = 0; n < 4; n++) await a.schedule(kind, { n });
    await Promise.all([a.start(), b.start()]);
    await waitFor('the four jobs to finish', async () => (await rows(sql`select 1 from job_history where kind = ${kind}`)).length === 4);

    expect(seen.maxConcurrent).toBe(1);
    expect([...seen.runs.values()]).toEqual([1, 1, 1, 1]);
    const history = await rows<{ outcome: string; attempts: number }>(sql`select outcome, attempts from job_history where kind = ${kind}`);
    expect(history).toEqual(Array.from({ length: 4 }, () => ({ outcome: 'done', attempts: 1 })));
    expect(await rows(sql`select 1 from job where kind = ${kind}`)).toEqual([]);
  });

  it('without the heartbeat the same job would be taken over while it runs (the test can tell), and only the holder records it', async () => {
    const kind = `test.no-heartbeat.${randomUUID()}`;
    const seen = tracker();
    // A heartbeat slower than the job: the lease (1 s) lapses while the first attempt works (1.6 s).
    const [a, b] = [await worker({ heartbeatMs: 60_000 }), await worker({ heartbeatMs: 60_000 })];
    for (const q of [a, b]) q.register(kind, (_payload, job) => seen.around(job.id, () => sleep(job.attempts === 1 ? 1_600 : 10)));
    await a.schedule(kind, {});
    await Promise.all([a.start(), b.start()]);
    await waitFor(
      'the job to be taken over and finished',
      async () => (await rows(sql`select 1 from job_history where kind = ${kind}`)).length === 1,
    );
    await sleep(1_000); // the first attempt ends meanwhile: its record is refused (its lease was lost)

    expect(seen.maxConcurrent).toBe(2);
    const history = await rows<{ outcome: string; attempts: number }>(sql`select outcome, attempts from job_history where kind = ${kind}`);
    expect(history).toEqual([{ outcome: 'done', attempts: 2 }]);
  });
});

describe.skipIf(!usesPostgres)('scheduled work', () => {
  it('a recurring job runs once per interval across two workers, never twice at once', async () => {
    const kind = `test.every.${randomUUID()}`;
    const passes: { worker: string; start: number; end: number }[] = [];
    const [a, b] = [await worker(), await worker()];
    for (const q of [a, b]) {
      q.every(kind, 400, async () => {
        const start = Date.now();
        await sleep(50);
        passes.push({ worker: q.workerId, start, end: Date.now() });
      });
    }
    const started = Date.now();
    await Promise.all([a.start(), b.start()]);
    await sleep(4_000);
    await Promise.all([a.stop(), b.stop()]);
    const elapsed = Date.now() - started;

    // One pass per interval at most (a timer in each worker would make twice as many).
    expect(passes.length).toBeGreaterThanOrEqual(3);
    expect(passes.length).toBeLessThanOrEqual(Math.ceil(elapsed / 400));
    passes.sort((x, y) => x.start - y.start);
    for (let i = 1; i < passes.length; i++) expect(passes[i].start).toBeGreaterThanOrEqual(passes[i - 1].end);
    const recorded = await rows<{ outcome: string }>(sql`select outcome from job_history where kind = ${kind}`);
    expect(recorded).toHaveLength(passes.length);
    // The next pass is queued, once.
    expect(await rows(sql`select 1 from job where kind = ${kind} and state = 'queued'`)).toHaveLength(1);
  });

  it('the refund retry is such a job: one queued pass for every app on the database, not a timer per process', async () => {
    const other = await buildTestApp();
    try {
      const queued = await rows<{ n: number }>(
        sql`select count(*)::int as n from job where key = 'every:payments.refund-retry' and state = 'queued'`,
      );
      expect(queued).toEqual([{ n: 1 }]);
    } finally {
      await other.close();
    }
  });
});

describe('finished jobs kept for the admin page', () => {
  it('keeps finished and failed jobs JOBS_KEEP_DAYS (here 3), then prunes them; queued ones stay', async () => {
    expect(app.jobs.settings.keepDays).toBe(3);
    const tag = randomUUID();
    const day = (n: number) => sql`now() - make_interval(days => ${n})`;
    await db().execute(sql`
      insert into job_history (id, kind, outcome, attempts, created_at, finished_at) values
        (gen_random_uuid(), ${`test.kept.${tag}`}, 'done', 1, ${day(3)}, ${day(2)}),
        (gen_random_uuid(), ${`test.pruned.${tag}`}, 'done', 1, ${day(5)}, ${day(4)})`);
    await db().execute(sql`
      insert into job (kind, payload, state, attempts, created_at, finished_at) values
        (${`test.kept.${tag}`}, '{}', 'failed', 8, ${day(3)}, ${day(2)}),
        (${`test.pruned.${tag}`}, '{}', 'failed', 8, ${day(5)}, ${day(4)}),
        (${`test.kept.${tag}`}, '{}', 'queued', 0, ${day(10)}, null)`);

    await app.jobs.prune();
    const left = await rows<{ kind: string }>(
      sql`select kind from job_history where kind like ${`%.${tag}`} union all select kind from job where kind like ${`%.${tag}`}`,
    );
    expect(left.map((r) => r.kind)).toEqual([`test.kept.${tag}`, `test.kept.${tag}`, `test.kept.${tag}`]);
  });

  it('GET /api/admin/jobs lists the failed and the finished jobs, and how long they are kept', async () => {
    const kind = `test.admin.${randomUUID()}`;
    app.jobs.register(kind, async () => {});
    await app.jobs.enqueue(kind, { secret: 'reset-link-token' });
    await app.jobs.runDue();
    const res = await get(app, '/api/admin/jobs', { cookie: admin.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.keepDays).toBe(3);
    const finished = body.finished.find((j: { kind: string }) => j.kind === kind);
    expect(finished).toMatchObject({ outcome: 'done', attempts: 1, ranBy: app.jobs.workerId });
    // What a finished job carried is not kept (an email's reset link).
    expect(JSON.stringify(await rows(sql`select * from job_history where kind = ${kind}`))).not.toContain('reset-link-token');
  });

  it('a failed job whose key is queued again answers 409 on retry, not a 500', async () => {
    const key = `test.key.${randomUUID()}`;
    const [failed] = await rows<{ id: string }>(
      sql`insert into job (kind, payload, state, attempts, key, finished_at) values ('test.none', '{}', 'failed', 8, ${key}, now()) returning id`,
    );
    await db().execute(sql`insert into job (kind, payload, run_at, key) values ('test.none', '{}', now() + interval '1 hour', ${key})`);
    const res = await post(app, `/api/admin/jobs/${failed.id}/retry`, undefined, { cookie: admin.cookie });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'job_already_queued', message: expect.stringMatching(/already queued/) });
    await db().execute(sql`delete from job where key = ${key}`);
  });
});

describe('emails sent again carry the same Message-ID', () => {
  it('an email sent from a job that is retried keeps its Message-ID (keyed by the job, the recipient and the subject)', async () => {
    const smtp = await startSmtpServer();
    const queue = createJobQueue(db(), app.log);
    const mailer = queuedMailer(createMailer({ smtpUrl: smtp.url, from: 'Agora <hello@agora.test>', db: db(), log: app.log }), queue);
    try {
      const kind = `test.notify.${randomUUID()}`;
      const [ada, bob] = [`ada-${randomUUID().slice(0, 8)}@example.com`, `bob-${randomUUID().slice(0, 8)}@example.com`];
      let parentId = '';
      queue.register(kind, async (_payload, job) => {
        parentId = job.id;
        // Two emails, in another order on the second attempt.
        const order = job.attempts === 1 ? [ada, bob] : [bob, ada];
        for (const to of order) await mailer.send({ to, subject: 'Hello', text: 'Hello', html: '<p>Hello</p>' });
        // The job fails after its emails went out (a crash would do the same): it is run again.
        if (job.attempts === 1) throw new Error('failed after sending');
      });
      await queue.enqueue(kind, {});
      await queue.runDue();
      await db().execute(sql`update job set run_at = now() where kind = ${kind}`);
      await queue.runDue();

      const idsTo = (to: string) => smtp.received.filter((m) => m.to.includes(to)).map((m) => parseMime(m.raw).headers['message-id']);
      const [adas, bobs] = [idsTo(ada), idsTo(bob)];
      expect(adas).toHaveLength(2);
      expect(bobs).toHaveLength(2);
      const shape = new RegExp(`^<agora\\.email\\.${parentId}\\.[0-9a-f]{16}\\.1@agora\\.test>$`);
      expect(adas[0]).toMatch(shape);
      expect(adas[1]).toBe(adas[0]);
      expect(bobs[0]).toMatch(shape);
      expect(bobs[1]).toBe(bobs[0]);
      expect(bobs[0]).not.toBe(adas[0]);
    } finally {
      await queue.stop();
      mailer.close();
      await smtp.stop();
    }
  });
});

describe('settings', () => {
  it('JOBS_LEASE_SECONDS, JOBS_POLL_MS and JOBS_KEEP_DAYS have defaults that take a job over within 30 s, and refuse nonsense', () => {
    const defaults = loadConfig({}).jobs;
    expect(defaults).toEqual({ leaseSeconds: 15, pollMs: 5000, keepDays: 7 });
    expect(defaults.leaseSeconds * 1000 + defaults.pollMs).toBeLessThanOrEqual(30_000);
    expect(loadConfig({ JOBS_LEASE_SECONDS: '2', JOBS_POLL_MS: '500', JOBS_KEEP_DAYS: '0' }).jobs).toEqual({
      leaseSeconds: 2,
      pollMs: 500,
      keepDays: 0,
    });
    expect(() => loadConfig({ JOBS_LEASE_SECONDS: '0' })).toThrow(/JOBS_LEASE_SECONDS/);
    expect(() => loadConfig({ JOBS_KEEP_DAYS: 'forever' })).toThrow(/JOBS_KEEP_DAYS/);
    expect(() => loadConfig({ JOBS_POLL_MS: '10' })).toThrow(/JOBS_POLL_MS/);
  });
});

describe('queue depth and age (for metrics)', () => {
  it('counts due, running and failed jobs by kind, and the wait of the oldest due one', async () => {
    const kind = `test.stats.${randomUUID()}`;
    await db().execute(sql`
      insert into job (kind, payload, run_at, locked_until, state, finished_at) values
        (${kind}, '{}', now() - interval '90 seconds', null, 'queued', null),
        (${kind}, '{}', now() - interval '10 seconds', null, 'queued', null),
        (${kind}, '{}', now() - interval '5 seconds', now() + interval '10 seconds', 'queued', null),
        (${kind}, '{}', now() + interval '1 hour', null, 'queued', null),
        (${kind}, '{}', now() - interval '1 day', null, 'failed', now())`);
    const stats = (await jobQueueStats(db())).find((s) => s.kind === kind);
    expect(stats).toMatchObject({ kind, due: 2, running: 1, failed: 1 });
    expect(stats!.oldestDueSeconds).toBeGreaterThanOrEqual(90);
    expect(stats!.oldestDueSeconds).toBeLessThan(120);
    await db().execute(sql`delete from job where kind = ${kind}`);
  });
});
