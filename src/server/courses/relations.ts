import { sql, type SQL } from 'drizzle-orm';

/**
 * What courses publish of their tables for the other domains' SQL (ADR 0035): relations to
 * name in a FROM with an alias. Plain subqueries, so PostgreSQL inlines them (the plan is that
 * of the statement written on the tables).
 */

/** Courses: id, educator, title, status. */
export const allCourses = sql`(select id, educator_id, title, status from course)`;

/** Course sessions: id, course, first day, seats, capacity, status. */
export const allCourseSessions = sql`(select id, course_id, starts_on, seats_taken, capacity, status from course_session)`;

/** How many wait for a seat in the session `sessionId` (an SQL expression). */
export const waitlistedIn = (sessionId: SQL) =>
  sql`(select count(*)::int from enrolment w where w.session_id = ${sessionId} and w.status = 'waitlisted')`;

/**
 * Every enrolment (or review) of every course, each course's rows read through its own index:
 * a lateral join per course (OFFSET 0 keeps the planner from flattening it), so one
 * educator's share is read without a hash join over the whole table. `mc` is the course
 * (filter on mc.educator_id), `alias` its rows (all the table's columns).
 */
export function rowsPerCourse(table: 'enrolment' | 'review', alias: string): SQL {
  return sql`course mc cross join lateral (select * from ${sql.raw(table)} where course_id = mc.id offset 0) ${sql.raw(alias)}`;
}

/** Whether any course of the educator (or the course `courseId` only) ever had an enrolment: an SQL boolean. */
export function everEnrolled(educatorId: string, courseId: string | null): SQL {
  const onCourse = courseId ? sql`and c.id = ${courseId}::uuid` : sql``;
  return sql`exists (select 1 from course c cross join lateral (select 1 from enrolment e where e.course_id = c.id limit 1) e
                       where c.educator_id = ${educatorId} ${onCourse})`;
}
