import { eq } from 'drizzle-orm';
import { PAYMENT_MESSAGES, planById } from '../../shared/payments.js';
import type { VerifySessionResult } from '../../shared/payments-schemas.js';
import type { Viewer } from '../accounts/viewer.js';
import type { AppServices } from '../app-services.js';
import { courseBriefOf, enrolmentStatusOf, sessionDatesOf } from '../courses/course-records.js';
import { purchase } from '../db/schema/payments.js';
import { AppError } from '../http/errors.js';
import { fulfilCheckout } from './fulfilment.js';
import { CHECKOUT_FAILURE, provider } from './provider-calls.js';
import type { Purchase } from './purchases.js';

/**
 * Purchases whose checkout was complete and paid: the provider has nothing new to say
 * about the checkout itself. ('refunded' is not one: a seat that was gone may still owe
 * a refund, which the next fulfilment run retries.)
 */
const SETTLED = new Set(['fulfilled', 'past_due', 'completed', 'cancelled']);

/**
 * GET /api/stripe/verify-session: the state of the caller's checkout, fulfilling it when
 * paid (whichever of this and the webhook comes first). The complete page polls it: once
 * the purchase is settled the answer comes from our records alone, without the provider.
 */
export async function verifyCheckout(app: AppServices, viewer: Viewer, checkoutId: string | undefined): Promise<VerifySessionResult> {
  if (!checkoutId) throw new AppError(400, 'session_missing', PAYMENT_MESSAGES.sessionMissing);
  const db = app.database.db;
  const [mine] = await db.select().from(purchase).where(eq(purchase.checkoutSessionId, checkoutId)).limit(1);
  if (!mine) throw new AppError(404, 'session_missing', PAYMENT_MESSAGES.sessionMissing);
  if (mine.userId !== viewer.user.id) throw AppError.forbidden('This checkout is not yours');
  if (SETTLED.has(mine.status)) return present(app, mine, { status: 'complete', payment_status: 'paid' });
  const outcome = await provider(app.log, CHECKOUT_FAILURE, 'verify-session', () => fulfilCheckout(app, checkoutId));
  const [now] = await db.select().from(purchase).where(eq(purchase.id, mine.id)).limit(1);
  return present(app, now, outcome.checkout);
}

async function present(
  app: AppServices,
  p: Purchase,
  checkout: { status: string | null; payment_status: string },
): Promise<VerifySessionResult> {
  const db = app.database.db;
  const brief = p.courseId ? await courseBriefOf(db, p.courseId) : null;
  const c = brief && { id: brief.id, title: brief.title };
  const s = p.courseSessionId ? await sessionDatesOf(db, p.courseSessionId) : null;
  const e = p.enrolmentId ? await enrolmentStatusOf(db, p.enrolmentId) : null;
  const plan = p.planId ? planById(p.planId) : null;
  const status = (['open', 'complete', 'expired'] as const).find((x) => x === checkout.status) ?? 'open';
  const paymentStatus = (['paid', 'unpaid', 'no_payment_required'] as const).find((x) => x === checkout.payment_status) ?? 'unpaid';
  return {
    status,
    paymentStatus,
    kind: p.kind as VerifySessionResult['kind'],
    purchase: {
      id: p.id,
      status: p.status as VerifySessionResult['purchase']['status'],
      amountCents: p.amountCents,
      currency: p.currency,
      installments: p.installments,
      installmentCents: p.installmentCents,
      failureReason: p.failureReason,
    },
    course: c ?? null,
    session: s ?? null,
    enrolment: e ?? null,
    plan: plan ? { id: plan.id, name: plan.name } : null,
  };
}
