import { eq } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { formatPrice } from '../../shared/courses.js';
import { installmentDates, installmentSchedule, installmentsOffered, platformFee } from '../../shared/payments.js';
import { dateIn } from '../../shared/time.js';
import type { CheckoutResult, CheckoutSummary } from '../../shared/payments-schemas.js';
import type { Viewer } from '../accounts/viewer.js';
import { assertMayBuySeat, checkEligible, offerHeldFor } from '../courses/seats.js';
import { courseRowOf, courseWithEducatorOf, firstClassStartOf, openSessionsOf } from '../courses/course-records.js';
import { payoutAccount } from '../db/schema/payments.js';
import { AppError } from '../http/errors.js';
import { ensureCourseProduct } from './products.js';
import { assertOwnCustomer, ensureCustomer } from './customers.js';
import { feePercentFor, openCheckout, returnUrl } from './open-checkout.js';

/**
 * Everything a course checkout checks before any money moves, in the order a buyer
 * would want to hear it: the course (published, paid), the session (the enrolment rules:
 * not your own course, not cancelled or past, not already enrolled, and not full unless a
 * seat is held for them), the
 * price they saw, the installments they chose, and the educator's payouts.
 */
async function checkCourseCheckout(
  app: AppServices,
  viewer: Viewer,
  input: { course: string; session: string; price: number; installments?: number },
) {
  const db = app.database.db;
  const c = await courseRowOf(db, input.course);
  if (!c || c.status !== 'published') throw AppError.notFound('This course does not exist');
  if (c.priceCents <= 0)
    throw new AppError(400, 'free_course', 'This course is free: enrol from the course page', {
      fields: { course: 'This course is free' },
    });
  const row = await checkEligible(db, input.session, viewer.user.id);
  if (row.s.courseId !== c.id) throw AppError.notFound('This session does not exist');
  // Not enrolled or waiting already, and a free seat or one held for this learner (an
  // offer from the waitlist, still open: ADR 0067).
  await assertMayBuySeat(db, row.s, viewer.user.id);
  if (input.price !== c.priceCents) {
    const now = formatPrice(c.priceCents, c.currency);
    throw new AppError(400, 'price_changed', `The price has changed: it is now ${now}. Check the new price and try again.`, {
      fields: { price: `The price is now ${now}` },
    });
  }
  if (input.installments !== undefined) {
    const offered = installmentsOffered(c, row.s.endsOn, dateIn(new Date(), row.s.timeZone));
    if (!offered)
      throw new AppError(
        400,
        'no_installments',
        c.installments ? 'This session is paid in one payment only' : 'This course is paid in one payment only',
        {
          fields: {
            installments: c.installments
              ? 'Installments must be at least the minimum payment and end before the session does: pay in one payment'
              : 'This course does not offer installments',
          },
        },
      );
    if (input.installments !== offered) {
      throw new AppError(400, 'installments_changed', `This session is paid in ${offered} monthly installments`, {
        fields: { installments: `Choose ${offered} installments` },
      });
    }
  }
  const [acct] = await db.select().from(payoutAccount).where(eq(payoutAccount.userId, c.educatorId)).limit(1);
  if (!acct || !acct.chargesEnabled) {
    throw new AppError(409, 'payouts_not_ready', 'The educator of this course cannot take payments yet. Please try again later.');
  }
  return { course: c, session: row.s, account: acct };
}

