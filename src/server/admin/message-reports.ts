import type { MessageReports } from '../../shared/admin-schemas.js';
import type { Viewer } from '../accounts/viewer.js';
import type { AppServices } from '../app-services.js';
import { latestMessageReports } from '../mailbox/reports.js';
import { requireAdmin } from './require-admin.js';

/** The latest 100 reports of mailbox messages, for the admin console (read only). */
export async function listMessageReports(app: AppServices, viewer: Viewer): Promise<MessageReports> {
  await requireAdmin(app, viewer);
  const rows = await latestMessageReports(app.database.db);
  return {
    reports: rows.map((r) => ({
      id: r.id,
      messageId: String(r.message_id),
      body: r.body,
      reason: r.reason,
      sender: { id: r.sender_id, name: r.sender_name, email: r.sender_email },
      reporter: { id: r.reporter_id, name: r.reporter_name, email: r.reporter_email },
      sentAt: new Date(r.sent_at).toISOString(),
      reportedAt: new Date(r.reported_at).toISOString(),
    })),
  };
}
