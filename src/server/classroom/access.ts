import { and, eq } from 'drizzle-orm';
import type { Viewer } from '../accounts/viewer.js';
import { classroomSessionOf, learnerIdsOfSession } from '../courses/course-records.js';
import { classroomRemoval } from '../db/schema/classroom.js';
import type { Conn } from '../db/transaction.js';
import { AppError } from '../http/errors.js';

export type ClassroomRole = 'educator' | 'learner';

export interface Classroom {
  courseId: string;
  sessionId: string;
  courseTitle: string;
  educatorId: string;
  educatorName: string;
  session: { startsOn: string; endsOn: string; timeZone: string; status: string };
  role: ClassroomRole;
}

const hidden = () => AppError.notFound('This classroom does not exist');

/**
 * The classroom of a course session, for its educator and its learners whose enrolment is
 * active and whose access the educator did not remove; for anyone else (other learners and
 * educators, waitlisted, dropped) a 404, as if it did not exist. Read on every request, from
 * the roster itself: a learner who drops is refused on their next request (no grant is kept).
 */
export async function classroomFor(conn: Conn, courseId: string, sessionId: string, viewer: Viewer): Promise<Classroom> {
  const userId = viewer.user.id;
  const [s, removed] = await Promise.all([classroomSessionOf(conn, { courseId, sessionId, userId }), isRemoved(conn, sessionId, userId)]);
  if (!s) throw hidden();
  const role: ClassroomRole | null = s.educatorId === userId ? 'educator' : s.enrolmentStatus === 'active' && !removed ? 'learner' : null;
  if (!role) throw hidden();
  return {
    courseId,
    sessionId,
    courseTitle: s.courseTitle,
    educatorId: s.educatorId,
    educatorName: s.educatorName,
    session: { startsOn: s.startsOn, endsOn: s.endsOn, timeZone: s.timeZone, status: s.status },
    role,
  };
}

/** The classroom, for its educator only (a learner with access gets a 403: they can see it, not change it). */
export async function taughtClassroom(conn: Conn, courseId: string, sessionId: string, viewer: Viewer): Promise<Classroom> {
  const c = await classroomFor(conn, courseId, sessionId, viewer);
  if (c.role !== 'educator') throw AppError.forbidden('Only the educator of this course can do this');
  return c;
}

async function isRemoved(conn: Conn, sessionId: string, userId: string): Promise<boolean> {
  const [row] = await conn
    .select({ userId: classroomRemoval.userId })
    .from(classroomRemoval)
    .where(and(eq(classroomRemoval.sessionId, sessionId), eq(classroomRemoval.userId, userId)))
    .limit(1);
  return !!row;
}

/** Every member who may read the classroom now: the educator and the active learners not removed. */
export async function memberIdsOf(conn: Conn, c: Pick<Classroom, 'sessionId' | 'educatorId'>): Promise<string[]> {
  const [learners, removed] = await Promise.all([
    learnerIdsOfSession(conn, c.sessionId, ['active']),
    conn.select({ userId: classroomRemoval.userId }).from(classroomRemoval).where(eq(classroomRemoval.sessionId, c.sessionId)),
  ]);
  const out = new Set(learners);
  for (const r of removed) out.delete(r.userId);
  out.add(c.educatorId);
  return [...out];
}
