import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { enqueueJobSql } from '../jobs/queue.js';
import { dateIn } from '../../shared/time.js';
import { course, courseSession, enrolment } from '../db/schema/courses.js';
import type { Conn, Tx } from '../db/transaction.js';
import { AppError } from '../http/errors.js';
import { refreshCourseStats } from './stats.js';

/**
 * The seats of a course session: steps that run inside their caller's transaction
 * (enrolling, dropping, changing a session, fulfilling a paid seat).
 */

export type EnrolmentStatus = 'active' | 'waitlisted' | 'offered' | 'dropped' | 'completed' | 'pending_payment' | 'past_due';

/**
 * Statuses that hold a seat: an installment that failed ('past_due') keeps it until the provider
 * gives up; a seat offered from a paid session's waitlist ('offered') is held until its offer ends.
 */
export const SEAT_HOLDING = ['active', 'pending_payment', 'past_due', 'offered'] as const;

/** The job that ends an offer that was not claimed in time (registered by courses' jobs). */
export const OFFER_EXPIRY_JOB = 'courses.waitlist-offer-expiry';
export const offerExpiryKey = (enrolmentId: string) => `waitlist-offer:${enrolmentId}`;

export type Eligible = Awaited<ReturnType<typeof checkEligible>>;

/** Why this learner may not enrol in this course session (throws), else the session and its course. */
export async function checkEligible(db: Conn, sessionId: string, learnerId: string) {
  const [row] = await db
    .select({
      s: courseSession,
      c: { id: course.id, status: course.status, educatorId: course.educatorId, priceCents: course.priceCents, title: course.title },
    })
    .from(courseSession)
    .innerJoin(course, eq(course.id, courseSession.courseId))
    .where(eq(courseSession.id, sessionId))
    .limit(1);
  if (!row || row.c.status !== 'published') throw AppError.notFound('This session does not exist');
  if (row.c.educatorId === learnerId) throw new AppError(400, 'own_course', 'You cannot enrol in your own course');
  if (row.s.status === 'cancelled') throw new AppError(400, 'session_cancelled', 'This session has been cancelled');
  if (row.s.status === 'completed' || row.s.endsOn < dateIn(new Date(), row.s.timeZone))
    throw new AppError(400, 'session_past', 'This session has already ended');
  return row;
}

/**
 * The one enrolment function. Takes a seat if one is free, otherwise puts the learner on
 * the waitlist. Enrolments of one course session are serialised on its row (locked
 * first), so concurrent calls never over-book and waitlist positions are 1, 2, 3 ... in
 * the order the calls got the lock; the conditional UPDATE stays as the seat guard.
 * `seatOnly` (a confirmed payment) refuses instead of waitlisting.
 */
export async function enrolLearner(tx: Tx, opts: { sessionId: string; learnerId: string; seatOnly?: boolean }) {
  await lockCourseSession(tx, opts.sessionId);
  const row = await checkEligible(tx, opts.sessionId, opts.learnerId);
  if (opts.seatOnly) {
    const claimed = await claimOffer(tx, row, opts.learnerId);
    if (claimed) return claimed;
  }
  return takeSeat(tx, row, opts);
}

const HOLD_ENDED = 'Your hold on this seat ended before the payment completed';

/**
 * A paid seat for a learner offered one from the waitlist: the held seat becomes theirs
 * (it is already counted). Null when the learner has no offer; 409 once it has ended, even
 * if the expiry job has not run yet (the clock decides, not the job). Caller holds the lock.
 */
