import { eq, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { formatPrice } from '../../shared/courses.js';
import type { Tx } from '../db/transaction.js';
import { courseBriefOf } from '../courses/course-records.js';
import { refundDue } from '../db/schema/payments.js';
import { executeRefundPlan, refundKey, type RefundStep } from './provider-refunds.js';
import type { RefundItem, RefundPlan } from './refund-policy.js';

/**
 * Refunds owed at the provider (refund_due). A drop or a cancelled session records its
 * plan here in the transaction that plans it; the request carries it out right after the
 * commit, and deletes the row once every step is done. A failed step leaves the row (what
 * is left of the plan) and the timer of the payments plugin retries it with back-off
 * (30 s, 1 min, 2 min, ... at most 1 h) until the provider has done it. Each refund always
 * uses the same idempotency key (`refund-<purchase>-<sequence>`), with the same amount, and a
 * done step is removed from the stored plan, so a retry can never refund twice. The learner
 * is emailed when a delayed refund finally goes through.
 */

/** How long a worker (or the request that planned it) holds a row while carrying it out. */
const LEASE_MS = 5 * 60_000;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 60 * 60_000;

/** The wait after the n-th failed attempt (n >= 1): 30 s, 1 min, 2 min, ..., capped at 1 h. */
export function retryDelayMs(failures: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(failures - 1, 0), MAX_RETRY_MS);
}

type StoredItem = RefundItem & { idempotencyKey: string };
type StoredPlan = Omit<RefundPlan, 'items'> & {
  items: StoredItem[];
  /** Refunded by retries so far (the delayed refund the learner is emailed about). */
  delayedCents?: number;
};

/**
 * Records what a plan owes (inside the planning transaction). The row starts leased to the
 * caller, who carries it out after the commit (runRefundDue); if the process dies before
 * that, a worker takes it when the lease ends.
 */
export async function recordRefundDue(tx: Tx, plan: RefundPlan): Promise<boolean> {
  if (plan.items.length === 0 && !plan.subscriptionId && !plan.resizeSubscription) return false;
  const stored: StoredPlan = {
    ...plan,
    items: plan.items.map((i) => ({ ...i, idempotencyKey: i.key ?? refundKey(plan.purchaseId, i.sequence) })),
  };
  await tx
    .insert(refundDue)
    .values({
      purchaseId: plan.purchaseId,
      userId: plan.learnerId,
      amountCents: plan.totalCents,
      currency: plan.currency,
      plan: stored as unknown as Record<string, unknown>,
      nextAttemptAt: new Date(Date.now() + LEASE_MS),
    })
    // One row per purchase: a family purchase's second learner dropped while the first one's
    // refund is still owed adds its steps (their own keys) to the row instead of losing them.
    .onConflictDoUpdate({
      target: refundDue.purchaseId,
      set: {
        plan: sql`jsonb_set(jsonb_set(${refundDue.plan}, '{items}', (${refundDue.plan}->'items') || (excluded.plan->'items')),
          '{resizeSubscription}', coalesce(excluded.plan->'resizeSubscription', ${refundDue.plan}->'resizeSubscription', 'null'::jsonb))`,
        amountCents: sql`${refundDue.amountCents} + excluded.amount_cents`,
      },
    })
    .returning({ inserted: sql<boolean>`xmax = 0` })
    .then(([row]) => {
      // Added to a row already owed: the retry worker carries out the whole of it (not the request).
      if (row && !row.inserted) plan.deferred = true;
    });
  return true;
}

export interface DueRow {
  purchaseId: string;
  attempts: number;
  plan: Record<string, unknown>;
}

/**
 * Carries out what is left of a recorded plan. Success: the row is deleted (and, when
 * `delayed`, the learner is emailed). Failure: the row keeps the remaining steps and waits
 * for its next attempt. Never throws for a provider failure.
 */
