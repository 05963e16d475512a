import { and, eq, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { PG, pgCode } from '../db/errors.js';
import { enrolment } from '../db/schema/courses.js';
import { AppError } from '../http/errors.js';
import { assertNotEnrolled, checkEligible, lockCourseSession, releaseEnrolment, takeSeat } from './seats.js';

/**
 * A learner enrols in a free course session (a seat, or the waitlist when it is full); a
 * paid one with a free seat sends them to the checkout instead, and a full paid one puts
 * them on its waitlist without any payment (they pay when a seat is offered, ADR 0067).
 * Eligibility is checked once, under the course session's lock.
 */
export async function enrolInSession(app: AppServices, viewer: Viewer, input: { courseId: string; sessionId: string }) {
  const { courseId, sessionId } = input;
  try {
    const { value } = await app.courseEvents.transaction(app.database.db, async (tx, announce) => {
      await lockCourseSession(tx, sessionId);
      const row = await checkEligible(tx, sessionId, viewer.user.id);
      if (row.c.id !== courseId) throw AppError.notFound('This session does not exist');
      await assertNotEnrolled(tx, sessionId, viewer.user.id);
      if (row.c.priceCents > 0 && row.s.seatsTaken < row.s.capacity) {
        return { paid: true as const, checkout: `/course/checkout?course=${courseId}&session=${sessionId}` };
      }
      const taken = await takeSeat(tx, row, { sessionId, learnerId: viewer.user.id });
      await announce('enrolment.created', {
        enrolmentId: taken.id,
        courseId,
        courseSessionId: sessionId,
        learnerId: viewer.user.id,
        status: taken.status === 'waitlisted' ? 'waitlisted' : 'active',
      });
      return { paid: false as const, enrolment: taken };
    });
    return value;
  } catch (err) {
    if (pgCode(err) === PG.uniqueViolation) throw new AppError(409, 'already_enrolled', 'You are already enrolled in this session');
    throw err;
  }
}

/**
 * Drops the learner's enrolment; a freed seat goes to the first learner on the waitlist,
 * in the same transaction. Announces the drop (listeners may add to what the learner is
 * told) and the promotions.
 */
export async function dropEnrolment(app: AppServices, viewer: Viewer, input: { courseId: string; sessionId: string }) {
  const { courseId, sessionId } = input;
  const done = await app.courseEvents.transaction(app.database.db, async (tx, announce) => {
    // The course session row first, as enrolLearner does: one lock order, no deadlocks.
    await lockCourseSession(tx, sessionId);
    const [mine] = await tx
      .select()
      .from(enrolment)
      .where(
        and(
          eq(enrolment.sessionId, sessionId),
          eq(enrolment.learnerId, viewer.user.id),
          eq(enrolment.courseId, courseId),
          sql`${enrolment.status} <> 'dropped'`,
        ),
      )
      .for('update')
      .limit(1);
    if (!mine) throw AppError.notFound('You are not enrolled in this session');
    if (mine.status === 'completed') throw AppError.badRequest('This session is already completed');
    const promoted = await releaseEnrolment(tx, mine);
    const { id, email, firstName } = viewer.user;
    await announce('enrolment.dropped', {
      enrolmentId: mine.id,
      courseId,
      courseSessionId: sessionId,
      learner: { id, email, firstName },
      seated: mine.status === 'active' || mine.status === 'past_due',
    });
    if (promoted.length) await announce('waitlist.promoted', { courseId, courseSessionId: sessionId, learnerIds: promoted });
  });
  const [told] = done.replies('enrolment.dropped');
  return told ?? { message: 'You have left this session', refund: null };
}
