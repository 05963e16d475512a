import { eq } from 'drizzle-orm';
import type { Conn } from '../db/transaction.js';
import { course, courseSession } from '../db/schema/courses.js';
import { AppError } from '../http/errors.js';
import type { Viewer } from '../accounts/viewer.js';

/**
 * A course the caller may change: it exists (404) and belongs to them (403). Every write
 * on a course, its sessions, class times or roster goes through here.
 */
export async function ownedCourse(db: Conn, courseId: string, viewer: Viewer) {
  const [row] = await db.select().from(course).where(eq(course.id, courseId)).limit(1);
  if (!row) throw AppError.notFound('This course does not exist');
  if (row.educatorId !== viewer.user.id) throw AppError.forbidden('Only the educator of this course can do this');
  return row;
}

/** A course session of an owned course; it must belong to that course. */
export async function ownedCourseSession(db: Conn, courseId: string, sessionId: string, viewer: Viewer) {
  const c = await ownedCourse(db, courseId, viewer);
  const [s] = await db.select().from(courseSession).where(eq(courseSession.id, sessionId)).limit(1);
  if (!s || s.courseId !== c.id) throw AppError.notFound('This session does not exist');
  return { course: c, session: s };
}
