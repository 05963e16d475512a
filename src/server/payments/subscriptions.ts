import { and, eq, inArray } from 'drizzle-orm';
import { formatPrice } from '../../shared/courses.js';
import type { AppServices } from '../app-services.js';
import { courseBriefOf, courseRowOf } from '../courses/course-records.js';
import { learnerNamesOf } from '../accounts/learner-profiles.js';
import { payoutAccount, purchase } from '../db/schema/payments.js';
import type { Tx } from '../db/transaction.js';
import { AppError } from '../http/errors.js';
import { ensureCourseProduct } from './products.js';
import { expireOpenCheckouts } from './expire-checkouts.js';
import { describe } from './provider-calls.js';
import { fullRefundPlan, refundPlanForDrop } from './refund-plans.js';
import { seatPlanForDrop } from './family-seats.js';
import { recordRefundDue, runRefundDue } from './refund-due.js';
import { rosterPayments } from './roster-payments.js';
import type { RefundPlan } from './refund-policy.js';

/**
 * Everything payments hears, subscribed once at start-up by composition (src/server/composition/):
 * what courses announce (courses/events.ts): the publish rule for paid courses and their
 * product, the roster's payment column, refunds after a drop or a cancelled course session.
 * Courses never import this.
 */
export function subscribePayments(app: AppServices) {
  app.courseEvents.inTransaction('course.publishing', (tx, e) => assertPayoutsReady(tx, e));
  app.courseEvents.afterCommit('course.published', (e) => ensureProductAfterPublish(app, e.courseId));
  app.courseEvents.inTransaction('enrolment.dropped', async (tx, e) => {
    // A paid enrolment: the purchase ends (no further installments) and what the course's
    // refund policy gives back is planned and recorded in refund_due, in the drop's transaction.
    // One learner of a family purchase: that seat's refund, the others keep theirs (family-seats.ts).
    const plan = (await seatPlanForDrop(tx, e.enrolmentId)) ?? (await refundPlanForDrop(tx, e.enrolmentId));
    const name = e.learnerProfileId ? (await learnerNamesOf(tx, [e.learnerProfileId])).get(e.learnerProfileId) : undefined;
    return plan ? () => finishDrop(app, e.learner, plan, name) : undefined;
  });
  // The roster's payment column: how each seat was paid.
  app.courseEvents.inTransaction('roster.reading', async (tx, e) => {
    const statuses = await rosterPayments(tx, e.enrolmentIds);
    return async () => statuses;
  });
  // An offer that ended unclaimed: the checkout the learner opened for it is expired at the
  // provider, so it can no longer be paid (a payment that still slips through is refunded, ADR 0067).
  app.courseEvents.afterCommit('waitlist.offer-ended', (e) => expireOpenCheckouts(app, e));
  app.courseEvents.inTransaction('course-session.cancelled', async (tx, e) => {
    const plans = await refundCancelledSession(tx, e.courseSessionId);
    return async () => {
      for (const plan of plans) {
        const r = await runPlan(app, plan);
        if (r.failed) app.log.error({ purchase: plan.purchaseId }, 'payments: refund after a cancelled session failed; it is retried');
      }
    };
  });
}

/** A paid course can be published only when the educator's payout account takes charges. */
async function assertPayoutsReady(tx: Tx, e: { educatorId: string; priceCents: number }) {
  if (e.priceCents <= 0) return;
  const [acct] = await tx
    .select({ chargesEnabled: payoutAccount.chargesEnabled })
    .from(payoutAccount)
    .where(eq(payoutAccount.userId, e.educatorId))
    .limit(1);
  if (!acct?.chargesEnabled) {
    throw new AppError(400, 'payouts_required', 'Set up payouts before publishing a paid course', {
      fields: {
        payouts: acct ? 'Finish setting up payouts: your account cannot take payments yet' : 'Set up payouts first',
        next: '/educator/onboard?step=payouts',
      },
    });
  }
}

/** A published paid course gets its provider product now (or, if the provider is down, at its first checkout). */
async function ensureProductAfterPublish(app: AppServices, courseId: string) {
  const c = await courseRowOf(app.database.db, courseId);
  if (!c || c.priceCents <= 0 || c.stripeProductId) return;
  try {
    await ensureCourseProduct(app, c);
  } catch (err) {
    app.log.warn({ err: describe(err), courseId }, 'payments: product not created at publish; it is created at the first checkout');
  }
}

/** What the learner is told after a paid drop; the refund (and installment cancel) runs at the provider now. */
async function finishDrop(app: AppServices, learner: { id: string }, plan: RefundPlan, name?: string) {
  // Recorded in refund_due by the drop's transaction: a failure here is retried later.
  const { refundedCents, failed } = await runPlan(app, plan);
  const currency = plan.currency;
  if (plan.totalCents > 0 && refundedCents > 0 && plan.courseId) {
    const c = await courseBriefOf(app.database.db, plan.courseId);
    await app.paymentEvents.announceCommitted(app.database.db, 'refund.issued', {
      purchaseId: plan.purchaseId,
      userId: learner.id,
      courseId: plan.courseId,
      title: c?.title ?? 'your course',
      amount: formatPrice(refundedCents, currency),
      reason: 'drop',
      installmentsStopped: plan.subscriptionId !== null,
    });
  }
  const amount = formatPrice(plan.totalCents, currency);
  const stopped = plan.subscriptionId
    ? ' No further installments will be taken.'
    : plan.resizeSubscription
      ? ` The remaining installments are lowered by ${name ? `${name}'s` : "this learner's"} part.`
      : '';
  // One learner of the account (ADR 0074): "Mia has left this session", and what came back is Mia's part.
  const left = name ? `${name} has left this session.` : 'You have left this session.';
  const everything = name ? `(everything paid for ${name}) ` : '(everything you paid) ';
  const message =
    plan.totalCents === 0
      ? `${left} Under the course's refund policy no refund is due.${stopped}`
      : failed
        ? `${left} Your refund of ${amount} is being processed.${stopped}`
        : `${left} ${amount} ${plan.share === 1 ? everything : ''}is refunded to your card.${stopped}`;
  return { message, refund: { amountCents: plan.totalCents, currency, full: plan.share === 1, pending: failed && plan.totalCents > 0 } };
}

/** A cancelled course session: every paid seat in it is refunded in full (planned and recorded here), installments stop. */
async function refundCancelledSession(tx: Tx, courseSessionId: string): Promise<RefundPlan[]> {
  const rows = await tx
    .select({ id: purchase.id })
    .from(purchase)
    .where(and(eq(purchase.courseSessionId, courseSessionId), inArray(purchase.status, ['fulfilled', 'past_due', 'completed'])))
    .for('update');
  const plans: RefundPlan[] = [];
  for (const row of rows) {
    const plan = await fullRefundPlan(tx, row.id, 'session_cancelled');
    if (plan) {
      await recordRefundDue(tx, plan);
      plans.push(plan);
    }
    await tx
      .update(purchase)
      .set({ status: 'refunded', failureReason: 'The session was cancelled', updatedAt: new Date() })
      .where(eq(purchase.id, row.id));
  }
  return plans;
}

/** Carries out a plan just recorded in refund_due (the row is leased to this process). */
async function runPlan(app: AppServices, plan: RefundPlan) {
  if (plan.deferred) return { refundedCents: 0, failed: true };
  if (plan.items.length === 0 && !plan.subscriptionId && !plan.resizeSubscription) return { refundedCents: 0, failed: false };
  return runRefundDue(
    app,
    { purchaseId: plan.purchaseId, attempts: 0, plan: plan as unknown as Record<string, unknown> },
    { delayed: false },
  );
}
