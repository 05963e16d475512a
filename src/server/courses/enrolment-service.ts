import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { user } from '../db/schema/accounts.js';
import { course, courseSession, enrolment } from '../db/schema/courses.js';
import { AppError } from '../http/errors.js';
import { dateIn } from '../../shared/time.js';
import type { Mailer } from '../email/mailer.js';
import { sessionCancelledEmail, waitlistPromotionEmail } from '../email/templates.js';
import type { EmailMessage } from '../email/mailer.js';
import type { Viewer } from '../accounts/session.js';
import { PG, pgCode } from '../db/errors.js';
import type { Conn, Tx } from '../db/transaction.js';
import { refreshCourseStats } from './stats.js';
import { refundPlanForDrop } from '../payments/drop-refunds.js';
import type { RefundPlan } from '../payments/refund-policy.js';

export type EnrolmentStatus = 'active' | 'waitlisted' | 'dropped' | 'completed' | 'pending_payment' | 'past_due';

/** Statuses that hold a seat: an installment that failed ('past_due') keeps it until the provider gives up. */
export const SEAT_HOLDING = ['active', 'pending_payment', 'past_due'] as const;


/** Why this learner may not enrol in this session (throws), else the session and its course. */
export async function checkEligible(tx: Tx, sessionId: string, learnerId: string) {
  const [row] = await tx
    .select({ s: courseSession, c: { id: course.id, status: course.status, educatorId: course.educatorId, priceCents: course.priceCents, title: course.title } })
    .from(courseSession).innerJoin(course, eq(course.id, courseSession.courseId))
    .where(eq(courseSession.id, sessionId)).limit(1);
  if (!row || row.c.status !== 'published') throw AppError.notFound('This session does not exist');
  if (row.c.educatorId === learnerId) throw new AppError(400, 'own_course', 'You cannot enrol in your own course');
  if (row.s.status === 'cancelled') throw new AppError(400, 'session_cancelled', 'This session has been cancelled');
  if (row.s.status === 'completed' || row.s.endsOn < dateIn(new Date(), row.s.timeZone)) throw new AppError(400, 'session_past', 'This session has already ended');
  return row;
}

/**
 * The one enrolment function. Takes a seat if one is free, otherwise puts the learner on
 * the waitlist. Enrolments of one session are serialised on the session row (locked
 * first), so concurrent calls never over-book and waitlist positions are 1, 2, 3 ... in
 * the order the calls got the lock; the conditional UPDATE stays as the seat guard.
 * `seatOnly` (a confirmed payment) refuses instead of waitlisting. Runs in the caller's
 * transaction.
 */
export async function enrolLearner(tx: Tx, opts: { sessionId: string; learnerId: string; seatOnly?: boolean }) {
  await lockSession(tx, opts.sessionId);
  const row = await checkEligible(tx, opts.sessionId, opts.learnerId);
  const taken = await tx.update(courseSession)
    .set({ seatsTaken: sql`${courseSession.seatsTaken} + 1` })
    .where(and(eq(courseSession.id, opts.sessionId), sql`${courseSession.seatsTaken} < ${courseSession.capacity}`, eq(courseSession.status, 'scheduled')))
    .returning({ id: courseSession.id });
  if (!taken.length && opts.seatOnly) throw new AppError(409, 'session_full', 'This session is full');
  const status: EnrolmentStatus = taken.length ? 'active' : 'waitlisted';
  // clock_timestamp(), not now(): the waitlist is ordered by when the lock was held, not
  // by when each transaction began.
  const [created] = await tx.insert(enrolment)
    .values({ sessionId: opts.sessionId, courseId: row.c.id, learnerId: opts.learnerId, status, createdAt: sql`clock_timestamp()`, updatedAt: sql`clock_timestamp()` })
    .returning({ id: enrolment.id, status: enrolment.status });
  await refreshCourseStats(tx, row.c.id);
  let waitlistPosition: number | null = null;
  if (status === 'waitlisted') {
    // Compared in SQL: the returned Date has milliseconds, the column microseconds.
    const [{ n }] = await tx.select({ n: sql<number>`count(*)::int` }).from(enrolment)
      .where(and(eq(enrolment.sessionId, opts.sessionId), eq(enrolment.status, 'waitlisted'),
        sql`${enrolment.createdAt} <= (select e.created_at from enrolment e where e.id = ${created.id})`));
    waitlistPosition = n;
  }
  return { id: created.id, sessionId: opts.sessionId, status, waitlistPosition, course: row.c };
}

/** Serialises seat changes of one session (enrol, drop, promote, capacity). */
export async function lockSession(tx: Tx, sessionId: string) {
  await tx.select({ id: courseSession.id }).from(courseSession).where(eq(courseSession.id, sessionId)).for('no key update');
}

/** 409 when the learner already holds (or waits for) a seat in this session. */
export async function assertNotEnrolled(tx: Conn, sessionId: string, learnerId: string) {
  const [existing] = await tx.select({ status: enrolment.status }).from(enrolment)
    .where(and(eq(enrolment.sessionId, sessionId), eq(enrolment.learnerId, learnerId), sql`${enrolment.status} <> 'dropped'`)).limit(1);
  if (existing) throw new AppError(409, 'already_enrolled', existing.status === 'waitlisted' ? 'You are already on the waitlist of this session' : 'You are already enrolled in this session');
}

