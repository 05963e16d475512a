import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Conn } from '../db/transaction.js';
import { learnerProfiles } from '../accounts/learner-profiles.js';
import { classTime, course, courseSession, enrolment } from '../db/schema/courses.js';

/**
 * A learner's class times in the sessions where their enrolment has one of `statuses`,
 * those ending after `endsAfter`, soonest first: the dashboard's week ahead and the
 * calendar (the .ics download and the private feed). Family accounts (ADR 0074): a class time
 * comes once however many of the account's learners hold seats in its session, saying whom
 * for (`forLearners`: the learner profiles' first names; `forYou`: the holder has a seat too).
 */
export async function learnerClassTimes(
  db: Conn,
  learnerId: string,
  { statuses, endsAfter, limit }: { statuses: string[]; endsAfter: Date; limit: number },
) {
  const rows = await db
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
      profileName: sql<string | null>`lp.first_name`,
    })
    .from(enrolment)
    .innerJoin(classTime, eq(classTime.sessionId, enrolment.sessionId))
    .innerJoin(courseSession, eq(courseSession.id, enrolment.sessionId))
    .innerJoin(course, eq(course.id, enrolment.courseId))
    .leftJoin(sql`${learnerProfiles} lp`, sql`lp.id = ${enrolment.learnerProfileId}`)
    .where(and(eq(enrolment.learnerId, learnerId), inArray(enrolment.status, statuses), gte(classTime.endsAt, endsAfter)))
    .orderBy(asc(classTime.startsAt), asc(classTime.id), asc(enrolment.createdAt))
    .limit(limit);
  const byId = new Map<string, Omit<(typeof rows)[number], 'profileName'> & { forLearners: string[]; forYou: boolean }>();
  for (const { profileName, ...r } of rows) {
    const one = byId.get(r.id) ?? { ...r, forLearners: [], forYou: false };
    if (profileName === null) one.forYou = true;
    else one.forLearners.push(profileName);
    byId.set(r.id, one);
  }
  return [...byId.values()];
}

/** Whom a class is for, as the dashboard and calendar say it: "" (the holder alone), "Mia", "you and Mia", "Mia and Leo". */
export function forWhom(r: { forLearners: string[]; forYou: boolean }): string {
  if (!r.forLearners.length) return '';
  const names = [...(r.forYou ? ['you'] : []), ...r.forLearners];
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
