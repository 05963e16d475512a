import { sql } from 'drizzle-orm';
import type { Conn } from '../db/transaction.js';

/**
 * Keeps the course's search columns (next start, seats left) in step with its sessions.
 * Runs inside the transaction that changed a session or an enrolment.
 */
export async function refreshCourseStats(db: Conn, courseId: string) {
  await db.execute(sql`
    update course set
      next_start_on = (select min(starts_on) from course_session
                       where course_id = ${courseId} and status = 'scheduled' and starts_on >= current_date),
      seats_left = (select coalesce(sum(capacity - seats_taken), 0)::int from course_session
                    where course_id = ${courseId} and status = 'scheduled' and ends_on >= current_date),
      updated_at = now()
    where id = ${courseId}`);
}

/** Average rating and count, recomputed in the transaction that wrote a review. */
export async function refreshCourseRating(db: Conn, courseId: string) {
  await db.execute(sql`
    update course set
      rating_avg = coalesce((select avg(rating)::real from review where course_id = ${courseId}), 0),
      rating_count = (select count(*)::int from review where course_id = ${courseId})
    where id = ${courseId}`);
}
