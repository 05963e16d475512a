import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createJobQueue } from '../../../src/server/jobs/queue.js';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { newUser, signUp } from '../../support/factories.js';
import { post, uniqueEmail } from '../../support/http.js';
import { startSmtpServer } from '../../support/smtp.js';

/** Issue 12 defect 6: emails are background jobs, so no request waits on the mail server. */

const SMTP_DELAY_MS = 1500;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: TestApp;
beforeAll(async () => {
  smtp = await startSmtpServer({ delayMs: SMTP_DELAY_MS });
  app = await buildTestApp({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await app.close();
  await smtp.stop();
});

const mailTo = (to: string) => smtp.received.filter((m) => m.to.includes(to));

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
}

describe('emails over a slow SMTP server', () => {
  it('a password-reset request answers at once for a known and an unknown email; the email still arrives', async () => {
    const user = newUser();
    expect((await signUp(app, user)).statusCode).toBe(201);
    await vi.waitFor(() => expect(mailTo(user.email)).toHaveLength(1), { timeout: 10_000 });

    const known = await timed(() => post(app, '/api/accounts/password-reset', { email: user.email }));
    const unknown = await timed(() => post(app, '/api/accounts/password-reset', { email: uniqueEmail('nobody') }));
    expect(known.result.statusCode).toBe(200);
    expect(unknown.result.body).toBe(known.result.body);
    // Neither waited for the mail server (it takes SMTP_DELAY_MS to accept a message).
    expect(known.ms).toBeLessThan(SMTP_DELAY_MS / 2);
    expect(unknown.ms).toBeLessThan(SMTP_DELAY_MS / 2);

    await vi.waitFor(() => expect(mailTo(user.email).some((m) => /reset/i.test(m.raw))).toBe(true), { timeout: 10_000 });
  });

  it('sign-up answers without waiting for the verification email', async () => {
    const user = newUser();
    const { ms, result } = await timed(() => signUp(app, user));
    expect(result.statusCode).toBe(201);
    expect(ms).toBeLessThan(SMTP_DELAY_MS);
    await vi.waitFor(() => expect(mailTo(user.email)).toHaveLength(1), { timeout: 10_000 });
  });
});

describe('the job queue', () => {
  const db = () => app.database.db;
  const rows = async (kind: string) =>
    (
      (await db().execute(sql`select state, attempts, last_error from job where kind = ${kind}`)) as unknown as {
        rows: { state: string; attempts: number; last_error: string | null }[];
      }
    ).rows;

  const history = async (kind: string) =>
    (
      (await db().execute(sql`select outcome, attempts, ran_by from job_history where kind = ${kind} order by finished_at`)) as unknown as {
        rows: { outcome: string; attempts: number; ran_by: string }[];
      }
    ).rows;

  it('keeps a failed job and retries it later, in any process', async () => {
    const kind = `test.flaky.${crypto.randomUUID()}`;
    const first = createJobQueue(db(), app.log);
    first.register(kind, async () => {
      throw new Error('mail server down');
    });
    await first.enqueue(kind, { n: 1 });
    await first.stop();
    expect(await rows(kind)).toEqual([{ state: 'queued', attempts: 1, last_error: 'mail server down' }]);

    // Another process takes it once it is due.
    const done: unknown[] = [];
    const second = createJobQueue(db(), app.log);
    second.register(kind, async (payload) => {
      done.push(payload);
    });
    await second.runDue();
    expect(done).toEqual([]);
    await db().execute(sql`update job set run_at = now() where kind = ${kind}`);
    await second.runDue();
    expect(done).toEqual([{ n: 1 }]);
    expect(await rows(kind)).toEqual([]);
    // Kept for the admin page, without its payload: done on the second attempt, by the second process.
    expect(await history(kind)).toEqual([{ outcome: 'done', attempts: 2, ran_by: second.workerId }]);
    await second.stop();
  });

  it('takes over a job whose process died, and leaves a job that failed every attempt as failed', async () => {
    const kind = `test.orphan.${crypto.randomUUID()}`;
    // A job held by a process that died: its hold has run out.
    await db().execute(
      sql`insert into job (kind, payload, attempts, locked_until) values (${kind}, '{"n":2}'::jsonb, 1, now() - interval '1 second')`,
    );
    const queue = createJobQueue(db(), app.log, { maxAttempts: 2 });
    queue.register(kind, async () => {
      throw new Error('still down');
    });
    await queue.runDue();
    expect(await rows(kind)).toEqual([{ state: 'failed', attempts: 2, last_error: 'still down' }]);
    await queue.stop();
  });

  it('runs a job in one process only, however many poll at once', async () => {
    const kind = `test.once.${crypto.randomUUID()}`;
    await db().execute(sql`insert into job (kind, payload) select ${kind}, jsonb_build_object('n', n) from generate_series(1, 10) n`);
    const seen: number[] = [];
    const queues = [1, 2, 3].map(() => {
      const q = createJobQueue(db(), app.log);
      q.register(kind, async (payload) => {
        seen.push((payload as { n: number }).n);
      });
      return q;
    });
    await Promise.all(queues.map((q) => q.runDue()));
    expect(seen.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    await Promise.all(queues.map((q) => q.stop()));
  });
  it('runs a scheduled job when it is due, once per key, and not at all once unscheduled', async () => {
    const kind = `test.scheduled.${crypto.randomUUID()}`;
    const key = `${kind}:reminder`;
    const seen: unknown[] = [];
    const queue = createJobQueue(db(), app.log);
    queue.register(kind, async (payload) => {
      seen.push(payload);
    });
    const later = new Date(Date.now() + 60_000);
    expect(await queue.schedule(kind, { n: 1 }, { runAt: later, key })).toBe(true);
    expect(await queue.schedule(kind, { n: 2 }, { runAt: later, key })).toBe(false);
    await queue.runDue();
    expect(seen).toEqual([]);
    await db().execute(sql`update job set run_at = now() where kind = ${kind}`);
    await queue.runDue();
    expect(seen).toEqual([{ n: 1 }]);

    // Written in a transaction that rolls back: no job.
    await db()
      .transaction(async (tx) => {
        await queue.schedule(kind, { n: 3 }, { conn: tx, key: `${key}:rolled-back` });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await queue.schedule(kind, { n: 4 }, { key: `${key}:cancelled` });
    await queue.unschedule(`${key}:cancelled`);
    await queue.runDue();
    expect(seen).toEqual([{ n: 1 }]);
    expect(await rows(kind)).toEqual([]);
    await queue.stop();
  });
});
