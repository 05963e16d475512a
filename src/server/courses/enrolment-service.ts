import { and, eq, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { PG, pgCode } from '../db/errors.js';
import { enrolment } from '../db/schema/courses.js';
import { AppError } from '../http/errors.js';
import { ownedLearnerProfiles } from '../accounts/learner-profiles.js';
import {
  assertNotEnrolled,
  checkEligible,
  checkLearners,
  isSeatOf,
  lockCourseSession,
  releaseEnrolment,
  takeSeatsFor,
  type LearnerChoice,
} from './seats.js';

/** How the API names the account holder among the learners chosen (`learnerIds`): "me". */
export const HOLDER = 'me';
export const toLearnerChoice = (id: string): LearnerChoice => (id === HOLDER ? null : id);

/**
 * A learner enrols in a free course session (a seat, or the waitlist when it is full); a
 * paid one with a free seat sends them to the checkout instead, and a full paid one puts
 * them on its waitlist without any payment (they pay when a seat is offered, ADR 0067).
 * Eligibility is checked once, under the course session's lock. Family accounts (ADR 0074):
 * `learnerIds` chooses whom ("me", the account holder, and/or the account's learner profiles),
 * one seat each, in one transaction; none given: the account holder, as before.
 */
export async function enrolInSession(
  app: AppServices,
  viewer: Viewer,
  input: { courseId: string; sessionId: string; learnerIds?: string[] },
) {
  const { courseId, sessionId } = input;
  const learners = (input.learnerIds?.length ? input.learnerIds : [HOLDER]).map(toLearnerChoice);
  try {
    const { value } = await app.courseEvents.transaction(app.database.db, async (tx, announce) => {
      await lockCourseSession(tx, sessionId);
      const row = await checkEligible(tx, sessionId, viewer.user.id);
      if (row.c.id !== courseId) throw AppError.notFound('This session does not exist');
      // Whom for: each profile the account's own (else 404), each within the course's ages (else 400).
      const seats = await checkLearners(tx, row, viewer.user.id, learners);
      for (const seat of seats) await assertNotEnrolled(tx, sessionId, seat, seat.name ?? undefined);
      if (row.c.priceCents > 0 && row.s.seatsTaken < row.s.capacity) {
        const who = learners.some((l) => l !== null) ? `&learners=${learners.map((l) => l ?? HOLDER).join(',')}` : '';
        return { paid: true as const, checkout: `/course/checkout?course=${courseId}&session=${sessionId}${who}` };
      }
      const taken = { course: row.c, enrolments: await takeSeatsFor(tx, row, seats) };
      for (const e of taken.enrolments)
        await announce('enrolment.created', {
          enrolmentId: e.id,
          courseId,
          courseSessionId: sessionId,
          learnerId: viewer.user.id,
          learnerProfileId: e.learnerProfileId,
          status: e.status === 'waitlisted' ? 'waitlisted' : 'active',
        });
      return { paid: false as const, course: taken.course, enrolments: taken.enrolments };
    });
    return value;
  } catch (err) {
    if (pgCode(err) === PG.uniqueViolation) throw new AppError(409, 'already_enrolled', 'You are already enrolled in this session');
    throw err;
  }
}

/**
 * Drops one learner's enrolment (the account holder's own, or one of its learner profiles'
 * with `learnerId`); a freed seat goes to the first learner on the waitlist, in the same
 * transaction; the account's other learners keep theirs. Announces the drop (listeners may
 * add to what the learner is told) and the promotions.
 */
export async function dropEnrolment(
  app: AppServices,
  viewer: Viewer,
  input: { courseId: string; sessionId: string; learnerId?: string | null },
) {
  const { courseId, sessionId } = input;
  const seat = { accountId: viewer.user.id, learnerProfileId: toLearnerChoice(input.learnerId ?? HOLDER) };
  const done = await app.courseEvents.transaction(app.database.db, async (tx, announce) => {
    // The course session row first, as enrolLearner does: one lock order, no deadlocks.
    await lockCourseSession(tx, sessionId);
    const [mine] = await tx
      .select()
      .from(enrolment)
      .where(
        and(eq(enrolment.sessionId, sessionId), isSeatOf(seat), eq(enrolment.courseId, courseId), sql`${enrolment.status} <> 'dropped'`),
      )
      .for('update')
      .limit(1);
    // Named only when the learner is this account's own: another account's learner is unknown (no name leaks).
    const name = seat.learnerProfileId
      ? (await ownedLearnerProfiles(tx, viewer.user.id, [seat.learnerProfileId]))?.[0]?.firstName
      : undefined;
    if (!mine) throw AppError.notFound(name ? `${name} is not enrolled in this session` : 'You are not enrolled in this session');
    if (mine.status === 'completed') throw AppError.badRequest('This session is already completed');
    const promoted = await releaseEnrolment(tx, mine);
    const { id, email, firstName } = viewer.user;
    await announce('enrolment.dropped', {
      enrolmentId: mine.id,
      courseId,
      courseSessionId: sessionId,
      learner: { id, email, firstName },
      learnerProfileId: mine.learnerProfileId,
      seated: mine.status === 'active' || mine.status === 'past_due',
    });
    if (promoted.length) await announce('waitlist.promoted', { courseId, courseSessionId: sessionId, enrolmentIds: promoted });
    return name;
  });
  const [told] = done.replies('enrolment.dropped');
  return told ?? { message: done.value ? `${done.value} has left this session` : 'You have left this session', refund: null };
}
