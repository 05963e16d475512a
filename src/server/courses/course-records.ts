import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { person } from '../accounts/people.js';
import { classTime, course, courseSession, enrolment } from '../db/schema/courses.js';
import type { Conn } from '../db/transaction.js';
import type { CourseRow } from './provider-product.js';

/**
 * What courses publish of their records for the other domains' reads (ADR 0035): payments'
 * checkout, receipts, refunds and history, notifications' recipients. Each reader is the
 * statement the caller wrote before on courses' tables (one statement each, as before);
 * `courseTitle` is a subquery to join like a table in the caller's own statement.
 */

/** Course titles as a Drizzle subquery: `.leftJoin(courseTitle, eq(courseTitle.id, x.courseId))`. Inlined by PostgreSQL. */
export const courseTitle = new QueryBuilder().select({ id: course.id, title: course.title }).from(course).as('course_title');

/** The course's whole row (the checkout, its provider product); null for no such course. */
export async function courseRowOf(conn: Conn, courseId: string): Promise<CourseRow | null> {
  const [c] = await conn.select().from(course).where(eq(course.id, courseId)).limit(1);
  return c ?? null;
}

/** What a message about a course names: its title, educator and refund policy; null for no such course. */
export async function courseBriefOf(
  conn: Conn,
  courseId: string,
): Promise<{ id: string; title: string; educatorId: string; refundPolicy: string } | null> {
  const [c] = await conn
    .select({ id: course.id, title: course.title, educatorId: course.educatorId, refundPolicy: course.refundPolicy })
    .from(course)
    .where(eq(course.id, courseId))
    .limit(1);
  return c ?? null;
}

/** The checkout page's course: its row and the educator's first and last name; null for no such course. */
export async function courseWithEducatorOf(conn: Conn, courseId: string) {
  const [row] = await conn
    .select({ c: course, firstName: person.firstName, lastName: person.lastName })
    .from(course)
    .innerJoin(person, eq(person.id, course.educatorId))
    .where(eq(course.id, courseId))
    .limit(1);
  return row ?? null;
}

/** The course's sessions still to come or running (scheduled, ending today or later), first first. */
export async function openSessionsOf(conn: Conn, courseId: string) {
  return conn
    .select()
    .from(courseSession)
    .where(and(eq(courseSession.courseId, courseId), eq(courseSession.status, 'scheduled'), sql`${courseSession.endsOn} >= current_date`))
    .orderBy(asc(courseSession.startsOn));
}

/** When the session's first class starts (null: no class times yet). */
export async function firstClassStartOf(conn: Conn, sessionId: string): Promise<Date | null> {
  const [first] = await conn
    .select({ at: classTime.startsAt })
    .from(classTime)
    .where(eq(classTime.sessionId, sessionId))
    .orderBy(asc(classTime.startsAt))
    .limit(1);
  return first?.at ?? null;
}

/** The course session's first class time (or its start date at midnight UTC when it has none yet); null for none. */
export async function firstClassOf(conn: Conn, courseSessionId: string | null): Promise<Date | null> {
  if (!courseSessionId) return null;
  const [t] = await conn
    .select({ at: sql<Date | string | null>`min(${classTime.startsAt})` })
    .from(classTime)
    .where(eq(classTime.sessionId, courseSessionId));
  if (t?.at) return new Date(t.at);
  const [s] = await conn
    .select({ startsOn: courseSession.startsOn })
    .from(courseSession)
    .where(eq(courseSession.id, courseSessionId))
    .limit(1);
  return s ? new Date(`${s.startsOn}T00:00:00Z`) : null;
}

/** A session's dates; null for no such session. */
export async function sessionDatesOf(conn: Conn, sessionId: string): Promise<{ id: string; startsOn: string; endsOn: string } | null> {
  const [s] = await conn
    .select({ id: courseSession.id, startsOn: courseSession.startsOn, endsOn: courseSession.endsOn })
    .from(courseSession)
    .where(eq(courseSession.id, sessionId))
    .limit(1);
  return s ?? null;
}

/** An enrolment's status; null for no such enrolment. */
export async function enrolmentStatusOf(conn: Conn, enrolmentId: string): Promise<{ id: string; status: string } | null> {
  const [e] = await conn
    .select({ id: enrolment.id, status: enrolment.status })
    .from(enrolment)
    .where(eq(enrolment.id, enrolmentId))
    .limit(1);
  return e ?? null;
}

/**
 * The learner's enrolment in a session that a drop would end (active, past due, waitlisted or
 * awaiting payment), with the course's refund policy and currency; null for none.
 */
