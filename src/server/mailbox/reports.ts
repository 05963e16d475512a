import { sql } from 'drizzle-orm';
import { people } from '../accounts/people.js';
import type { Conn } from '../db/transaction.js';

/** A reported message with its sender and reporter, for the admin console. */
export type MessageReportRow = {
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
};

/**
 * The latest 100 reports of mailbox messages (newest first), each with the message, its
 * sender and the reporter: what the admin console reads of the mailbox's reports (ADR 0035).
 */
export async function latestMessageReports(conn: Conn): Promise<MessageReportRow[]> {
  const res = (await conn.execute(sql`
    select r.id, r.message_id, m.body, r.reason, r.created_at as reported_at, m.created_at as sent_at,
      s.id as sender_id, s.name as sender_name, s.email as sender_email,
      p.id as reporter_id, p.name as reporter_name, p.email as reporter_email
    from message_report r
    join message m on m.id = r.message_id
    join ${people} s on s.id = m.sender_id
    join ${people} p on p.id = r.reporter_id
    order by r.created_at desc limit 100`)) as unknown as { rows: MessageReportRow[] };
  return res.rows;
}
