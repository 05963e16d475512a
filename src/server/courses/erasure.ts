import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { calendarFeed, course, courseSession, enrolment } from '../db/schema/courses.js';
import type { Conn, Tx } from '../db/transaction.js';
import { lockCourseSession, releaseEnrolment } from './seats.js';

/**
 * A deleted account's part of courses, in the erasing transaction
 * (docs/decisions/0024-erasure-reaches-every-domain.md): its calendar feed (a secret link to
 * its schedule) goes, and its places in sessions not yet over are dropped as the learner would
 * drop them, so a seat or a waitlist place of an account that no longer exists goes to the
 * next learner (enrolment.dropped: payments plans the refund the course's policy gives;
 * waitlist.promoted: the promoted are told). Past enrolments and reviews stay (the educator's
 * history; a review is signed "Deleted user").
 */
export async function eraseFromCourses(app: AppServices, tx: Tx, { userId, email }: { userId: string; email: string }) {
  await tx.delete(calendarFeed).where(eq(calendarFeed.userId, userId));
  const { afterCommit } = await app.courseEvents.joinTransaction(tx, async (announce) => {
    const open = await tx
      .select({ id: enrolment.id, sessionId: enrolment.sessionId })
      .from(enrolment)
      .innerJoin(courseSession, eq(courseSession.id, enrolment.sessionId))
      .where(
        and(
          eq(enrolment.learnerId, userId),
          inArray(enrolment.status, ['active', 'waitlisted', 'pending_payment', 'past_due']),
          gte(courseSession.endsOn, sql`current_date`),
        ),
      )
      .orderBy(asc(enrolment.sessionId));
    for (const { id, sessionId } of open) {
      await lockCourseSession(tx, sessionId);
      const [mine] = await tx.select().from(enrolment).where(eq(enrolment.id, id)).for('update').limit(1);
      if (!mine || mine.status === 'dropped' || mine.status === 'completed') continue;
      const promoted = await releaseEnrolment(tx, mine);
      await announce('enrolment.dropped', {
        enrolmentId: mine.id,
        courseId: mine.courseId,
        courseSessionId: sessionId,
        learner: { id: userId, email, firstName: 'Deleted' },
      });
      if (promoted.length)
        await announce('waitlist.promoted', { courseId: mine.courseId, courseSessionId: sessionId, enrolmentIds: promoted });
    }
  });
  return afterCommit;
}

/**
 * An erased educator's courses leave the catalogue (enrolment and payment records keep
 * them): what admin's erasure asks of courses, in its transaction (ADR 0035).
 */
export async function archivePublishedCoursesOf(conn: Conn, educatorId: string) {
  await conn
    .update(course)
    .set({ status: 'archived', updatedAt: new Date() })
    .where(and(eq(course.educatorId, educatorId), eq(course.status, 'published')));
}
