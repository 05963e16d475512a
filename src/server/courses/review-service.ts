import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { course, enrolment, review } from '../db/schema/courses.js';
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
    const [{ n }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(enrolment)
      .where(
        and(
          eq(enrolment.courseId, courseId),
          eq(enrolment.learnerId, viewer.user.id),
          inArray(enrolment.status, ['active', 'past_due', 'completed']),
        ),
      );
    if (n === 0) throw AppError.forbidden('Only learners enrolled in this course can review it');
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