export async function runRefundDue(
  app: AppServices,
  row: DueRow,
  opts: { delayed: boolean },
): Promise<{ refundedCents: number; failed: boolean }> {
  const db = app.database.db;
  const plan = row.plan as unknown as StoredPlan;
  const remaining: StoredPlan = { ...plan, items: [...plan.items] };
  const onStep = async (step: RefundStep) => {
    if (step.kind === 'subscription') remaining.subscriptionId = null;
    else if (step.kind === 'resize') remaining.resizeSubscription = null;
    else {
      remaining.items = remaining.items.filter((i) => i.idempotencyKey !== step.key);
      if (opts.delayed) remaining.delayedCents = (remaining.delayedCents ?? 0) + step.amountCents;
    }
    remaining.totalCents = remaining.items.reduce((n, i) => n + i.amountCents, 0);
    await db
      .update(refundDue)
      .set({ plan: remaining as unknown as Record<string, unknown>, amountCents: remaining.totalCents })
      .where(eq(refundDue.purchaseId, row.purchaseId));
  };
  const result = await executeRefundPlan(app, plan, { onStep });
  if (result.failed) {
    const failures = row.attempts + 1;
    await db
      .update(refundDue)
      .set({ attempts: failures, nextAttemptAt: new Date(Date.now() + retryDelayMs(failures)), lastError: result.error ?? 'failed' })
      .where(eq(refundDue.purchaseId, row.purchaseId));
    app.log.warn({ purchase: row.purchaseId, attempts: failures, error: result.error }, 'payments: refund owed, will retry');
    return result;
  }
  await db.delete(refundDue).where(eq(refundDue.purchaseId, row.purchaseId));
  // Everything the retries refunded (the request's own refunds were in the drop's answer and email).
  const paidBack = remaining.delayedCents ?? 0;
  if (opts.delayed && paidBack > 0) await emailDelayedRefund(app, plan, paidBack);
  return result;
}

/** Announces a delayed refund that has gone through (notifications tell the learner). */
async function emailDelayedRefund(app: AppServices, plan: StoredPlan, cents: number) {
  const c = plan.courseId ? await courseBriefOf(app.database.db, plan.courseId) : null;
  await app.paymentEvents.announceCommitted(app.database.db, 'refund.issued', {
    purchaseId: plan.purchaseId,
    userId: plan.learnerId,
    courseId: plan.courseId ?? null,
    title: c?.title ?? 'your course',
    amount: formatPrice(cents, plan.currency),
    reason: 'delayed',
  });
}

/**
 * One pass of the retry worker: claims the due rows (FOR UPDATE SKIP LOCKED, then a lease,
 * so several app instances never take the same row) and carries each out.
 */
export async function retryDueRefunds(
  app: AppServices,
  opts: { now?: Date; limit?: number } = {},
): Promise<{ claimed: number; done: number; failed: number }> {
  const now = opts.now ?? new Date();
  const leaseUntil = new Date(now.getTime() + LEASE_MS);
  type Claimed = { purchase_id: string; attempts: number; plan: Record<string, unknown> };
  const claimed: unknown = await app.database.db.execute(sql`
    update ${refundDue} set next_attempt_at = ${leaseUntil.toISOString()}::timestamptz
    where purchase_id in (
      select purchase_id from ${refundDue} where next_attempt_at <= ${now.toISOString()}::timestamptz
      order by next_attempt_at limit ${opts.limit ?? 20} for update skip locked)
    returning purchase_id, attempts, plan`);
  const rows = (Array.isArray(claimed) ? claimed : (claimed as { rows: Claimed[] }).rows) as Claimed[];
  let done = 0;
  let failed = 0;
  for (const r of rows) {
    const result = await runRefundDue(app, { purchaseId: r.purchase_id, attempts: Number(r.attempts), plan: r.plan }, { delayed: true });
    if (result.failed) failed++;
    else done++;
  }
  return { claimed: rows.length, done, failed };
}

/** The recurring job of the refund retries (once across every app process: jobs/queue.ts `every`). */
export const REFUND_RETRY_JOB = 'payments.refund-retry';

/**
 * The plugin's scheduled pass: every `intervalMs`, in one process of the fleet at a time (a
 * recurring job, not a timer per process); skipped while the provider client cannot be built
 * yet (the sandbox answers once the server listens).
 */
export function scheduleRefundRetries(app: AppServices, intervalMs: number): void {
  app.jobs.every(REFUND_RETRY_JOB, intervalMs, async () => {
    try {
      app.stripe(); // sandbox mode: throws until the server listens
    } catch {
      return;
    }
    const pass = await retryDueRefunds(app);
    if (pass.failed) app.log.warn(pass, 'payments: refund retry pass left refunds owed');
  });
}
