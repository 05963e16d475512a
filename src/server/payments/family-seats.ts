import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { learnerNamesOf } from '../accounts/learner-profiles.js';
import { checkLearners, type CheckedSeat, type Eligible } from '../courses/seats.js';
import { toLearnerChoice } from '../courses/enrolment-service.js';
import { courseBriefOf, firstClassOf } from '../courses/course-records.js';
import { payment, purchase, purchaseSeat } from '../db/schema/payments.js';
import type { Conn, Tx } from '../db/transaction.js';
import { AppError } from '../http/errors.js';
import { installmentSchedule } from '../../shared/payments.js';
import { refundShare, type RefundItem, type RefundPlan } from './refund-policy.js';
import { recordRefundDue } from './refund-due.js';
import { splitRefund } from './refund-plans.js';

/**
 * One purchase for several learners of an account (issue 26 part 3, ADR 0074): each learner's
 * share of the money, the seats' rows, and one learner's refund when they alone are dropped.
 */

/**
 * `total` cents in `n` parts that add up to it exactly: each floor(total / n), the cents left
 * over one each to the first parts (the order the learners were chosen in).
 */
export function splitShares(total: number, n: number): number[] {
  const base = Math.floor(total / n);
  const rest = total - base * n;
  return Array.from({ length: n }, (_, i) => base + (i < rest ? 1 : 0));
}

/**
 * Each seat's part of a purchase paid `amount` in all, in one payment (installments null) or
 * in `installments` (the schedule of ADR 0017: the first payment carries the left-over
 * cents). Every payment is split over the seats by splitShares, so each payment's parts add
 * up to it, every later installment splits the same way (a seat's `later` is the same every
 * month: dropping it lowers the subscription by exactly that), and the shares add up to `amount`.
 */
export function seatParts(amount: number, seats: number, installments: number | null) {
  const schedule = installments ? installmentSchedule(amount, installments) : [amount];
  const first = splitShares(schedule[0], seats);
  const later = schedule.length > 1 ? splitShares(schedule[schedule.length - 1], seats) : Array<number>(seats).fill(0);
  return first.map((f, i) => ({ firstCents: f, laterCents: later[i], shareCents: f + later[i] * (schedule.length - 1) }));
}

/**
 * The learners a checkout is for (`me`: the account holder, else learner profile ids), checked
 * by courses for this account and course (checkLearners: each profile the account's own, else
 * 404; within the course's ages, else 400 naming the learner), each chosen once.
 */
export async function familySeats(conn: Conn, row: Eligible, accountId: string, learnerIds: readonly string[]): Promise<CheckedSeat[]> {
  if (new Set(learnerIds).size !== learnerIds.length)
    throw new AppError(400, 'learners_repeated', 'Choose each learner once', { fields: { learnerIds: 'A learner is chosen twice' } });
  return checkLearners(conn, row, accountId, learnerIds.map(toLearnerChoice));
}

/** Writes the seats of a purchase (in the transaction that creates it). */
export async function insertSeats(
  tx: Tx,
  purchaseId: string,
  learners: readonly (string | null)[],
  amount: number,
  installments: number | null,
): Promise<void> {
  const parts = seatParts(amount, learners.length, installments);
  await tx
    .insert(purchaseSeat)
    .values(learners.map((p, i) => ({ purchaseId, position: i + 1, learnerProfileId: p, ...parts[i] })))
    .onConflictDoNothing();
}

/** A purchase's seats in order (none: a purchase of one seat for the holder, as before). */
export async function seatsOf(conn: Conn, purchaseId: string) {
  return conn.select().from(purchaseSeat).where(eq(purchaseSeat.purchaseId, purchaseId)).orderBy(asc(purchaseSeat.position));
}

/** Marks the seats given (their enrolments, in order) or refused, in fulfilment's transaction. */
export async function settleSeats(tx: Tx, purchaseId: string, enrolmentIds: string[] | null) {
  const seats = await seatsOf(tx, purchaseId);
  for (const [i, s] of seats.entries()) {
    await tx
      .update(purchaseSeat)
      .set(enrolmentIds ? { status: 'seated', enrolmentId: enrolmentIds[i] } : { status: 'refused' })
      .where(and(eq(purchaseSeat.id, s.id), eq(purchaseSeat.status, 'open')));
  }
}

/** The seat of a family purchase an enrolment sits in, if any. */
export async function seatOfEnrolment(conn: Conn, enrolmentId: string) {
  const [row] = await conn
    .select({ seat: purchaseSeat, purchase })
    .from(purchaseSeat)
    .innerJoin(purchase, eq(purchase.id, purchaseSeat.purchaseId))
    .where(eq(purchaseSeat.enrolmentId, enrolmentId))
    .limit(1);
  return row ?? null;
}

/**
 * What dropping one learner of a family purchase gives back: that seat's part of each payment
 * made (its first part of the first, its later part of each later one), under the course's
 * refund policy, rounded down once on the seat's total and split over those payments. The
 * others keep their seats; the purchase goes on. Null when the enrolment is not such a seat.
 */
