import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { course, courseSession, enrolment, user } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import type { Mailer } from '../email/mailer.js';
import { waitlistPromotionEmail } from '../email/templates.js';
import type { Viewer } from '../accounts/session.js';
import type { Tx } from './access.js';
import { pgCode } from './session-service.js';
import { refreshCourseStats } from './stats.js';

export type EnrolmentStatus = 'active' | 'waitlisted' | 'dropped' | 'completed' | 'pending_payment';

const today = () => new Date().toISOString().slice(0, 10);

/** Why this learner may not enrol in this session, or null. */
async function checkEligible(tx: Tx, sessionId: string, learnerId: string) {
  const [row] = await tx
    .select({ s: courseSession, c: { id: course.id, status: course.status, educatorId: course.educatorId, priceCents: course.priceCents, title: course.title } })
    .from(courseSession).innerJoin(course, eq(course.id, courseSession.courseId))
    .where(eq(courseSession.id, sessionId)).limit(1);
  if (!row || row.c.status !== 'published') throw AppError.notFound('This session does not exist');
  if (row.c.educatorId === learnerId) throw new AppError(400, 'own_course', 'You cannot enrol in your own course');
  if (row.s.status === 'cancelled') throw new AppError(400, 'session_cancelled', 'This session has been cancelled');
  if (row.s.status === 'completed' || row.s.endsOn < today()) throw new AppError(400, 'session_past', 'This session has already ended');
  return row;
}

/**
 * The one enrolment function. Takes a seat if one is free (the conditional UPDATE is the
 * guard: concurrent calls queue on the session row and never over-book), otherwise puts
 * the learner on the waitlist. `seatOnly` (a confirmed payment) refuses instead of
 * waitlisting. Runs in the caller's transaction.
 */
export async function enrolLearner(tx: Tx, opts: { sessionId: string; learnerId: string; seatOnly?: boolean }) {
  const row = await checkEligible(tx, opts.sessionId, opts.learnerId);
  const taken = await tx.update(courseSession)
    .set({ seatsTaken: sql`${courseSession.seatsTaken} + 1` })
    .where(and(eq(courseSession.id, opts.sessionId), sql`${courseSession.seatsTaken} < ${courseSession.capacity}`, eq(courseSession.status, 'scheduled')))
    .returning({ id: courseSession.id });
  if (!taken.length && opts.seatOnly) throw new AppError(409, 'session_full', 'This session is full');
  const status: EnrolmentStatus = taken.length ? 'active' : 'waitlisted';
  const [created] = await tx.insert(enrolment).values({ sessionId: opts.sessionId, courseId: row.c.id, learnerId: opts.learnerId, status })
    .returning({ id: enrolment.id, status: enrolment.status, createdAt: enrolment.createdAt });
  await refreshCourseStats(tx, row.c.id);
  let waitlistPosition: number | null = null;
  if (status === 'waitlisted') {
    const [{ n }] = await tx.select({ n: sql<number>`count(*)::int` }).from(enrolment)
      .where(and(eq(enrolment.sessionId, opts.sessionId), eq(enrolment.status, 'waitlisted'), sql`${enrolment.createdAt} <= ${created.createdAt}`));
    waitlistPosition = n;
  }
  return { id: created.id, sessionId: opts.sessionId, status, waitlistPosition, course: row.c };
}

/** A learner enrols in a free session; a paid one sends them to the checkout instead. */
export async function enrolInSession(db: Db, viewer: Viewer, courseId: string, sessionId: string) {
  try {
    return await db.transaction(async (tx) => {
      const row = await checkEligible(tx, sessionId, viewer.user.id);
      if (row.c.id !== courseId) throw AppError.notFound('This session does not exist');
      const [existing] = await tx.select({ id: enrolment.id, status: enrolment.status }).from(enrolment)
        .where(and(eq(enrolment.sessionId, sessionId), eq(enrolment.learnerId, viewer.user.id), sql`${enrolment.status} <> 'dropped'`)).limit(1);
      if (existing) throw new AppError(409, 'already_enrolled', existing.status === 'waitlisted' ? 'You are already on the waitlist of this session' : 'You are already enrolled in this session');
      if (row.c.priceCents > 0) {
        return { paid: true as const, checkout: `/course/checkout?course=${courseId}&session=${sessionId}` };
      }
      return { paid: false as const, enrolment: await enrolLearner(tx, { sessionId, learnerId: viewer.user.id }) };
    });
  } catch (err) {
    if (pgCode(err) === '23505') throw new AppError(409, 'already_enrolled', 'You are already enrolled in this session');
    throw err;
  }
}

/**
 * Drops the learner's enrolment; a freed seat goes to the first learner on the waitlist,
 * in the same transaction, and they are told by email after it commits.
 */
export async function dropEnrolment(db: Db, mailer: Mailer, publicUrl: string, viewer: Viewer, courseId: string, sessionId: string) {
  const promoted = await db.transaction(async (tx) => {
    const [mine] = await tx.select().from(enrolment)
      .where(and(eq(enrolment.sessionId, sessionId), eq(enrolment.learnerId, viewer.user.id), eq(enrolment.courseId, courseId), sql`${enrolment.status} <> 'dropped'`))
      .for('update').limit(1);
    if (!mine) throw AppError.notFound('You are not enrolled in this session');
    if (mine.status === 'completed') throw AppError.badRequest('This session is already completed');
    await tx.update(enrolment).set({ status: 'dropped', droppedAt: new Date(), updatedAt: new Date() }).where(eq(enrolment.id, mine.id));
    let next: { learnerId: string } | null = null;
    if (mine.status === 'active' || mine.status === 'pending_payment') {
      await tx.update(courseSession).set({ seatsTaken: sql`${courseSession.seatsTaken} - 1` }).where(eq(courseSession.id, sessionId));
      next = await promoteFromWaitlist(tx, sessionId);
    }
    await refreshCourseStats(tx, courseId);
    return next;
  });
  if (promoted) await notifyPromotion(db, mailer, publicUrl, promoted.learnerId, courseId);
  return { promoted: !!promoted };
}

/** Gives a free seat to the longest-waiting learner, if any. */
async function promoteFromWaitlist(tx: Tx, sessionId: string) {
  const [first] = await tx.select({ id: enrolment.id, learnerId: enrolment.learnerId }).from(enrolment)
    .where(and(eq(enrolment.sessionId, sessionId), eq(enrolment.status, 'waitlisted')))
    .orderBy(asc(enrolment.createdAt)).limit(1).for('update', { skipLocked: true });
  if (!first) return null;
  const taken = await tx.update(courseSession).set({ seatsTaken: sql`${courseSession.seatsTaken} + 1` })
    .where(and(eq(courseSession.id, sessionId), sql`${courseSession.seatsTaken} < ${courseSession.capacity}`)).returning({ id: courseSession.id });
  if (!taken.length) return null;
  await tx.update(enrolment).set({ status: 'active', updatedAt: new Date() }).where(eq(enrolment.id, first.id));
  return { learnerId: first.learnerId };
}

async function notifyPromotion(db: Db, mailer: Mailer, publicUrl: string, learnerId: string, courseId: string) {
  const [row] = await db.select({ email: user.email, firstName: user.firstName, title: course.title })
    .from(user).innerJoin(course, eq(course.id, courseId)).where(eq(user.id, learnerId)).limit(1);
  if (row) await mailer.send(waitlistPromotionEmail(row.email, row.firstName, row.title, `${publicUrl}/course/${courseId}`));
}
