import { desc, eq, inArray } from 'drizzle-orm';
import { course, courseSession, enrolment } from '../db/schema/courses.js';
import type { Conn } from '../db/transaction.js';

/** One enrolment of a learner as others may show it: the course's title and the session's dates with it. */
export interface LearnerEnrolmentRecord {
  id: string;
  courseId: string;
  courseTitle: string;
  sessionId: string;
  sessionStartsOn: string;
  sessionEndsOn: string;
  status: string;
  createdAt: Date;
}

/**
 * A learner's enrolments, newest first, with what they are enrolments in (ADR 0035: courses
 * own these tables; the admin console's user detail reads them through here).
 */
export async function enrolmentsOfLearner(conn: Conn, learnerId: string, limit = 100): Promise<LearnerEnrolmentRecord[]> {
  return conn
    .select({
      id: enrolment.id,
      courseId: enrolment.courseId,
      courseTitle: course.title,
      sessionId: enrolment.sessionId,
      sessionStartsOn: courseSession.startsOn,
      sessionEndsOn: courseSession.endsOn,
      status: enrolment.status,
      createdAt: enrolment.createdAt,
    })
    .from(enrolment)
    .innerJoin(course, eq(course.id, enrolment.courseId))
    .innerJoin(courseSession, eq(courseSession.id, enrolment.sessionId))
    .where(eq(enrolment.learnerId, learnerId))
    .orderBy(desc(enrolment.createdAt), enrolment.id)
    .limit(limit);
}

/** Course titles by id (for records that name a course, like a user's purchases); unknown ids are left out. */
export async function courseTitlesOf(conn: Conn, ids: Iterable<string>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await conn.select({ id: course.id, title: course.title }).from(course).where(inArray(course.id, wanted));
  return new Map(rows.map((r) => [r.id, r.title]));
}