export async function seatDropRefundFor(conn: Conn, enrolmentId: string, opts: { now?: Date; lock?: boolean } = {}) {
  const found = await seatOfEnrolment(conn, enrolmentId);
  if (!found || found.seat.status !== 'seated') return null;
  const { seat, purchase: p } = found;
  if (!['fulfilled', 'past_due', 'completed'].includes(p.status)) return null;
  if (opts.lock) await conn.execute(sql`select 1 from ${purchase} where ${purchase.id} = ${p.id} for update`);
  const c = await courseBriefOf(conn, p.courseId ?? '00000000-0000-0000-0000-000000000000');
  const firstClassAt = await firstClassOf(conn, p.courseSessionId);
  const share = firstClassAt ? refundShare(c?.refundPolicy ?? 'moderate', firstClassAt, opts.now ?? new Date()) : 1;
  const paid = await conn.select().from(payment).where(eq(payment.purchaseId, p.id)).orderBy(asc(payment.sequence));
  // The seat's part of each payment (never more than what is left unrefunded of it).
  const parts = paid.map((row) => Math.min(row.sequence === 1 ? seat.firstCents : seat.laterCents, row.amountCents - row.refundedCents));
  const paidCents = parts.reduce((a, b) => a + b, 0);
  const amounts = splitRefund(parts, Math.floor(paidCents * share));
  const items: RefundItem[] = paid
    .map((row, i) => ({
      paymentId: row.id,
      sequence: row.sequence,
      chargeId: row.chargeId,
      paymentIntentId: row.paymentIntentId,
      refundedCents: row.refundedCents,
      amountCents: amounts[i],
      key: `refund-${p.id}-${row.sequence}-seat-${seat.position}`,
    }))
    .filter((i) => i.amountCents > 0);
  return { purchase: p, seat, share, items, paidCents, totalCents: items.reduce((n, i) => n + i.amountCents, 0) };
}

/**
 * One learner of a family purchase dropped (in the drop's transaction): the seat ends, its
 * refund is planned, and a running installment plan is lowered by the seat's later part (the
 * plan's `resizeSubscription`, carried out at the provider after the commit). The last seat
 * dropped ends the purchase as a single seat's drop does (no further installments).
 */
export async function seatPlanForDrop(tx: Tx, enrolmentId: string, now = new Date()): Promise<RefundPlan | null> {
  const due = await seatDropRefundFor(tx, enrolmentId, { now, lock: true });
  if (!due) return null;
  const { purchase: p, seat } = due;
  await tx.update(purchaseSeat).set({ status: 'dropped', droppedAt: now }).where(eq(purchaseSeat.id, seat.id));
  const [{ left }] = await tx
    .select({ left: sql<number>`count(*)::int` })
    .from(purchaseSeat)
    .where(and(eq(purchaseSeat.purchaseId, p.id), inArray(purchaseSeat.status, ['seated'])));
  const last = left === 0;
  if (last) await tx.update(purchase).set({ status: 'cancelled', updatedAt: new Date() }).where(eq(purchase.id, p.id));
  const running = !!p.subscriptionId && p.status !== 'completed';
  const plan: RefundPlan = {
    purchaseId: p.id,
    learnerId: p.userId,
    courseId: p.courseId,
    subscriptionId: last && running ? p.subscriptionId : null,
    resizeSubscription: !last && running ? p.subscriptionId : null,
    currency: p.currency,
    share: due.share,
    totalCents: due.totalCents,
    items: due.items,
    reason: 'requested_by_customer',
  };
  // What is owed is durable from this commit on: retried until the provider has done it.
  await recordRefundDue(tx, plan);
  return plan;
}

/** Names of the learners of some purchases (receipts and payment history): purchase id -> "Mia, Leo". */
export async function learnersOfPurchases(conn: Conn, purchaseIds: string[], holderName = 'You'): Promise<Map<string, string[]>> {
  if (!purchaseIds.length) return new Map();
  const seats = await conn
    .select()
    .from(purchaseSeat)
    .where(inArray(purchaseSeat.purchaseId, purchaseIds))
    .orderBy(asc(purchaseSeat.purchaseId), asc(purchaseSeat.position));
  const names = await learnerNamesOf(
    conn,
    seats.flatMap((s) => (s.learnerProfileId ? [s.learnerProfileId] : [])),
  );
  const out = new Map<string, string[]>();
  for (const s of seats) {
    const name = s.learnerProfileId ? (names.get(s.learnerProfileId) ?? 'A learner') : holderName;
    out.set(s.purchaseId, [...(out.get(s.purchaseId) ?? []), s.status === 'dropped' ? `${name} (dropped)` : name]);
  }
  return out;
}

/** The enrolments a purchase pays for: its one seat's, or a family purchase's seats still held. */
export async function enrolmentsOfPurchase(conn: Conn, p: { id: string; enrolmentId: string | null }): Promise<string[]> {
  if (p.enrolmentId) return [p.enrolmentId];
  const seats = await seatsOf(conn, p.id);
  return seats.flatMap((s) => (s.status === 'seated' && s.enrolmentId ? [s.enrolmentId] : []));
}