/** POST /api/stripe/course-embedded-checkout and /course-embedded-subscription. */
export async function createCourseCheckout(
  app: AppServices,
  viewer: Viewer,
  input: { customer: string; course: string; session: string; price: number; installments?: number },
  clientKey?: string,
): Promise<CheckoutResult> {
  const customer = await assertOwnCustomer(app, viewer.user, input.customer);
  const { course: c, session: s, account } = await checkCourseCheckout(app, viewer, input);
  const feePercent = await feePercentFor(app, c.educatorId);
  const installments = input.installments ?? null;
  // The payments add up to the price exactly: a monthly price of the later amount, and the
  // cents the division leaves charged once with the first (a one-time line on the first invoice).
  const schedule = installments ? installmentSchedule(c.priceCents, installments) : null;
  const each = schedule ? schedule[schedule.length - 1] : null;
  const leftOver = schedule ? schedule[0] - each! : 0;
  const metadataBase = { course: c.id, session: s.id, user: viewer.user.id };
  return openCheckout(
    app,
    {
      userId: viewer.user.id,
      kind: installments ? 'course_installments' : 'course_payment',
      courseId: c.id,
      courseSessionId: s.id,
      educatorId: c.educatorId,
      amountCents: c.priceCents,
      currency: c.currency,
      installments,
      installmentCents: each,
      feePercent,
    },
    clientKey,
    async (purchaseId) => {
      const product = await ensureCourseProduct(app, c);
      const metadata = {
        purchase_id: purchaseId,
        kind: installments ? 'course_installments' : 'course_payment',
        ...metadataBase,
        // The plan's terms, for the record (our page says them beside the card form).
        ...(installments
          ? {
              installments: String(installments),
              last_payment_on: installmentDates(dateIn(new Date(), s.timeZone), installments)[installments - 1],
            }
          : {}),
      };
      const common = {
        ui_mode: 'embedded_page' as const,
        customer,
        metadata,
        client_reference_id: purchaseId,
        return_url: returnUrl(app, '/course/checkout/complete'),
      };
      if (!installments) {
        return {
          ...common,
          mode: 'payment',
          line_items: [{ quantity: 1, price_data: { currency: c.currency, unit_amount: c.priceCents, product } }],
          payment_intent_data: {
            application_fee_amount: platformFee(c.priceCents, feePercent),
            transfer_data: { destination: account.accountId },
            metadata,
            description: `${c.title} (session starting ${s.startsOn})`,
          },
        };
      }
      return {
        ...common,
        mode: 'subscription',
        line_items: [
          {
            quantity: 1,
            price_data: { currency: c.currency, unit_amount: each!, product, recurring: { interval: 'month', interval_count: 1 } },
          },
          ...(leftOver > 0
            ? [
                {
                  quantity: 1,
                  price_data: {
                    currency: c.currency,
                    unit_amount: leftOver,
                    product_data: { name: 'First payment: cents left by the division' },
                  },
                },
              ]
            : []),
        ],
        subscription_data: {
          application_fee_percent: feePercent,
          transfer_data: { destination: account.accountId },
          metadata,
          // Shown with the card form: when the plan ends, so "per month" is never open-ended.
          description: `${c.title}: ${installments} payments in all, the last on ${metadata.last_payment_on}`,
        },
      };
    },
  );
}

/** GET /api/course/:courseID/checkout?session=: the order summary of /course/checkout. */
export async function checkoutSummaryFor(
  app: AppServices,
  viewer: Viewer,
  courseId: string,
  courseSessionId: string | undefined,
): Promise<CheckoutSummary> {
  const db = app.database.db;
  const row = await courseWithEducatorOf(db, courseId);
  if (!row || row.c.status !== 'published') throw AppError.notFound('This course does not exist');
  const c = row.c;
  if (c.priceCents <= 0) throw new AppError(400, 'free_course', 'This course is free: enrol from the course page');
  const sessions = await openSessionsOf(db, c.id);
  const s = courseSessionId ? sessions.find((x) => x.id === courseSessionId) : sessions[0];
  if (!s) throw AppError.notFound('This session does not exist');
  const firstClassAt = await firstClassStartOf(db, s.id);
  const customer = await ensureCustomer(app, viewer.user);
  const heldUntil = await offerHeldFor(db, s.id, viewer.user.id);
  const today = dateIn(new Date(), s.timeZone);
  const offered = installmentsOffered(c, s.endsOn, today);
  return {
    course: {
      id: c.id,
      title: c.title,
      category: c.category,
      coverUrl: c.coverImage,
      educatorName: `${row.firstName} ${row.lastName}`.trim(),
      refundPolicy: c.refundPolicy,
    },
    session: {
      id: s.id,
      startsOn: s.startsOn,
      endsOn: s.endsOn,
      timeZone: s.timeZone,
      seatsLeft: Math.max(0, s.capacity - s.seatsTaken),
      firstClassAt: firstClassAt?.toISOString() ?? null,
    },
    priceCents: c.priceCents,
    currency: c.currency,
    installments: offered,
    installmentCents: offered ? installmentSchedule(c.priceCents, offered)[offered - 1] : null,
    installmentAmounts: offered ? installmentSchedule(c.priceCents, offered) : null,
    lastInstallmentOn: offered ? installmentDates(today, offered)[offered - 1] : null,
    seatHeldUntil: heldUntil?.toISOString() ?? null,
    customer,
  };
}
