import { and, eq } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { enrolment } from '../db/schema/courses.js';
import { AppError } from '../http/errors.js';
import { endOffer, lockCourseSession, OFFER_EXPIRY_JOB } from './seats.js';

/**
 * Offers of a paid session's freed seats (ADR 0067): made by fillFromWaitlist (seats.ts),
 * claimed by paying (payments' fulfilment asks enrolLearner, which turns the held seat into
 * the learner's), ended here: declined by the learner, or lapsed when the course's hold is
 * over (a keyed job stored with the offer, run once by whichever process takes it). Either
 * way the seat goes to the next in line, announced as `waitlist.promoted`.
 */
export function registerCourseJobs(app: AppServices) {
  app.jobs.register(OFFER_EXPIRY_JOB, async (payload) => {
    const { enrolmentId, sessionId } = payload as { enrolmentId: string; sessionId: string };
    await endOfferAndMoveOn(app, { enrolmentId, sessionId }, 'lapsed');
  });
}

async function endOfferAndMoveOn(app: AppServices, o: { enrolmentId: string; sessionId: string }, why: 'lapsed' | 'declined') {
  const { value } = await app.courseEvents.transaction(app.database.db, async (tx, announce) => {
    await lockCourseSession(tx, o.sessionId);
    const ended = await endOffer(tx, o.enrolmentId, why);
    if (ended) {
      const offer = { courseId: ended.courseId, courseSessionId: ended.sessionId, learnerId: ended.learnerId };
      if (why === 'lapsed') await announce('waitlist.offer-lapsed', { ...offer, learnerProfileId: ended.learnerProfileId });
      await announce('waitlist.offer-ended', { ...offer, why });
    }
    if (ended?.moved.length)
      await announce('waitlist.promoted', { courseId: ended.courseId, courseSessionId: ended.sessionId, enrolmentIds: ended.moved });
    return ended;
  });
  return value;
}

/** POST .../offer/decline: the learner lets their offered seat go to the next in line. */
export async function declineOffer(app: AppServices, viewer: Viewer, input: { courseId: string; sessionId: string }) {
  const [mine] = await app.database.db
    .select({ id: enrolment.id })
    .from(enrolment)
    .where(
      and(
        eq(enrolment.sessionId, input.sessionId),
        eq(enrolment.courseId, input.courseId),
        eq(enrolment.learnerId, viewer.user.id),
        eq(enrolment.status, 'offered'),
      ),
    )
    .limit(1);
  if (!mine) throw AppError.notFound('You have no offer of a seat in this session');
  const ended = await endOfferAndMoveOn(app, { enrolmentId: mine.id, sessionId: input.sessionId }, 'declined');
  if (!ended) throw new AppError(409, 'offer_over', 'This offer is no longer open: it was claimed or has ended');
  return { message: 'You declined the seat: it goes to the next learner on the waitlist' };
}
