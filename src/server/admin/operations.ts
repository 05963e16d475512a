import { desc } from 'drizzle-orm';
import type { AuditLog, FailedJobs, RefundsDue } from '../../shared/admin-schemas.js';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { contactsOf } from '../accounts/people.js';
import { adminAudit } from '../db/schema/admin.js';
import { failedJobs, finishedJobs, requeueFailedJob } from '../jobs/queue.js';
import { refundsOwed } from '../payments/purchase-records.js';
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
  const refunds = await refundsOwed(app.database.db);
  const who = await contactsOf(
    app.database.db,
    refunds.map((r) => r.userId),
  );
  return {
    refunds: refunds.map((r) => ({ ...r, userName: who.get(r.userId)?.name ?? null, userEmail: who.get(r.userId)?.email ?? null })),
  };
}

export async function readAuditLog(app: AppServices, viewer: Viewer, query: { page: number }): Promise<AuditLog> {
  await requireAdmin(app, viewer);
  const rows = await app.database.db
    .select({
      id: adminAudit.id,
      adminId: adminAudit.adminId,
      action: adminAudit.action,
      targetId: adminAudit.targetId,
      reason: adminAudit.reason,
      details: adminAudit.details,
      createdAt: adminAudit.createdAt,
    })
    .from(adminAudit)
    .orderBy(desc(adminAudit.createdAt), desc(adminAudit.id))
    .limit(AUDIT_PAGE)
    .offset((query.page - 1) * AUDIT_PAGE);
  // Who acted and on whom, by name: the audit keeps ids, accounts know the people.
  const who = await contactsOf(
    app.database.db,
    rows.flatMap((r) => [r.adminId, ...(r.targetId && r.action !== 'retry_job' && r.action !== 'delete_club' ? [r.targetId] : [])]),
  );
  return {
    entries: rows.map(({ details, ...r }) => ({
      ...r,
      adminName: who.get(r.adminId)?.name ?? null,
      adminEmail: who.get(r.adminId)?.email ?? null,
      target: targetOf(r.action, r.targetId, details, who),
      createdAt: r.createdAt.toISOString(),
    })),
  };
}

function targetOf(
  action: string,
  targetId: string | null,
  details: Record<string, unknown> | null,
  who: Map<string, { name: string; email: string }>,
): AuditLog['entries'][number]['target'] {
  if (!targetId) return null;
  if (action === 'retry_job') {
    const kind = typeof details?.kind === 'string' ? details.kind : 'unknown';
    return { kind: 'job', id: targetId, name: `the ${kind.replace(/[-_]/g, ' ')} job`, email: null };
  }
  if (action === 'delete_club') {
    const name = typeof details?.name === 'string' ? details.name : 'a club';
    return { kind: 'club', id: targetId, name, email: null };
  }
  const person = who.get(targetId);
  if (person) return { kind: 'user', id: targetId, name: person.name, email: person.email };
  return { kind: 'other', id: targetId, name: targetId, email: null };
}