async function claimOffer(tx: Tx, row: Eligible, learnerId: string) {
  const [mine] = await tx
    .select({ id: enrolment.id, live: sql<boolean>`${enrolment.offerExpiresAt} > clock_timestamp()` })
    .from(enrolment)
    .where(and(eq(enrolment.sessionId, row.s.id), eq(enrolment.learnerId, learnerId), eq(enrolment.status, 'offered')))
    .for('update')
    .limit(1);
  if (!mine) {
    // The offer already ended (the expiry job ran before the payment arrived, or it was
    // declined) and no seat is free: say that, not merely "full". The payment is refunded either way.
    if (row.s.seatsTaken < row.s.capacity) return null;
    const [ended] = await tx
      .select({ id: enrolment.id })
      .from(enrolment)
      .where(
        and(
          eq(enrolment.sessionId, row.s.id),
          eq(enrolment.learnerId, learnerId),
          eq(enrolment.status, 'dropped'),
          isNotNull(enrolment.offerExpiresAt),
        ),
      )
      .limit(1);
    if (ended) throw new AppError(409, 'offer_expired', HOLD_ENDED);
    return null;
  }
  if (!mine.live) throw new AppError(409, 'offer_expired', HOLD_ENDED);
  await tx.update(enrolment).set({ status: 'active', updatedAt: new Date() }).where(eq(enrolment.id, mine.id));
  await refreshCourseStats(tx, row.c.id);
  return { id: mine.id, sessionId: row.s.id, status: 'active' as EnrolmentStatus, waitlistPosition: null, course: row.c };
}

/**
 * Whether this learner may buy a seat in the course session now (the checkout asks before any
 * money moves): a free seat, or a seat offered to them and still held. Throws with what to do
 * instead: on the waitlist, an offer that ended, enrolled already, or full (join the waitlist).
 */
export async function assertMayBuySeat(
  db: Conn,
  s: { id: string; seatsTaken: number; capacity: number },
  learnerId: string,
): Promise<{ heldUntil: Date | null }> {
  const [mine] = await db
    .select({
      id: enrolment.id,
      status: enrolment.status,
      expiresAt: enrolment.offerExpiresAt,
      live: sql<boolean>`coalesce(${enrolment.offerExpiresAt} > now(), false)`,
    })
    .from(enrolment)
    .where(and(eq(enrolment.sessionId, s.id), eq(enrolment.learnerId, learnerId), sql`${enrolment.status} <> 'dropped'`))
    .limit(1);
  if (mine?.status === 'offered') {
    if (!mine.live)
      throw new AppError(
        409,
        'offer_expired',
        'Your offer of a seat in this session has ended: the seat goes to the next learner on the waitlist',
      );
    return { heldUntil: mine.expiresAt };
  }
  if (mine?.status === 'waitlisted') {
    const position = await waitlistPositionOf(db, mine.id);
    throw new AppError(
      409,
      'on_waitlist',
      `You are number ${position} on the waitlist of this session: you will be offered a seat when one frees up`,
    );
  }
  if (mine) throw new AppError(409, 'already_enrolled', 'You are already enrolled in this session');
  if (s.seatsTaken >= s.capacity) throw new AppError(409, 'session_full', 'This session is full: join its waitlist from the course page');
  return { heldUntil: null };
}

/** Until when a seat of the course session is held for this learner (a live offer), else null. */
export async function offerHeldFor(db: Conn, sessionId: string, learnerId: string): Promise<Date | null> {
  const [mine] = await db
    .select({ until: enrolment.offerExpiresAt })
    .from(enrolment)
    .where(
      and(
        eq(enrolment.sessionId, sessionId),
        eq(enrolment.learnerId, learnerId),
        eq(enrolment.status, 'offered'),
        sql`${enrolment.offerExpiresAt} > now()`,
      ),
    )
    .limit(1);
  return mine?.until ?? null;
}

/** A waitlisted enrolment's place in line (1: next to be offered or given a seat). */
export async function waitlistPositionOf(db: Conn, enrolmentId: string): Promise<number> {
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(enrolment)
    .where(
      and(
        eq(enrolment.status, 'waitlisted'),
        sql`${enrolment.sessionId} = (select e.session_id from enrolment e where e.id = ${enrolmentId})`,
        sql`${enrolment.createdAt} <= (select e.created_at from enrolment e where e.id = ${enrolmentId})`,
      ),
    );
  return n;
}

