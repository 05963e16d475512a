import { and, asc, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { agesFit, learnerAgeNow, ownedLearnerProfiles, type LearnerProfile } from '../accounts/learner-profiles.js';
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

/**
 * Whom a seat is for (family accounts, ADR 0074): the account that holds it (pays, is the
 * contact) and which of its learners sits in it, a learner profile, or null for the account
 * holder themself. An account holds one live seat per learner in a course session.
 */
export interface SeatFor {
  accountId: string;
  learnerProfileId: string | null;
}

/** The account holder's own seat (no learner profile): what every seat was before family accounts. */
export const ownSeat = (accountId: string): SeatFor => ({ accountId, learnerProfileId: null });

/** A seat given as a SeatFor, or (as before family accounts) by the account id alone: the holder's own. */
export type SeatOrAccount = SeatFor | string;
const asSeat = (s: SeatOrAccount): SeatFor => (typeof s === 'string' ? ownSeat(s) : s);

/** The enrolments of this seat's learner (the account, and its profile or none). */
export function isSeatOf(seat: SeatFor): SQL {
  return and(
    eq(enrolment.learnerId, seat.accountId),
    seat.learnerProfileId === null ? isNull(enrolment.learnerProfileId) : eq(enrolment.learnerProfileId, seat.learnerProfileId),
  )!;
}

/** Why this learner may not enrol in this course session (throws), else the session and its course. */
export async function checkEligible(db: Conn, sessionId: string, learnerId: string) {
  const [row] = await db
    .select({
      s: courseSession,
      c: {
        id: course.id,
        status: course.status,
        educatorId: course.educatorId,
        priceCents: course.priceCents,
        title: course.title,
        minAge: course.minAge,
        maxAge: course.maxAge,
      },
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
export async function enrolLearner(
  tx: Tx,
  opts: { sessionId: string; learnerId: string; learnerProfileId?: string | null; seatOnly?: boolean },
) {
  const seat: SeatFor = { accountId: opts.learnerId, learnerProfileId: opts.learnerProfileId ?? null };
  await lockCourseSession(tx, opts.sessionId);
  const row = await checkEligible(tx, opts.sessionId, seat.accountId);
  if (opts.seatOnly) {
    const claimed = await claimOffer(tx, row, seat);
    if (claimed) return claimed;
  }
  return takeSeat(tx, row, { sessionId: opts.sessionId, seat, seatOnly: opts.seatOnly });
}

const HOLD_ENDED = 'Your hold on this seat ended before the payment completed';

/**
 * A paid seat for a learner offered one from the waitlist: the held seat becomes theirs
 * (it is already counted). Null when the learner has no offer; 409 once it has ended, even
 * if the expiry job has not run yet (the clock decides, not the job). Caller holds the lock.
 */
async function claimOffer(tx: Tx, row: Eligible, seat: SeatFor) {
  const [mine] = await tx
    .select({ id: enrolment.id, live: sql<boolean>`${enrolment.offerExpiresAt} > clock_timestamp()` })
    .from(enrolment)
    .where(and(eq(enrolment.sessionId, row.s.id), isSeatOf(seat), eq(enrolment.status, 'offered')))
    .for('update')
    .limit(1);
  if (!mine) {
    // The offer already ended (the expiry job ran before the payment arrived, or it was
    // declined) and no seat is free: say that, not merely "full". The payment is refunded either way.
    if (row.s.seatsTaken < row.s.capacity) return null;
    const [ended] = await tx
      .select({ id: enrolment.id })
      .from(enrolment)
      .where(and(eq(enrolment.sessionId, row.s.id), isSeatOf(seat), eq(enrolment.status, 'dropped'), isNotNull(enrolment.offerExpiresAt)))
      .limit(1);
    if (ended) throw new AppError(409, 'offer_expired', HOLD_ENDED);
    return null;
  }
  if (!mine.live) throw new AppError(409, 'offer_expired', HOLD_ENDED);
  await tx.update(enrolment).set({ status: 'active', updatedAt: new Date() }).where(eq(enrolment.id, mine.id));
  await refreshCourseStats(tx, row.c.id);
  return {
    id: mine.id,
    sessionId: row.s.id,
    learnerProfileId: seat.learnerProfileId,
    status: 'active' as EnrolmentStatus,
    waitlistPosition: null,
    course: row.c,
  };
}

/**
 * Whether this learner may buy a seat in the course session now (the checkout asks before any
 * money moves): a free seat, or a seat offered to them and still held. Throws with what to do
 * instead: on the waitlist, an offer that ended, enrolled already, or full (join the waitlist).
 */
export async function assertMayBuySeat(
  db: Conn,
  s: { id: string; seatsTaken: number; capacity: number },
  seat: SeatOrAccount,
  /** The learner profile's first name, for the messages ("Mia is ..."); the holder is "You". */
  name?: string,
): Promise<{ heldUntil: Date | null }> {
  const state = await seatStateOf(db, s.id, asSeat(seat), name);
  if (s.seatsTaken >= s.capacity && !state.heldUntil)
    throw new AppError(409, 'session_full', 'This session is full: join its waitlist from the course page');
  return state;
}

/** Throws when this learner may not buy a seat (waiting, enrolled, an offer ended); answers a live offer's end. */
async function seatStateOf(db: Conn, sessionId: string, seat: SeatFor, name?: string): Promise<{ heldUntil: Date | null }> {
  const who = name ?? 'You';
  const are = name ? 'is' : 'are';
  const [mine] = await db
    .select({
      id: enrolment.id,
      status: enrolment.status,
      expiresAt: enrolment.offerExpiresAt,
      live: sql<boolean>`coalesce(${enrolment.offerExpiresAt} > now(), false)`,
    })
    .from(enrolment)
    .where(and(eq(enrolment.sessionId, sessionId), isSeatOf(seat), sql`${enrolment.status} <> 'dropped'`))
    .limit(1);
  if (mine?.status === 'offered') {
    if (!mine.live)
      throw new AppError(
        409,
        'offer_expired',
        `${name ? `${name}'s` : 'Your'} offer of a seat in this session has ended: the seat goes to the next learner on the waitlist`,
      );
    return { heldUntil: mine.expiresAt };
  }
  if (mine?.status === 'waitlisted') {
    const position = await waitlistPositionOf(db, mine.id);
    throw new AppError(
      409,
      'on_waitlist',
      `${who} ${are} number ${position} on the waitlist of this session: ${name ? 'a seat is offered' : 'you will be offered a seat'} when one frees up`,
    );
  }
  if (mine) throw new AppError(409, 'already_enrolled', `${who} ${are} already enrolled in this session`);
  return { heldUntil: null };
}

/** Until when a seat of the course session is held for this learner (a live offer), else null. */
export async function offerHeldFor(db: Conn, sessionId: string, seat: SeatOrAccount): Promise<Date | null> {
  const [mine] = await db
    .select({ until: enrolment.offerExpiresAt })
    .from(enrolment)
    .where(
      and(
        eq(enrolment.sessionId, sessionId),
        isSeatOf(asSeat(seat)),
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
export async function takeSeat(tx: Tx, row: Eligible, opts: { sessionId: string; seat: SeatFor; seatOnly?: boolean }) {
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
      learnerId: opts.seat.accountId,
      learnerProfileId: opts.seat.learnerProfileId,
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
  return {
    id: created.id,
    sessionId: opts.sessionId,
    learnerProfileId: opts.seat.learnerProfileId,
    status,
    waitlistPosition,
    course: row.c,
  };
}

/** Serialises seat changes of one course session (enrol, drop, promote, capacity). */
export async function lockCourseSession(tx: Tx, sessionId: string) {
  await tx.select({ id: courseSession.id }).from(courseSession).where(eq(courseSession.id, sessionId)).for('no key update');
}

/** 409 when the learner already holds (or waits for) a seat in this course session ("Mia is ..." given her name). */
export async function assertNotEnrolled(db: Conn, sessionId: string, seat: SeatOrAccount, name?: string) {
  const [existing] = await db
    .select({ status: enrolment.status })
    .from(enrolment)
    .where(and(eq(enrolment.sessionId, sessionId), isSeatOf(asSeat(seat)), sql`${enrolment.status} <> 'dropped'`))
    .limit(1);
  const who = name ? `${name} is` : 'You are';
  if (existing)
    throw new AppError(
      409,
      'already_enrolled',
      existing.status === 'waitlisted' ? `${who} already on the waitlist of this session` : `${who} already enrolled in this session`,
      name
        ? { fields: { learnerIds: `${name} is already ${existing.status === 'waitlisted' ? 'on the waitlist' : 'enrolled'}` } }
        : undefined,
    );
}

/**
 * Ends an enrolment (dropped) and frees its seat if it held one; the seat goes to the
 * waitlist. The caller holds the course session lock. Answers the enrolments moved up
 * (their ids: one account may wait with several learners, ADR 0074).
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
 * that could not be collected. The caller holds the course session lock. Answers the enrolments moved up.
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
 * enrolments moved up (promoted or offered; waitlistMovesOf tells which).
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
    .select({ id: enrolment.id })
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
    return ids;
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
  return ids;
}

/**
 * Ends an offer that was not claimed in time (the expiry job) or that the learner declined:
 * the learner leaves the waitlist, the held seat goes to the next in line. Nothing when the
 * offer was claimed or already ended, or (a lapse) has not ended yet. The caller holds the
 * course session lock. Answers the enrolment's course and the enrolments moved up, or null.
 */
export async function endOffer(
  tx: Tx,
  enrolmentId: string,
  why: 'lapsed' | 'declined',
): Promise<{ courseId: string; sessionId: string; learnerId: string; learnerProfileId: string | null; moved: string[] } | null> {
  const [mine] = await tx
    .select({
      id: enrolment.id,
      sessionId: enrolment.sessionId,
      courseId: enrolment.courseId,
      learnerId: enrolment.learnerId,
      learnerProfileId: enrolment.learnerProfileId,
      status: enrolment.status,
      due: sql<boolean>`coalesce(${enrolment.offerExpiresAt} <= clock_timestamp(), false)`,
    })
    .from(enrolment)
    .where(eq(enrolment.id, enrolmentId))
    .for('update')
    .limit(1);
  if (!mine || mine.status !== 'offered' || (why === 'lapsed' && !mine.due)) return null;
  const moved = await releaseEnrolment(tx, mine);
  return { courseId: mine.courseId, sessionId: mine.sessionId, learnerId: mine.learnerId, learnerProfileId: mine.learnerProfileId, moved };
}

/** How these enrolments moved up the course session's waitlist: a seat, or an offer until when (and whose: account, profile). */
export async function waitlistMovesOf(db: Conn, sessionId: string, enrolmentIds: string[]) {
  if (!enrolmentIds.length) return [];
  return db
    .select({
      learnerId: enrolment.learnerId,
      learnerProfileId: enrolment.learnerProfileId,
      enrolmentId: enrolment.id,
      status: enrolment.status,
      offerExpiresAt: enrolment.offerExpiresAt,
    })
    .from(enrolment)
    .where(and(eq(enrolment.sessionId, sessionId), inArray(enrolment.id, enrolmentIds), sql`${enrolment.status} <> 'dropped'`));
}

/** A learner to enrol: the account holder (null) or one of the account's learner profiles (its id). */
export type LearnerChoice = string | null;

/** A seat whose learner was checked (checkLearners): the profile's first name (null: the holder). */
export type CheckedSeat = SeatFor & { name: string | null; profile: LearnerProfile | null };

/** The learners chosen, checked: each profile the account's own (else 404), each fitting the course's ages (else 400). */
export async function checkLearners(
  db: Conn,
  row: Eligible,
  accountId: string,
  chosen: readonly LearnerChoice[],
  today: string = dateIn(new Date(), row.s.timeZone),
): Promise<CheckedSeat[]> {
  const unique = [...new Set(chosen)];
  if (!unique.length) throw AppError.badRequest('Choose who to enrol', { learnerIds: 'Choose at least one learner' });
  const ids = unique.filter((id): id is string => id !== null);
  const owned = await ownedLearnerProfiles(db, accountId, ids);
  if (!owned) throw new AppError(404, 'not_found', 'This learner does not exist', { fields: { learnerIds: 'Unknown learner' } });
  const byId = new Map(owned.map((p) => [p.id, p]));
  return unique.map((id) => {
    if (id === null) return { accountId, learnerProfileId: null, name: null, profile: null };
    const profile = byId.get(id)!;
    const ages = learnerAgeNow(profile, today);
    if (!agesFit(ages, row.c)) {
      const message = ageRefusal(profile.firstName, ages, row.c);
      throw new AppError(400, 'age_out_of_range', message, { fields: { learnerIds: message } });
    }
    return { accountId, learnerProfileId: id, name: profile.firstName, profile };
  });
}

/** The course's age range as the page says it: "8-12", "8 and up", "up to 12". */
export function courseAgesLabel(c: { minAge: number | null; maxAge: number | null }): string | null {
  if (c.minAge !== null && c.maxAge !== null) return c.minAge === c.maxAge ? `${c.minAge}` : `${c.minAge}-${c.maxAge}`;
  if (c.minAge !== null) return `${c.minAge} and up`;
  if (c.maxAge !== null) return `up to ${c.maxAge}`;
  return null;
}

/** Why a learner of these ages does not fit the course's: "Mia (7) is younger than this course's ages 8-12". */
export function ageRefusal(name: string, ages: { min: number; max: number }, c: { minAge: number | null; maxAge: number | null }): string {
  const age = ages.min === ages.max ? `${ages.min}` : `${ages.min}-${ages.max}`;
  const range = courseAgesLabel(c) ?? '';
  if (c.minAge !== null && ages.max < c.minAge) return `${name} (${age}) is younger than this course's ages ${range}`;
  if (c.maxAge !== null && ages.min > c.maxAge) return `${name} (${age}) is older than this course's ages ${range}`;
  return `${name} (${age}) is not within this course's ages ${range}`;
}

/**
 * Enrols several learners of one account in a free course session (or on the waitlist of a
 * full one), in one step of the caller's transaction (ADR 0074): one lock, the checks
 * (eligible, each profile the account's own and within the course's ages, none enrolled or
 * waiting already), then a seat per learner in the order given: as many as there are seats,
 * the rest on the waitlist in that order (the confirmation says so before). A paid seat is
 * taken when paid (payments' fulfilment, all or none), not here.
 */
export async function enrolLearners(tx: Tx, opts: { sessionId: string; accountId: string; learners: readonly LearnerChoice[] }) {
  await lockCourseSession(tx, opts.sessionId);
  const row = await checkEligible(tx, opts.sessionId, opts.accountId);
  const seats = await checkLearners(tx, row, opts.accountId, opts.learners);
  return { course: row.c, session: row.s, enrolments: await takeSeatsFor(tx, row, seats) };
}

/** enrolLearners once the caller holds the lock and checked the session and learners: none enrolled already, then a seat (or a waitlist place) each. */
export async function takeSeatsFor(tx: Tx, row: Eligible, seats: readonly CheckedSeat[]) {
  for (const seat of seats) await assertNotEnrolled(tx, row.s.id, seat, seat.name ?? undefined);
  const out = [];
  for (const seat of seats) out.push({ ...(await takeSeat(tx, row, { sessionId: row.s.id, seat })), name: seat.name });
  return out;
}

/**
 * Whether these learners (checked: checkLearners) may each have a paid seat in the course
 * session now (a family checkout asks before any money moves, ADR 0074): none of them enrolled,
 * waiting or offered a seat already ("Mia is already enrolled in this session"), and as many
 * seats free as learners. Throws with what to do instead.
 */
export async function assertMayBuySeats(db: Conn, s: { id: string; seatsTaken: number; capacity: number }, seats: readonly CheckedSeat[]) {
  for (const seat of seats) await assertNotEnrolled(db, s.id, seat, seat.name ?? undefined);
  const free = s.capacity - s.seatsTaken;
  if (free < seats.length)
    throw new AppError(
      409,
      'session_full',
      free <= 0
        ? 'This session is full: join its waitlist from the course page'
        : `This session has ${free} seat${free === 1 ? '' : 's'} left: choose at most ${free} learner${free === 1 ? '' : 's'}`,
      { fields: { learnerIds: `${Math.max(free, 0)} left` } },
    );
}

/**
 * A paid seat for each of these learners of one account (null: the holder), all or none
 * (payments' fulfilment of a family purchase, ADR 0074): the course session locked once, the
 * learners checked again (checkLearners: the account's own, within the course's ages; none in
 * the session already), refused (409) unless as many seats are free as learners, then a seat
 * each (takeSeat, seatOnly). One learner alone is enrolLearner's seat (an offer claimed). A refusal throws: the caller's savepoint undoes every seat.
 * Answers the enrolment ids in the learners' order.
 */
export async function seatLearners(
  tx: Tx,
  opts: { sessionId: string; accountId: string; learnerProfileIds: readonly (string | null)[] },
): Promise<string[]> {
  await lockCourseSession(tx, opts.sessionId);
  const row = await checkEligible(tx, opts.sessionId, opts.accountId);
  const seats = await checkLearners(tx, row, opts.accountId, opts.learnerProfileIds);
  // One learner: as enrolLearner (seat only), which claims a seat offered to them from the waitlist (ADR 0067).
  if (seats.length === 1)
    return [
      (
        await enrolLearner(tx, {
          sessionId: opts.sessionId,
          learnerId: opts.accountId,
          learnerProfileId: seats[0].learnerProfileId,
          seatOnly: true,
        })
      ).id,
    ];
  for (const seat of seats) await assertNotEnrolled(tx, row.s.id, seat, seat.name ?? undefined);
  const n = seats.length;
  if (row.s.status !== 'scheduled' || row.s.capacity - row.s.seatsTaken < n)
    throw new AppError(409, 'session_full', n === 1 ? 'This session is full' : `This session no longer has ${n} seats left`);
  const ids: string[] = [];
  for (const seat of seats) ids.push((await takeSeat(tx, row, { sessionId: row.s.id, seat, seatOnly: true })).id);
  return ids;
}
