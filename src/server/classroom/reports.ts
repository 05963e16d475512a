import { sql } from 'drizzle-orm';
import { people } from '../accounts/people.js';
import { rowsOf, type Conn } from '../db/transaction.js';

/** A reported classroom post with its course session, author and reporter, for the admin console. */
export type PostReportRow = {
  id: string;
  post_id: string;
  course_id: string;
  session_id: string;
  body: string;
  reason: string;
  reported_at: string | Date;
  author_id: string;
  author_name: string;
  author_email: string;
  reporter_id: string;
  reporter_name: string;
  reporter_email: string;
};

/** The latest 100 reports of classroom posts (newest first): what the admin console reads of them (ADR 0035). */
export function latestPostReports(conn: Conn): Promise<PostReportRow[]> {
  return rowsOf<PostReportRow>(
    conn,
    sql`select r.id, r.post_id, p.course_id, p.session_id, p.body, r.reason, r.created_at as reported_at,
      a.id as author_id, a.name as author_name, a.email as author_email,
      x.id as reporter_id, x.name as reporter_name, x.email as reporter_email
    from classroom_report r
    join classroom_post p on p.id = r.post_id
    join ${people} a on a.id = p.author_id
    join ${people} x on x.id = r.reporter_id
    order by r.created_at desc limit 100`,
  );
}
