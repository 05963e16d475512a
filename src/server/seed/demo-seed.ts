import type { FastifyInstance } from 'fastify';
import { ADVISORY_LOCKS } from '../db/locks.js';
import { seedDemoCatalogue } from './demo-catalogue.js';
import { seedDemoClubs } from './demo-clubs.js';
import { seedDemoMailbox } from './demo-mailbox.js';
import { seedDemoData } from './demo-users.js';
import { markStepDone, stepDone } from './setup-steps.js';

/** Recorded once every part of the demo is written (setup_step). */
export const DEMO_DONE = 'demo';

export type DemoSeedOutcome = 'made' | 'already' | 'busy';

/**
 * The demo accounts, before the server listens (so they exist when it answers). Under a lock
 * of their own: instances starting together wait a moment for the first, which writes them in
 * one transaction; the others find them there (ADR 0062).
 */
export async function seedDemoUsers(app: FastifyInstance): Promise<void> {
  await app.database.withLock(ADVISORY_LOCKS.demoUsers, async () => {
    if (await stepDone(app.database.db, DEMO_DONE)) return;
    await seedDemoData(app);
  });
}

/**
 * One attempt at the whole demo (after the server listens: the payments sandbox is reached
 * over HTTP), by one instance at a time: `busy` when another instance holds the lock, `already`
 * when the demo is recorded as complete. Every part is idempotent and resumes where an
 * attempt cut short stopped (the accounts, each course, each sale, each club); the demo is
 * recorded as complete only at the end, so a failed attempt is simply made again.
 */
export async function seedDemoOnce(app: FastifyInstance): Promise<DemoSeedOutcome> {
  const res = await app.database.withLock(
    ADVISORY_LOCKS.demoSeed,
    async (): Promise<DemoSeedOutcome> => {
      const db = app.database.db;
      if (await stepDone(db, DEMO_DONE)) return 'already';
      const t0 = performance.now();
      await seedDemoData(app);
      const { created } = await seedDemoCatalogue(app);
      await seedDemoClubs(app);
      await seedDemoMailbox(app);
      await markStepDone(db, DEMO_DONE);
      if (created > 0) app.log.info(`demo data ready in ${Math.round(performance.now() - t0)} ms`);
      return 'made';
    },
    { wait: false },
  );
  return res.acquired ? res.value : 'busy';
}

export interface KeepSeedingOptions {
  /** True once the app is stopping: no attempt after that. */
  stopped: () => boolean;
  /** Between two looks while another instance seeds. */
  busyPollMs?: number;
  /** After a failed attempt: doubled each time up to maxRetryMs. */
  firstRetryMs?: number;
  maxRetryMs?: number;
}

/**
 * Attempts the demo until it is complete in this database (made here or by another
 * instance), or the app closes: a database lost during a first start leaves the demo half
 * made only until it is back (issue 23 item 16). Resolves with the outcome (null when the app
 * stopped first) and how many attempts failed.
 */
export async function keepSeedingDemo(
  app: FastifyInstance,
  opts: KeepSeedingOptions,
): Promise<{ outcome: 'made' | 'already' | null; failures: number }> {
  const busyPollMs = opts.busyPollMs ?? 3000;
  let retryMs = opts.firstRetryMs ?? 2000;
  const maxRetryMs = opts.maxRetryMs ?? 30_000;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());
  let failures = 0;
  while (!opts.stopped()) {
    try {
      const outcome = await seedDemoOnce(app);
      if (outcome !== 'busy') {
        if (failures > 0) app.log.info('demo data complete after an interrupted start');
        return { outcome, failures };
      }
      await pause(busyPollMs);
    } catch (err) {
      if (opts.stopped()) break;
      failures++;
      app.log.warn(
        { err: err instanceof Error ? err.message : err },
        `demo data not complete (attempt ${failures}); trying again in ${Math.round(retryMs / 1000)} s`,
      );
      await pause(retryMs);
      retryMs = Math.min(retryMs * 2, maxRetryMs);
    }
  }
  return { outcome: null, failures };
}