/** enrolLearner once the caller holds the lock and has checked eligibility (checkEligible). */
export async function takeSeat(tx: Tx, row: Eligible, opts: { sessionId: string; learnerId: string; seatOnly?: boolean }) {
  const taken = await tx
    .update(courseSession)
    .set({ seatsTaken: sql`${courseSession.seatsTaken} + 1` })
    .where(
      and(
        eq(courseSession.id, opts.sessionId),
        sql`${courseSession.seatsTaken} < ${courseSession.capacity}`,
        eq(courseSession.status, 'scheduled'),
      ),
    )
    .returning({ id: courseSession.id });
  if (!taken.length && opts.seatOnly) throw new AppError(409, 'session_full', 'This session is full');
  const status: EnrolmentStatus = taken.length ? 'active' : 'waitlisted';
  // clock_timestamp(), not now(): the waitlist is ordered by when the lock was held, not
  // by when each transaction began.
  const [created] = await tx
    .insert(enrolment)
    .values({
      sessionId: opts.sessionId,
      courseId: row.c.id,
      learnerId: opts.learnerId,
      status,
      createdAt: sql`clock_timestamp()`,
      updatedAt: sql`clock_timestamp()`,
    })
    .returning({ id: enrolment.id, status: enrolment.status });
  await refreshCourseStats(tx, row.c.id);
  let waitlistPosition: number | null = null;
  if (status === 'waitlisted') {
    // Compared in SQL: the returned Date has milliseconds, the column microseconds.
    const [{ n }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(enrolment)
      .where(
        and(
          eq(enrolment.sessionId, opts.sessionId),
          eq(enrolment.status, 'waitlisted'),
          sql`${enrolment.createdAt} <= (select e.created_at from enrolment e where e.id = ${created.id})`,
        ),
      );
    waitlistPosition = n;
  }
  return { id: created.id, sessionId: opts.sessionId, status, waitlistPosition, course: row.c };
}

/** Serialises seat changes of one course session (enrol, drop, promote, capacity). */
export async function lockCourseSession(tx: Tx, sessionId: string) {
  await tx.select({ id: courseSession.id }).from(courseSession).where(eq(courseSession.id, sessionId)).for('no key update');
}

/** 409 when the learner already holds (or waits for) a seat in this course session. */
export async function assertNotEnrolled(db: Conn, sessionId: string, learnerId: string) {
  const [existing] = await db
    .select({ status: enrolment.status })
    .from(enrolment)
    .where(and(eq(enrolment.sessionId, sessionId), eq(enrolment.learnerId, learnerId), sql`${enrolment.status} <> 'dropped'`))
    .limit(1);
  if (existing)
    throw new AppError(
      409,
      'already_enrolled',
      existing.status === 'waitlisted' ? 'You are already on the waitlist of this session' : 'You are already enrolled in this session',
    );
}

/**
 * Ends an enrolment (dropped) and frees its seat if it held one; the seat goes to the
 * waitlist. The caller holds the course session lock. Answers the promoted learners.
 */
export async function releaseEnrolment(
  tx: Tx,
  mine: { id: string; sessionId: string; courseId: string; status: string },
): Promise<string[]> {
  await tx.update(enrolment).set({ status: 'dropped', droppedAt: new Date(), updatedAt: new Date() }).where(eq(enrolment.id, mine.id));
  let promoted: string[] = [];
  if ((SEAT_HOLDING as readonly string[]).includes(mine.status)) {
    await tx
      .update(courseSession)
      .set({ seatsTaken: sql`${courseSession.seatsTaken} - 1` })
      .where(eq(courseSession.id, mine.sessionId));
    promoted = await fillFromWaitlist(tx, mine.sessionId);
  }
  await refreshCourseStats(tx, mine.courseId);
  return promoted;
}

/**
 * An installment plan's enrolment (payments asks, in its transaction, ADR 0035): past due
 * while an installment is unpaid (it keeps its seat), active again once paid.
 */
export async function setInstallmentStanding(tx: Tx, enrolmentId: string, standing: 'past_due' | 'active') {
  const from = standing === 'past_due' ? 'active' : 'past_due';
  await tx
    .update(enrolment)
    .set({ status: standing, updatedAt: new Date() })
    .where(and(eq(enrolment.id, enrolmentId), eq(enrolment.status, from)));
}

/**
 * Releases the enrolment unless it is already over (dropped, completed): an installment plan
 * that could not be collected. The caller holds the course session lock. Answers the promoted.
 */
export async function releaseEnrolmentById(tx: Tx, enrolmentId: string): Promise<string[]> {
  const [mine] = await tx.select().from(enrolment).where(eq(enrolment.id, enrolmentId)).for('update').limit(1);
  if (!mine || mine.status === 'dropped' || mine.status === 'completed') return [];
  return releaseEnrolment(tx, mine);
}

/**
 * Gives every free seat of the course session to the longest-waiting learners, in order: a
 * free session's seat at once; a paid session's as an offer (ADR 0067), the seat held for the
 * learner (counted as taken) until the course's hold ends, with a job stored to end it then
 * (keyed: once across processes). The caller holds the lock (lockCourseSession). Answers the
 * learners moved up (promoted or offered; waitlistMovesOf tells which).
 */
export async function fillFromWaitlist(tx: Tx, sessionId: string): Promise<string[]> {
  const [s] = await tx
    .select({
      free: sql<number>`(${courseSession.capacity} - ${courseSession.seatsTaken})::int`,
      status: courseSession.status,
      priceCents: course.priceCents,
      holdMinutes: course.waitlistHoldMinutes,
    })
    .from(courseSession)
    .innerJoin(course, eq(course.id, courseSession.courseId))
    .where(eq(courseSession.id, sessionId));
  if (!s || s.status !== 'scheduled' || s.free <= 0) return [];
  const next = await tx
    .select({ id: enrolment.id, learnerId: enrolment.learnerId })
    .from(enrolment)
    .where(and(eq(enrolment.sessionId, sessionId), eq(enrolment.status, 'waitlisted')))
    .orderBy(asc(enrolment.createdAt))
    .limit(s.free)
    .for('update');
  if (!next.length) return [];
  const ids = next.map((n) => n.id);
  await tx
    .update(courseSession)
    .set({ seatsTaken: sql`${courseSession.seatsTaken} + ${next.length}` })
    .where(eq(courseSession.id, sessionId));
  if (s.priceCents <= 0) {
    await tx.update(enrolment).set({ status: 'active', updatedAt: new Date() }).where(inArray(enrolment.id, ids));
    return next.map((n) => n.learnerId);
  }
  await tx
    .update(enrolment)
    .set({
      status: 'offered',
      offerExpiresAt: sql`clock_timestamp() + make_interval(mins => ${s.holdMinutes})`,
      updatedAt: new Date(),
    })
    .where(inArray(enrolment.id, ids));
  await tx.execute(
    enqueueJobSql({
      kind: sql`${OFFER_EXPIRY_JOB}`,
      payload: sql`jsonb_build_object('enrolmentId', o.id::text, 'sessionId', o.session_id::text)`,
      runAt: sql`o.offer_expires_at`,
      key: sql`'waitlist-offer:' || o.id::text`,
      from: sql`(select id, session_id, offer_expires_at from enrolment where id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})) as o`,
    }),
  );
  return next.map((n) => n.learnerId);
}

/**
 * Ends an offer that was not claimed in time (the expiry job) or that the learner declined:
 * the learner leaves the waitlist, the held seat goes to the next in line. Nothing when the
 * offer was claimed or already ended, or (a lapse) has not ended yet. The caller holds the
 * course session lock. Answers the enrolment's course and the learners moved up, or null.
 */
export async function endOffer(
  tx: Tx,
  enrolmentId: string,
  why: 'lapsed' | 'declined',
): Promise<{ courseId: string; sessionId: string; learnerId: string; moved: string[] } | null> {
  const [mine] = await tx
    .select({
      id: enrolment.id,
      sessionId: enrolment.sessionId,
      courseId: enrolment.courseId,
      learnerId: enrolment.learnerId,
      status: enrolment.status,
      due: sql<boolean>`coalesce(${enrolment.offerExpiresAt} <= clock_timestamp(), false)`,
    })
    .from(enrolment)
    .where(eq(enrolment.id, enrolmentId))
    .for('update')
    .limit(1);
  if (!mine || mine.status !== 'offered' || (why === 'lapsed' && !mine.due)) return null;
  const moved = await releaseEnrolment(tx, mine);
  return { courseId: mine.courseId, sessionId: mine.sessionId, learnerId: mine.learnerId, moved };
}

/** How each of these learners moved up the course session's waitlist: a seat, or an offer until when. */
export async function waitlistMovesOf(db: Conn, sessionId: string, learnerIds: string[]) {
  if (!learnerIds.length) return [];
  return db
    .select({
      learnerId: enrolment.learnerId,
      enrolmentId: enrolment.id,
      status: enrolment.status,
      offerExpiresAt: enrolment.offerExpiresAt,
    })
    .from(enrolment)
    .where(and(eq(enrolment.sessionId, sessionId), inArray(enrolment.learnerId, learnerIds), sql`${enrolment.status} <> 'dropped'`));
}

/**
 * Whether this account may buy seats for these learners (null: the holder) in the course
 * session now (a family checkout asks before any money moves): none of them enrolled or
 * waiting already, and as many seats free as learners. Throws with what to do instead.
 */
export async function assertMayBuySeats(
  db: Conn,
  s: { id: string; seatsTaken: number; capacity: number },
  accountId: string,
  learnerProfileIds: readonly (string | null)[],
): Promise<void> {
  const zero = '00000000-0000-0000-0000-000000000000';
  const wanted = learnerProfileIds.map((p) => p ?? zero);
  const [taken] = await db
    .select({ profile: enrolment.learnerProfileId })
    .from(enrolment)
    .where(
      and(
        eq(enrolment.sessionId, s.id),
        eq(enrolment.learnerId, accountId),
        sql`${enrolment.status} <> 'dropped'`,
        sql`coalesce(${enrolment.learnerProfileId}, ${zero}::uuid) in (${sql.join(
          wanted.map((w) => sql`${w}::uuid`),
          sql`, `,
        )})`,
      ),
    )
    .limit(1);
  if (taken)
    throw new AppError(
      409,
      'already_enrolled',
      taken.profile ? 'One of these learners is already in this session' : 'You are already enrolled in this session',
      {
        fields: { learners: 'Already in this session' },
      },
    );
  const free = s.capacity - s.seatsTaken;
  if (free < learnerProfileIds.length)
    throw new AppError(
      409,
      'session_full',
      free <= 0
        ? 'This session is full: join its waitlist from the course page'
        : `This session has ${free} seat${free === 1 ? '' : 's'} left: choose at most ${free} learner${free === 1 ? '' : 's'}`,
      { fields: { learners: `${Math.max(free, 0)} left` } },
    );
}

/**
 * A paid seat for each of these learners of one account (null: the holder), all or none: the
 * course session is locked, the seats taken with one conditional UPDATE (`seats_taken + N <=
 * capacity`), then the enrolments inserted. Refuses (409) when fewer seats are left or a
 * learner is in the session already; the caller's savepoint then undoes everything.
 * Answers the enrolment ids in the learners' order.
 */
export async function seatLearners(
  tx: Tx,
  opts: { sessionId: string; accountId: string; learnerProfileIds: readonly (string | null)[] },
): Promise<string[]> {
  await lockCourseSession(tx, opts.sessionId);
  const row = await checkEligible(tx, opts.sessionId, opts.accountId);
  const n = opts.learnerProfileIds.length;
  const taken = await tx
    .update(courseSession)
    .set({ seatsTaken: sql`${courseSession.seatsTaken} + ${n}` })
    .where(
      and(
        eq(courseSession.id, opts.sessionId),
        sql`${courseSession.seatsTaken} + ${n} <= ${courseSession.capacity}`,
        eq(courseSession.status, 'scheduled'),
      ),
    )
    .returning({ id: courseSession.id });
  if (!taken.length)
    throw new AppError(409, 'session_full', n === 1 ? 'This session is full' : `This session no longer has ${n} seats left`);
  const created = await tx
    .insert(enrolment)
    .values(
      opts.learnerProfileIds.map((p) => ({
        sessionId: opts.sessionId,
        courseId: row.c.id,
        learnerId: opts.accountId,
        learnerProfileId: p,
        status: 'active' as const,
        createdAt: sql`clock_timestamp()`,
        updatedAt: sql`clock_timestamp()`,
      })),
    )
    .returning({ id: enrolment.id, profile: enrolment.learnerProfileId });
  await refreshCourseStats(tx, row.c.id);
  return opts.learnerProfileIds.map((p) => created.find((c) => c.profile === p)!.id);
}
