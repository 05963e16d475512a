import { sql } from 'drizzle-orm';
import type { MessageReports } from '../../shared/admin-schemas.js';
import type { Viewer } from '../accounts/viewer.js';
import type { AppServices } from '../app-services.js';
import { requireAdmin } from './require-admin.js';

/** The latest 100 reports of mailbox messages, for the admin console (read only). */
export async function listMessageReports(app: AppServices, viewer: Viewer): Promise<MessageReports> {
  await requireAdmin(app, viewer);
  const res = (await app.database.db.execute(sql`
    select r.id, r.message_id, m.body, r.reason, r.created_at as reported_at, m.created_at as sent_at,
      s.id as sender_id, s.name as sender_name, s.email as sender_email,
      p.id as reporter_id, p.name as reporter_name, p.email as reporter_email
    from message_report r
    join message m on m.id = r.message_id
    join "user" s on s.id = m.sender_id
    join "user" p on p.id = r.reporter_id
    order by r.created_at desc limit 100`)) as unknown as {
    rows: {
      id: string;
      message_id: string;
      body: string;
      reason: string;
      reported_at: string | Date;
      sent_at: string | Date;
      sender_id: string;
      sender_name: string;
      sender_email: string;
      reporter_id: string;
      reporter_name: string;
      reporter_email: string;
    }[];
  };
  return {
    reports: res.rows.map((r) => ({
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
