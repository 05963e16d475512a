import { and, eq, inArray } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { person, personFullName } from '../accounts/people.js';
import type { Viewer } from '../accounts/viewer.js';
import { seatLearnersIn } from '../courses/class-reminders.js';
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

/**
 * The session's members with an active seat, by name, with their access (the educator's list):
 * one per account (access is the account's, ADR 0074), named with the learners its seats are
 * for when they are its learner profiles' ("Ana Ruiz (for Mia, Leo)"; "Ana Ruiz (and Mia)" when
 * the holder sits in one too).
 */
export async function membersOf(conn: Conn, sessionId: string) {
  const seats = await seatLearnersIn(conn, sessionId, { statuses: ['active'] });
  const ids = [...seats.keys()];
  if (!ids.length) return [];
  const [people, removed] = await Promise.all([
    conn.select({ id: person.id, name: personFullName }).from(person).where(inArray(person.id, ids)),
    conn.select({ userId: classroomRemoval.userId }).from(classroomRemoval).where(eq(classroomRemoval.sessionId, sessionId)),
  ]);
  const out = new Set(removed.map((r) => r.userId));
  const named = (id: string, name: string) => {
    const seat = seats.get(id);
    if (!seat?.names.length) return name;
    return `${name} (${seat.self ? 'and' : 'for'} ${seat.names.join(', ')})`;
  };
  return people
    .map((p) => ({
      id: p.id,
      name: named(p.id, p.name),
      learners: seats.get(p.id)?.names ?? [],
      access: out.has(p.id) ? ('removed' as const) : ('active' as const),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
