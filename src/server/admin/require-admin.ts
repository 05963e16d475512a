import type { AppServices } from '../app-services.js';
import { roleOf } from '../accounts/people.js';
import type { Viewer } from '../accounts/viewer.js';
import { adminAudit } from '../db/schema/admin.js';
import { AppError } from '../http/errors.js';

export type Tx = Parameters<Parameters<AppServices['database']['db']['transaction']>[0]>[0];

/** Whether the viewer holds the admin role (read fresh: a revoked role stops at once). */
export async function isAdmin(app: AppServices, viewer: Viewer): Promise<boolean> {
  return (await roleOf(app.database.db, viewer.user.id)) === 'admin';
}

/** Every admin use case starts here: 403 for everyone else (the web app shows not-found). */
export async function requireAdmin(app: AppServices, viewer: Viewer): Promise<void> {
  if (!(await isAdmin(app, viewer))) throw new AppError(403, 'not_admin', 'Only admins can do this');
}

/** One audit row, in the transaction of the action it records. */
export async function audit(
  tx: Tx,
  viewer: Viewer,
  entry: { action: string; targetId?: string | null; reason?: string | null; details?: Record<string, unknown> },
) {
  await tx.insert(adminAudit).values({
    adminId: viewer.user.id,
    action: entry.action,
    targetId: entry.targetId ?? null,
    reason: entry.reason ?? null,
    details: entry.details ?? null,
  });
}
