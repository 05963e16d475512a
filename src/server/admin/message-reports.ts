import type { ClassroomReports, MessageReports } from '../../shared/admin-schemas.js';
import { classroomPath } from '../../shared/routes.js';
import { latestPostReports } from '../classroom/reports.js';
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

/** The latest 100 reports of classroom posts, for the admin console (read only). */
export async function listClassroomReports(app: AppServices, viewer: Viewer): Promise<ClassroomReports> {
  await requireAdmin(app, viewer);
  const rows = await latestPostReports(app.database.db);
  return {
    reports: rows.map((r) => ({
      id: r.id,
      postId: r.post_id,
      link: classroomPath(r.course_id, r.session_id),
      body: r.body,
      reason: r.reason,
      author: { id: r.author_id, name: r.author_name, email: r.author_email },
      reporter: { id: r.reporter_id, name: r.reporter_name, email: r.reporter_email },
      reportedAt: new Date(r.reported_at).toISOString(),
    })),
  };
}
