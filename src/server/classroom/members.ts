import { and, eq, inArray } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { person, personFullName } from '../accounts/people.js';
import type { Viewer } from '../accounts/viewer.js';
import { learnerIdsOfSession } from '../courses/course-records.js';
import { classroomRemoval } from '../db/schema/classroom.js';
import type { Conn } from '../db/transaction.js';
import { AppError } from '../http/errors.js';
import { taughtClassroom } from './access.js';
import { publishChanged } from './live.js';

/**
 * The educator removes an enrolled learner's access to the classroom, or gives it back. The
 * learner stays enrolled (the roster is courses'); their next request to the classroom is refused.
 */
export async function setAccess(
  app: AppServices,
  viewer: Viewer,
  courseId: string,
  sessionId: string,
  userId: string,
  access: 'removed' | 'restored',
): Promise<string> {
  const db = app.database.db;
  const c = await taughtClassroom(db, courseId, sessionId, viewer);
  const learners = await learnerIdsOfSession(db, sessionId, ['active']);
  if (!learners.includes(userId)) throw AppError.notFound('This learner is not enrolled in this session');
  if (access === 'removed') await db.insert(classroomRemoval).values({ sessionId, userId }).onConflictDoNothing();
  else await db.delete(classroomRemoval).where(and(eq(classroomRemoval.sessionId, sessionId), eq(classroomRemoval.userId, userId)));
  // The learner's open tab re-reads (and finds the classroom gone, or back); the educator's roster too.
  await publishChanged(app, [c.educatorId, userId], { sessionId, postId: '', what: 'access' });
  return access === 'removed' ? 'The learner no longer has access to this classroom' : 'The learner has access to this classroom again';
}

/** The session's active learners, by name, with their access (the educator's list). */
export async function membersOf(conn: Conn, sessionId: string) {
  const ids = await learnerIdsOfSession(conn, sessionId, ['active']);
  if (!ids.length) return [];
  const [people, removed] = await Promise.all([
    conn.select({ id: person.id, name: personFullName }).from(person).where(inArray(person.id, ids)),
    conn.select({ userId: classroomRemoval.userId }).from(classroomRemoval).where(eq(classroomRemoval.sessionId, sessionId)),
  ]);
  const out = new Set(removed.map((r) => r.userId));
  return people
    .map((p) => ({ id: p.id, name: p.name, access: out.has(p.id) ? ('removed' as const) : ('active' as const) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