export async function droppableEnrolmentOf(
  conn: Conn,
  q: { courseId: string; sessionId: string; learnerId: string; learnerProfileId?: string | null },
) {
  const [row] = await conn
    .select({ id: enrolment.id, status: enrolment.status, policy: course.refundPolicy, currency: course.currency })
    .from(enrolment)
    .innerJoin(course, eq(course.id, enrolment.courseId))
    .where(
      and(
        eq(enrolment.courseId, q.courseId),
        eq(enrolment.sessionId, q.sessionId),
        eq(enrolment.learnerId, q.learnerId),
        q.learnerProfileId ? eq(enrolment.learnerProfileId, q.learnerProfileId) : isNull(enrolment.learnerProfileId),
        inArray(enrolment.status, ['active', 'past_due', 'waitlisted', 'pending_payment']),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** The learners (accounts, once each however many of their learners hold seats) of a session whose enrolment is in one of `statuses`. */
export async function learnerIdsOfSession(conn: Conn, sessionId: string, statuses: string[]): Promise<string[]> {
  const rows = await conn
    .selectDistinct({ id: enrolment.learnerId })
    .from(enrolment)
    .where(and(eq(enrolment.sessionId, sessionId), inArray(enrolment.status, statuses)));
  return rows.map((r) => r.id);
}

/** An educator's paid courses (not archived) with their sessions still to come: what a promo code can be for (ADR 0070). */
export async function paidCoursesWithSessionsOf(conn: Conn, educatorId: string) {
  const rows = await conn
    .select({
      id: course.id,
      title: course.title,
      priceCents: course.priceCents,
      currency: course.currency,
      sessionId: courseSession.id,
      startsOn: courseSession.startsOn,
      endsOn: courseSession.endsOn,
    })
    .from(course)
    .leftJoin(
      courseSession,
      and(eq(courseSession.courseId, course.id), eq(courseSession.status, 'scheduled'), sql`${courseSession.endsOn} >= current_date`),
    )
    .where(and(eq(course.educatorId, educatorId), sql`${course.priceCents} > 0`, sql`${course.status} <> 'archived'`))
    .orderBy(asc(course.title), asc(courseSession.startsOn))
    .limit(2000);
  const courses = new Map<
    string,
    { id: string; title: string; priceCents: number; currency: string; sessions: { id: string; startsOn: string; endsOn: string }[] }
  >();
  for (const r of rows) {
    const c = courses.get(r.id) ?? { id: r.id, title: r.title, priceCents: r.priceCents, currency: r.currency, sessions: [] };
    if (r.sessionId) c.sessions.push({ id: r.sessionId, startsOn: r.startsOn!, endsOn: r.endsOn! });
    courses.set(r.id, c);
  }
  return [...courses.values()];
}

/** One enrolment of a learner with what it is an enrolment in: the course (title, cover, category) and the session's dates. */
export interface LearnerEnrolmentRecord {
  id: string;
  status: string;
  courseId: string;
  courseTitle: string;
  coverImage: string | null;
  category: string;
  sessionId: string;
  sessionStartsOn: string;
  sessionEndsOn: string;
  createdAt: Date;
}

/**
 * A learner's enrolments with their courses and sessions, in one statement: those of
 * `statuses` (all when omitted), newest enrolment first (`order: 'enrolled'`, the admin
 * console's user detail) or latest session first (`'starts'`, the dashboard), at most `limit`.
 */
export async function learnerEnrolments(
  conn: Conn,
  learnerId: string,
  opts: { statuses?: string[]; order: 'enrolled' | 'starts'; limit: number },
): Promise<LearnerEnrolmentRecord[]> {
  return conn
    .select({
      id: enrolment.id,
      status: enrolment.status,
      courseId: enrolment.courseId,
      courseTitle: course.title,
      coverImage: course.coverImage,
      category: course.category,
      sessionId: enrolment.sessionId,
      sessionStartsOn: courseSession.startsOn,
      sessionEndsOn: courseSession.endsOn,
      createdAt: enrolment.createdAt,
    })
    .from(enrolment)
    .innerJoin(course, eq(course.id, enrolment.courseId))
    .innerJoin(courseSession, eq(courseSession.id, enrolment.sessionId))
    .where(and(eq(enrolment.learnerId, learnerId), opts.statuses ? inArray(enrolment.status, opts.statuses) : undefined))
    .orderBy(...(opts.order === 'enrolled' ? [desc(enrolment.createdAt), enrolment.id] : [desc(courseSession.startsOn)]))
    .limit(opts.limit);
}

/** Course titles by id (for records that name a course, like a user's purchases); unknown ids are left out. */
export async function courseTitlesOf(conn: Conn, ids: Iterable<string>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await conn.select({ id: course.id, title: course.title }).from(course).where(inArray(course.id, wanted));
  return new Map(rows.map((r) => [r.id, r.title]));
}

/**
 * A course session with its course (one statement, by the session's key): what class reminders
 * and calendar invitations, attendance and certificates, and the classroom read of it; each
 * caller keeps the columns it needs. `courseId`: null unless the session is that course's.
 * `enrolmentOf`: that user's enrolment status there (null: none, or only dropped ones), in the
 * same statement (the classroom reads it on every request).
 */
export async function sessionWithCourse(conn: Conn, sessionId: string, q: { courseId?: string; enrolmentOf?: string } = {}) {
  const [row] = await conn
    .select({
      sessionId: courseSession.id,
      startsOn: courseSession.startsOn,
      endsOn: courseSession.endsOn,
      timeZone: courseSession.timeZone,
      status: courseSession.status,
      courseId: course.id,
      courseTitle: course.title,
      courseStatus: course.status,
      educatorId: course.educatorId,
      educatorName: course.educatorName,
      format: course.format,
      address: course.address,
      city: course.city,
      enrolmentStatus:
        q.enrolmentOf === undefined
          ? sql<string | null>`null::text`
          : sql<string | null>`(select ${enrolment.status} from ${enrolment}
        where ${enrolment.sessionId} = ${courseSession.id} and ${enrolment.learnerId} = ${q.enrolmentOf} and ${enrolment.status} <> 'dropped'
        limit 1)`,
    })
    .from(courseSession)
    .innerJoin(course, eq(course.id, courseSession.courseId))
    .where(and(eq(courseSession.id, sessionId), q.courseId === undefined ? undefined : eq(courseSession.courseId, q.courseId)))
    .limit(1);
  return row ?? null;
}

/**
 * A course session as its classroom sees it (classroom/access.ts, on every request): the
 * course's title and educator, the session, and `userId`'s enrolment status there (null: none,
 * or only dropped ones). Null when the session is not one of that course.
 */
export async function classroomSessionOf(conn: Conn, q: { courseId: string; sessionId: string; userId: string }) {
  const s = await sessionWithCourse(conn, q.sessionId, { courseId: q.courseId, enrolmentOf: q.userId });
  if (!s) return null;
  const { courseTitle, educatorId, educatorName, startsOn, endsOn, timeZone, status, enrolmentStatus } = s;
  return { courseTitle, educatorId, educatorName, startsOn, endsOn, timeZone, status, enrolmentStatus };
}

/** The session's next class time not yet over (its join link and place); null for none. */
export async function nextClassOf(conn: Conn, sessionId: string) {
  const [t] = await conn
    .select({ startsAt: classTime.startsAt, endsAt: classTime.endsAt, location: classTime.location, meetingUrl: classTime.meetingUrl })
    .from(classTime)
    .where(and(eq(classTime.sessionId, sessionId), sql`${classTime.endsAt} > now()`))
    .orderBy(asc(classTime.startsAt))
    .limit(1);
  return t ?? null;
}

/**
 * The classroom page's part of courses, as a fragment for the classroom's own statement (one
 * round trip, ADR 0035: written here, used there): for session `sessionId` of course
 * `courseId`, one row (none when the session is not that course's) with the course's title,
 * educator and educator's name, the session's dates, zone and status, `userId`'s enrolment
 * status there (null: none but dropped ones) and the next class time not yet over.
 */
export function classroomSessionSql(courseId: SQL, sessionId: SQL, userId: SQL): SQL {
  return sql`select c.id as course_id, c.title as course_title, c.educator_id, c.educator_name, s.id as session_id,
      s.starts_on::text as starts_on, s.ends_on::text as ends_on, s.time_zone, s.status,
      (select e.status from enrolment e where e.session_id = s.id and e.learner_id = ${userId} and e.status <> 'dropped' limit 1) as enrolment_status,
      n.starts_at as next_starts_at, n.ends_at as next_ends_at, n.location as next_location, n.meeting_url as next_meeting_url
    from course_session s join course c on c.id = s.course_id
    left join lateral (select t.starts_at, t.ends_at, t.location, t.meeting_url from class_time t
      where t.session_id = s.id and t.ends_at > now() order by t.starts_at limit 1) n on true
    where s.id = ${sessionId} and s.course_id = ${courseId}`;
}
