import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { classTime, course, courseSession, enrolment, review } from '../db/schema/courses.js';
import { AppError } from '../http/errors.js';
import type { Viewer } from '../accounts/viewer.js';
import { refreshCourseRating } from './stats.js';

/** One review per learner per course, by learners who took (or are taking) it. */
export async function upsertReview(app: AppServices, viewer: Viewer, courseId: string, input: { rating: number; text: string }) {
  const { value } = await app.courseEvents.transaction(app.database.db, async (tx, announce) => {
    const [c] = await tx
      .select({ educatorId: course.educatorId, status: course.status })
      .from(course)
      .where(eq(course.id, courseId))
      .limit(1);
    if (!c || c.status === 'draft') throw AppError.notFound('This course does not exist');
    if (c.educatorId === viewer.user.id) throw AppError.forbidden('You cannot review your own course');
    const mine = await tx
      .select({
        // The first class took place: it began (or the session is over, or the enrolment completed).
        started: sql<boolean>`${enrolment.status} = 'completed' or ${courseSession.endsOn} < (now() at time zone 'UTC')::date
          or exists (select 1 from ${classTime} where ${classTime.sessionId} = ${enrolment.sessionId} and ${classTime.startsAt} <= now())`,
        opensAt: sql<Date | null>`(select min(${classTime.startsAt}) from ${classTime} where ${classTime.sessionId} = ${enrolment.sessionId})`,
      })
      .from(enrolment)
      .innerJoin(courseSession, eq(courseSession.id, enrolment.sessionId))
      .where(
        and(
          eq(enrolment.courseId, courseId),
          eq(enrolment.learnerId, viewer.user.id),
          inArray(enrolment.status, ['active', 'past_due', 'completed']),
        ),
      );
    if (mine.length === 0) throw AppError.forbidden('Only learners enrolled in this course can review it');
    if (!mine.some((m) => m.started)) {
      const opens = mine.map((m) => (m.opensAt ? new Date(m.opensAt) : null)).filter((d): d is Date => !!d);
      const first = opens.length ? new Date(Math.min(...opens.map(Number))) : null;
      const when = first
        ? ` (from ${first.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC)`
        : '';
      throw new AppError(409, 'review_too_early', `You can review this course once your first class has taken place${when}`);
    }
    const [row] = await tx
      .insert(review)
      .values({ courseId, learnerId: viewer.user.id, rating: input.rating, text: input.text })
      .onConflictDoUpdate({
        target: [review.courseId, review.learnerId],
        set: { rating: input.rating, text: input.text, updatedAt: new Date() },
      })
      .returning({ id: review.id, created: sql<boolean>`xmax = 0` });
    await refreshCourseRating(tx, courseId);
    await announce('review.posted', { reviewId: row.id, courseId, learnerId: viewer.user.id, rating: input.rating, created: row.created });
    return row.id;
  });
  return value;
}
