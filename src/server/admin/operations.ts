import { desc, eq } from 'drizzle-orm';
import type { AuditLog, FailedJobs, RefundsDue } from '../../shared/admin-schemas.js';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { user } from '../db/schema/accounts.js';
import { adminAudit } from '../db/schema/admin.js';
import { failedJobs, finishedJobs, requeueFailedJob } from '../jobs/queue.js';
import { refundDue } from '../db/schema/payments.js';
import { AppError } from '../http/errors.js';
import { audit, requireAdmin } from './require-admin.js';

const AUDIT_PAGE = 100;

export async function listFailedJobs(app: AppServices, viewer: Viewer): Promise<FailedJobs> {
  await requireAdmin(app, viewer);
  const [rows, finished] = await Promise.all([failedJobs(app.database.db), finishedJobs(app.database.db)]);
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    jobs: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), finishedAt: iso(r.finishedAt) })),
    finished: finished.map((r) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      startedAt: iso(r.startedAt),
      finishedAt: r.finishedAt.toISOString(),
    })),
    keepDays: app.jobs.settings.keepDays,
  };
}

/** Puts a failed job back in the queue with fresh attempts; any app process picks it up. */
export async function retryJob(app: AppServices, viewer: Viewer, jobId: string) {
  await requireAdmin(app, viewer);
  await app.database.db.transaction(async (tx) => {
    const requeued = await requeueFailedJob(tx, jobId);
    if (!requeued) throw AppError.notFound('No failed job with this id');
    if (requeued === 'key-queued')
      throw new AppError(409, 'job_already_queued', 'A job with the same key is already queued; this one cannot be queued again');
    await audit(tx, viewer, { action: 'retry_job', targetId: jobId, details: { kind: requeued.kind } });
  });
}

export async function listRefundsDue(app: AppServices, viewer: Viewer): Promise<RefundsDue> {
  await requireAdmin(app, viewer);
  const refunds = await app.database.db
    .select({
      purchaseId: refundDue.purchaseId,
      userId: refundDue.userId,
      amountCents: refundDue.amountCents,
      currency: refundDue.currency,
      attempts: refundDue.attempts,
      lastError: refundDue.lastError,
    })
    .from(refundDue)
    .orderBy(desc(refundDue.createdAt))
    .limit(100);
  return { refunds };
}

export async function readAuditLog(app: AppServices, viewer: Viewer, query: { page: number }): Promise<AuditLog> {
  await requireAdmin(app, viewer);
  const rows = await app.database.db
    .select({
      id: adminAudit.id,
      adminId: adminAudit.adminId,
      adminEmail: user.email,
      action: adminAudit.action,
      targetId: adminAudit.targetId,
      reason: adminAudit.reason,
      createdAt: adminAudit.createdAt,
    })
    .from(adminAudit)
    .leftJoin(user, eq(user.id, adminAudit.adminId))
    .orderBy(desc(adminAudit.createdAt), desc(adminAudit.id))
    .limit(AUDIT_PAGE)
    .offset((query.page - 1) * AUDIT_PAGE);
  return { entries: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
}
