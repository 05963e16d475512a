import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Viewer } from '../accounts/viewer.js';
import { person } from '../accounts/people.js';
import { classTime, course, courseSession, enrolment } from '../db/schema/courses.js';
import { rowsOf, type Conn } from '../db/transaction.js';
import { ownedCourseSession } from './access.js';
import { sessionWithCourse } from './course-records.js';

/**
 * What courses export for attendance and certificates (a domain above courses, ADR 0069):
 * a session with its class times and the learners enrolled in it. Enrolled: holding a seat
 * (active, past due, or completed); the waitlisted, the offered and the dropped are not.
 */
export const ENROLLED_STATUSES = ['active', 'past_due', 'completed'] as const;

export interface SessionClassTime {
  id: string;
  startsAt: Date;
  endsAt: Date;
}
export interface SessionLearner {
  id: string;
  name: string;
}
export interface SessionForAttendance {
  course: { id: string; title: string; educatorId: string; educatorName: string };
  session: { id: string; startsOn: string; endsOn: string; timeZone: string; status: string };
  classTimes: SessionClassTime[];
  learners: SessionLearner[];
}

async function classTimesOf(conn: Conn, sessionId: string): Promise<SessionClassTime[]> {
  return conn
    .select({ id: classTime.id, startsAt: classTime.startsAt, endsAt: classTime.endsAt })
    .from(classTime)
    .where(eq(classTime.sessionId, sessionId))
    .orderBy(asc(classTime.startsAt));
}

async function learnersOf(conn: Conn, sessionId: string): Promise<SessionLearner[]> {
  const rows = await conn
    .select({ id: enrolment.learnerId, firstName: person.firstName, lastName: person.lastName })
    .from(enrolment)
    .innerJoin(person, eq(person.id, enrolment.learnerId))
    .where(and(eq(enrolment.sessionId, sessionId), inArray(enrolment.status, [...ENROLLED_STATUSES])))
    .orderBy(asc(person.firstName), asc(person.lastName));
  return rows.map((r) => ({ id: r.id, name: `${r.firstName} ${r.lastName}`.trim() }));
}

/** A session, read whole (no permission check: the caller has made it). Null when it does not exist. */
export async function sessionForAttendance(conn: Conn, sessionId: string): Promise<SessionForAttendance | null> {
  const row = await sessionWithCourse(conn, sessionId);
  if (!row) return null;
  const [classTimes, learners] = [await classTimesOf(conn, sessionId), await learnersOf(conn, sessionId)];
  return {
    course: { id: row.courseId, title: row.courseTitle, educatorId: row.educatorId, educatorName: row.educatorName },
    session: { id: row.sessionId, startsOn: row.startsOn, endsOn: row.endsOn, timeZone: row.timeZone, status: row.status },
    classTimes,
    learners,
  };
}

/** A session of the viewer's own course (404 unknown, 403 another educator's), with its class times and learners. */
export async function taughtSession(conn: Conn, courseId: string, sessionId: string, viewer: Viewer): Promise<SessionForAttendance> {
  await ownedCourseSession(conn, courseId, sessionId, viewer);
  return (await sessionForAttendance(conn, sessionId))!;
}

/** The sessions the learner holds a seat in (the newest first), with their class times. */
export async function learnerSessions(conn: Conn, learnerId: string) {
  const rows = await conn
    .select({
      sessionId: courseSession.id,
      courseId: course.id,
      courseTitle: course.title,
      startsOn: courseSession.startsOn,
      endsOn: courseSession.endsOn,
    })
    .from(enrolment)
    .innerJoin(courseSession, eq(courseSession.id, enrolment.sessionId))
    .innerJoin(course, eq(course.id, enrolment.courseId))
    .where(and(eq(enrolment.learnerId, learnerId), inArray(enrolment.status, [...ENROLLED_STATUSES])))
    .orderBy(sql`${courseSession.startsOn} desc`);
  return Promise.all(rows.map(async (r) => ({ ...r, classTimes: await classTimesOf(conn, r.sessionId) })));
}

/** Sessions (not cancelled) whose last class time ended after `since` and before now: the ones due for certificates. */
export async function sessionsEndedSince(conn: Conn, since: Date): Promise<{ sessionId: string; courseId: string }[]> {
  return rowsOf<{ sessionId: string; courseId: string }>(
    conn,
    sql`select s.id as "sessionId", s.course_id as "courseId"
          from course_session s
          join lateral (select max(ends_at) as last_end from class_time t where t.session_id = s.id) l on true
         where s.status <> 'cancelled' and l.last_end > ${since.toISOString()}::timestamptz and l.last_end <= now()`,
  );
}
