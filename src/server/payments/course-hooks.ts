import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { formatPrice } from '../../shared/courses.js';
import type { Viewer } from '../accounts/session.js';
import { ownedCourse } from '../courses/access.js';
import { course } from '../db/schema/courses.js';
import { payoutAccount, purchase } from '../db/schema/payments.js';
import { dropRefundEmail } from '../email/templates.js';
import { AppError } from '../http/errors.js';
import { describe } from './common.js';
import { ensureCourseProduct } from './checkout-service.js';
import { fullRefundPlan } from './drop-refunds.js';
import { recordRefundDue, runRefundDue } from './refund-due.js';
import type { RefundPlan } from './refund-policy.js';

/**
 * Where payments meets the courses routes: the publish rule for paid courses, refunds
 * after a drop or a cancelled session.
 */

/** A paid course can be published only when the educator's payout account takes charges. */
export async function assertCanPublish(app: FastifyInstance, viewer: Viewer, courseId: string) {
  const c = await ownedCourse(app.database.db, courseId, viewer);
  if (c.status === 'published' || c.priceCents <= 0) return;
  const [acct] = await app.database.db.select({ chargesEnabled: payoutAccount.chargesEnabled }).from(payoutAccount).where(eq(payoutAccount.userId, viewer.user.id)).limit(1);
  if (!acct?.chargesEnabled) {
    throw new AppError(400, 'payouts_required', 'Set up payouts before publishing a paid course', {
      fields: { payouts: acct ? 'Finish setting up payouts: your account cannot take payments yet' : 'Set up payouts first', next: '/educator/onboard?step=payouts' },
    });
  }
}

/** A published paid course gets its provider product now (or, if the provider is down, at its first checkout). */
export async function ensureProductAfterPublish(app: FastifyInstance, courseId: string, log: FastifyBaseLogger) {
  const [c] = await app.database.db.select().from(course).where(eq(course.id, courseId)).limit(1);
  if (!c || c.priceCents <= 0 || c.stripeProductId) return;
  try {
    await ensureCourseProduct(app, c);
  } catch (err) {
    log.warn({ err: describe(err), courseId }, 'payments: product not created at publish; it is created at the first checkout');
  }
}

/** The drop's answer; a paid enrolment's refund (and installment cancel) runs at the provider now. */
export async function finishDrop(app: FastifyInstance, viewer: Viewer, plan: RefundPlan | null) {
  if (!plan) return { ok: true as const, message: 'You have left this session', refund: null };
  // Recorded in refund_due by the drop's transaction: a failure here is retried later.
  const { refundedCents, failed } = await runPlan(app, plan);
  const currency = plan.currency;
  if (plan.totalCents > 0 && refundedCents > 0 && plan.courseId) {
    const [c] = await app.database.db.select({ title: course.title }).from(course).where(eq(course.id, plan.courseId)).limit(1);
    try {
      await app.mailer.send(dropRefundEmail(viewer.user.email, viewer.user.firstName, { courseTitle: c?.title ?? 'your course', amount: formatPrice(refundedCents, currency), courseUrl: `${app.config.publicUrl}/course/${plan.courseId}` }));
    } catch (err) {
      app.log.error({ err }, 'payments: could not send the refund email');
    }
  }
  const amount = formatPrice(plan.totalCents, currency);
  const stopped = plan.subscriptionId ? ' No further installments will be taken.' : '';
  const message = plan.totalCents === 0
    ? `You have left this session. Under the course's refund policy no refund is due.${stopped}`
    : failed
      ? `You have left this session. Your refund of ${amount} is being processed.${stopped}`
      : `You have left this session. ${amount} ${plan.share === 1 ? '(everything you paid) ' : ''}is refunded to your card.${stopped}`;
  return { ok: true as const, message, refund: { amountCents: plan.totalCents, currency, full: plan.share === 1, pending: failed && plan.totalCents > 0 } };
}

/** A cancelled session: every paid seat in it is refunded in full, installments stop. */
export async function refundCancelledSession(app: FastifyInstance, sessionId: string, log: FastifyBaseLogger) {
  const db = app.database.db;
  const plans = await db.transaction(async (tx) => {
    const rows = await tx.select({ id: purchase.id }).from(purchase)
      .where(and(eq(purchase.sessionId, sessionId), inArray(purchase.status, ['fulfilled', 'past_due', 'completed']))).for('update');
    const out: RefundPlan[] = [];
    for (const row of rows) {
      const plan = await fullRefundPlan(tx, row.id, 'session_cancelled');
      if (plan) {
        await recordRefundDue(tx, plan);
        out.push(plan);
      }
      await tx.update(purchase).set({ status: 'refunded', failureReason: 'The session was cancelled', updatedAt: new Date() }).where(eq(purchase.id, row.id));
    }
    return out;
  });
  for (const plan of plans) {
    const r = await runPlan(app, plan);
    if (r.failed) log.error({ purchase: plan.purchaseId }, 'payments: refund after a cancelled session failed; it is retried');
  }
}

/** Carries out a plan just recorded in refund_due (the row is leased to this request). */
async function runPlan(app: FastifyInstance, plan: RefundPlan) {
  if (plan.items.length === 0 && !plan.subscriptionId) return { refundedCents: 0, failed: false };
  return runRefundDue(app, { purchaseId: plan.purchaseId, attempts: 0, plan: plan as unknown as Record<string, unknown> }, { delayed: false });
}