/** A learner enrols in a free session; a paid one sends them to the checkout instead. */
export async function enrolInSession(db: Db, viewer: Viewer, courseId: string, sessionId: string) {
  try {
    return await db.transaction(async (tx) => {
      const row = await checkEligible(tx, sessionId, viewer.user.id);
      if (row.c.id !== courseId) throw AppError.notFound('This session does not exist');
      await assertNotEnrolled(tx, sessionId, viewer.user.id);
      if (row.c.priceCents > 0) {
        return { paid: true as const, checkout: `/course/checkout?course=${courseId}&session=${sessionId}` };
      }
      return { paid: false as const, enrolment: await enrolLearner(tx, { sessionId, learnerId: viewer.user.id }) };
    });
  } catch (err) {
    if (pgCode(err) === PG.uniqueViolation) throw new AppError(409, 'already_enrolled', 'You are already enrolled in this session');
    throw err;
  }
}

/**
 * Drops the learner's enrolment; a freed seat goes to the first learner on the waitlist,
 * in the same transaction. Answers who was promoted: the caller tells them (by email)
 * after the commit, with notifyPromotions.
 */
export async function dropEnrolment(db: Db, viewer: Viewer, courseId: string, sessionId: string): Promise<{ promoted: string[]; refund: RefundPlan | null }> {
  return db.transaction(async (tx) => {
    // The session row first, as enrolLearner does: one lock order, no deadlocks.
    await lockSession(tx, sessionId);
    const [mine] = await tx.select().from(enrolment)
      .where(and(eq(enrolment.sessionId, sessionId), eq(enrolment.learnerId, viewer.user.id), eq(enrolment.courseId, courseId), sql`${enrolment.status} <> 'dropped'`))
      .for('update').limit(1);
    if (!mine) throw AppError.notFound('You are not enrolled in this session');
    if (mine.status === 'completed') throw AppError.badRequest('This session is already completed');
    // A paid enrolment: the purchase ends (no further installments) and what the course's
    // refund policy gives back is planned here; the caller carries it out at the provider
    // after the commit (payments/drop-refunds.ts).
    const refund = await refundPlanForDrop(tx, mine.id);
    const promoted = await releaseEnrolment(tx, mine);
    return { promoted, refund };
  });
}

/**
 * Ends an enrolment (dropped) and frees its seat if it held one; the seat goes to the
 * waitlist. The caller holds the session lock. Answers the promoted learners.
 */
export async function releaseEnrolment(tx: Tx, mine: { id: string; sessionId: string; courseId: string; status: string }): Promise<string[]> {
  await tx.update(enrolment).set({ status: 'dropped', droppedAt: new Date(), updatedAt: new Date() }).where(eq(enrolment.id, mine.id));
  let promoted: string[] = [];
  if ((SEAT_HOLDING as readonly string[]).includes(mine.status)) {
    await tx.update(courseSession).set({ seatsTaken: sql`${courseSession.seatsTaken} - 1` }).where(eq(courseSession.id, mine.sessionId));
    promoted = await fillFromWaitlist(tx, mine.sessionId);
  }
  await refreshCourseStats(tx, mine.courseId);
  return promoted;
}

/**
 * Gives every free seat of the session to the longest-waiting learners, in order.
 * The caller holds the session lock (lockSession). Answers the promoted learners.
 */
export async function fillFromWaitlist(tx: Tx, sessionId: string): Promise<string[]> {
  const [s] = await tx.select({ free: sql<number>`(${courseSession.capacity} - ${courseSession.seatsTaken})::int`, status: courseSession.status })
    .from(courseSession).where(eq(courseSession.id, sessionId));
  if (!s || s.status !== 'scheduled' || s.free <= 0) return [];
  const next = await tx.select({ id: enrolment.id, learnerId: enrolment.learnerId }).from(enrolment)
    .where(and(eq(enrolment.sessionId, sessionId), eq(enrolment.status, 'waitlisted')))
    .orderBy(asc(enrolment.createdAt)).limit(s.free).for('update');
  if (!next.length) return [];
  await tx.update(courseSession).set({ seatsTaken: sql`${courseSession.seatsTaken} + ${next.length}` }).where(eq(courseSession.id, sessionId));
  await tx.update(enrolment).set({ status: 'active', updatedAt: new Date() }).where(inArray(enrolment.id, next.map((n) => n.id)));
  return next.map((n) => n.learnerId);
}

/** Tells promoted learners they have a seat; a failed email is logged, never undoes the seat. */
type Log = { error: (obj: object, msg: string) => void };

/** Emails learners about a change to their enrolment, after the transaction committed. */
async function notifyLearners(
  db: Db, mailer: Mailer, learnerIds: string[], courseId: string, log: Log,
  compose: (row: { email: string; firstName: string; title: string }) => EmailMessage,
) {
  if (!learnerIds.length) return;
  const rows = await db.select({ email: user.email, firstName: user.firstName, title: course.title })
    .from(user).innerJoin(course, eq(course.id, courseId)).where(inArray(user.id, learnerIds));
  for (const row of rows) {
    try {
      await mailer.send(compose(row));
    } catch (err) {
      log.error({ err, to: row.email }, 'could not send an enrolment email');
    }
  }
}

/** A freed seat went to these waitlisted learners. */
export function notifyPromotions(db: Db, mailer: Mailer, publicUrl: string, learnerIds: string[], courseId: string, log: Log) {
  return notifyLearners(db, mailer, learnerIds, courseId, log,
    (r) => waitlistPromotionEmail(r.email, r.firstName, r.title, `${publicUrl}/course/${courseId}`));
}

/** The educator cancelled the session these learners were in. */
export function notifyCancellation(db: Db, mailer: Mailer, publicUrl: string, learnerIds: string[], courseId: string, log: Log) {
  return notifyLearners(db, mailer, learnerIds, courseId, log,
    (r) => sessionCancelledEmail(r.email, r.firstName, r.title, `${publicUrl}/course/${courseId}`));
}
