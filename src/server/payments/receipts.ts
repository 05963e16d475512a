import { learnersOfPurchases } from './family-seats.js';
import { eq } from 'drizzle-orm';
import { formatPrice } from '../../shared/courses.js';
import { formatDeduction } from '../../shared/money.js';
import { promoCode } from '../db/schema/payments.js';
import { installmentSchedule, planById } from '../../shared/payments.js';
import type { AppServices } from '../app-services.js';
import { mailContactOf } from '../accounts/people.js';
import { courseBriefOf } from '../courses/course-records.js';
import type { EmailMessage } from '../email/mailer.js';
import type { PaidFacts } from './provider-facts.js';
import type { Purchase } from './purchases.js';

/** The buyer and the course of a purchase, for its emails. */
export async function learnerAndCourse(app: AppServices, p: Purchase) {
  const db = app.database.db;
  const u = (await mailContactOf(db, p.userId)) ?? undefined;
  const c = (p.courseId ? await courseBriefOf(db, p.courseId) : null) ?? undefined;
  return { u, c };
}

/** Sends a payments email; a failure is logged, never undoes what was paid. */
export async function send(app: AppServices, message: EmailMessage) {
  try {
    await app.mailer.send(message);
  } catch (err) {
    app.log.error({ err, to: message.to }, 'payments: could not send an email');
  }
}

/**
 * The fulfilment's announcement (notifications turn it into the receipt and "you're
 * enrolled", the plan's welcome, or the refund of a seat that was gone).
 */
export async function sendFulfilmentEmail(app: AppServices, p: Purchase, facts: PaidFacts | null, refused: string | null) {
  const { u, c } = await learnerAndCourse(app, p);
  if (!u) return;
  const events = app.paymentEvents;
  if (p.kind === 'plan') {
    const plan = planById(p.planId ?? '');
    if (plan)
      await events.announceCommitted(app.database.db, 'payment.received', {
        purchaseId: p.id,
        userId: p.userId,
        kind: 'plan',
        courseId: null,
        title: plan.name,
        amount: formatPrice(facts?.amountCents ?? p.amountCents, p.currency),
        detail: '',
        receiptUrl: facts?.receiptUrl ?? null,
        sequence: 1,
        installments: null,
        feePercent: plan.feePercent,
      });
    return;
  }
  const title = c?.title ?? 'your course';
  if (refused) {
    const paidCents = facts?.amountCents ?? firstPaymentCents(p);
    await events.announceCommitted(app.database.db, 'refund.issued', {
      purchaseId: p.id,
      userId: p.userId,
      courseId: c?.id ?? null,
      title,
      amount: formatPrice(paidCents, p.currency),
      reason: 'seat_gone',
      detail: refused,
    });
    return;
  }
  const amount = formatPrice(facts?.amountCents ?? firstPaymentCents(p), p.currency);
  const plan = p.installments ? `installment 1 of ${p.installments}; the next ones are taken monthly` : '';
  const code = await promoLineOf(app, p);
  const names = (await learnersOfPurchases(app.database.db, [p.id], 'you')).get(p.id);
  const forWhom = names ? `for ${names.join(', ')} (${names.length} learner${names.length === 1 ? '' : 's'})` : '';
  const detail = [forWhom, code, plan].filter(Boolean).join('; ');
  await events.announceCommitted(app.database.db, 'payment.received', {
    purchaseId: p.id,
    userId: p.userId,
    kind: 'enrolled',
    courseId: c?.id ?? null,
    title,
    amount,
    detail,
    receiptUrl: facts?.receiptUrl ?? null,
    sequence: 1,
    installments: p.installments,
    refundPolicy: c?.refundPolicy,
  });
}

/** What the checkout charged: the price, or the first installment of its schedule. */
function firstPaymentCents(p: { amountCents: number; installments: number | null }): number {
  return p.installments ? installmentSchedule(p.amountCents, p.installments)[0] : p.amountCents;
}

/** The receipt's line for a promo code: "code SPRING15: −$15.00 off $100.00, $85.00 in all". */
async function promoLineOf(app: AppServices, p: Purchase): Promise<string> {
  if (!p.promoCodeId || p.discountCents <= 0) return '';
  const [row] = await app.database.db.select({ code: promoCode.code }).from(promoCode).where(eq(promoCode.id, p.promoCodeId)).limit(1);
  const list = formatPrice(p.amountCents + p.discountCents, p.currency);
  return `code ${row?.code ?? ''}: ${formatDeduction(p.discountCents, p.currency)} off ${list}, ${formatPrice(p.amountCents, p.currency)} in all`;
}
