import { and, asc, eq, gte, inArray } from 'drizzle-orm';
import type { Conn } from '../db/transaction.js';
import { classTime, course, courseSession, enrolment } from '../db/schema/courses.js';

/**
 * A learner's class times in the sessions where their enrolment has one of `statuses`,
 * those ending after `endsAfter`, soonest first: the dashboard's week ahead and the
 * calendar (the .ics download and the private feed).
 */
export function learnerClassTimes(
  db: Conn,
  learnerId: string,
  { statuses, endsAfter, limit }: { statuses: string[]; endsAfter: Date; limit: number },
) {
  return db
    .select({
      id: classTime.id,
      startsAt: classTime.startsAt,
      endsAt: classTime.endsAt,
      location: classTime.location,
      meetingUrl: classTime.meetingUrl,
      courseId: course.id,
      sessionId: courseSession.id,
      courseTitle: course.title,
      timeZone: courseSession.timeZone,
    })
    .from(enrolment)
    .innerJoin(classTime, eq(classTime.sessionId, enrolment.sessionId))
    .innerJoin(courseSession, eq(courseSession.id, enrolment.sessionId))
    .innerJoin(course, eq(course.id, enrolment.courseId))
    .where(and(eq(enrolment.learnerId, learnerId), inArray(enrolment.status, statuses), gte(classTime.endsAt, endsAfter)))
    .orderBy(asc(classTime.startsAt))
    .limit(limit);
}
