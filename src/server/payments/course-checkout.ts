import { eq } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { formatPrice } from '../../shared/courses.js';
import { installmentDates, installmentSchedule, installmentsOffered, platformFee } from '../../shared/payments.js';
import { promoLabel, type PromoQuote } from '../../shared/promo-codes.js';
import { dateIn } from '../../shared/time.js';
import type { CheckoutResult, CheckoutSummary } from '../../shared/payments-schemas.js';
import type { Viewer } from '../accounts/viewer.js';
import { assertMayBuySeat, assertMayBuySeats, checkEligible, offerHeldFor } from '../courses/seats.js';
import { courseRowOf, courseWithEducatorOf, firstClassStartOf, openSessionsOf } from '../courses/course-records.js';
import { payoutAccount } from '../db/schema/payments.js';
import { AppError } from '../http/errors.js';
import { ensureCourseProduct } from './products.js';
import { familySeats, insertSeats } from './family-seats.js';
import { HOLDER } from '../courses/enrolment-service.js';
import { assertOwnCustomer, ensureCustomer } from './customers.js';
import { feePercentFor, openCheckout, purchaseByClientKey, returnUrl } from './open-checkout.js';
import { applicableCode, codeCheckoutExpiry, releaseEarlierHold, reserveUse } from './promo-codes.js';

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
  input: { course: string; session: string; price: number; installments?: number; code?: string; learnerIds?: string[] },
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
  // Several learners of the account (or one of its learner profiles): a seat each (ADR 0074).
  // Only the holder alone is the checkout as before (a seat held from the waitlist included).
  const family = input.learnerIds && !(input.learnerIds.length === 1 && input.learnerIds[0] === HOLDER);
  const checked = family ? await familySeats(db, row, viewer.user.id, input.learnerIds!) : null;
  const learners = checked?.map((x) => x.learnerProfileId) ?? null;
  // Not enrolled or waiting already, and a free seat or one held for this learner (an
  // offer from the waitlist, still open: ADR 0067); for several learners, as many seats free.
  // One learner of the account: their seat alone, a seat offered to them from the waitlist included.
  if (checked?.length === 1) await assertMayBuySeat(db, row.s, checked[0], checked[0].name ?? undefined);
  else if (checked) await assertMayBuySeats(db, row.s, checked);
  else await assertMayBuySeat(db, row.s, viewer.user.id);
  const seats = learners?.length ?? 1;
  const listTotal = c.priceCents * seats;
  if (input.price !== c.priceCents) {
    const now = formatPrice(c.priceCents, c.currency);
    throw new AppError(400, 'price_changed', `The price has changed: it is now ${now}. Check the new price and try again.`, {
      fields: { price: `The price is now ${now}` },
    });
  }
  const feePercent = await feePercentFor(app, c.educatorId, input.installments !== undefined ? 'course_installments' : 'course_payment');
  // A code: checked for this course, session, price and person (field `code`), before anything is opened.
  const promo = input.code
    ? await applicableCode(app, viewer.user.id, input.code, {
        courseId: c.id,
        educatorId: c.educatorId,
        sessionId: row.s.id,
        priceCents: listTotal,
        currency: c.currency,
        feePercent,
      })
    : null;
  if (promo?.platformBears && input.installments !== undefined)
    throw new AppError(400, 'promo_code_refused', 'This code is for one payment: choose to pay in one payment to use it', {
      fields: { code: 'This code is for one payment only' },
    });
  const payable = listTotal - (promo?.discountCents ?? 0);
  if (input.installments !== undefined) {
    const offered = installmentsOffered({ ...c, priceCents: payable }, row.s.endsOn, dateIn(new Date(), row.s.timeZone));
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
  return { course: c, session: row.s, account: acct, promo, payable, feePercent, learners, listTotal };
}

/** POST /api/stripe/course-embedded-checkout and /course-embedded-subscription. */
export async function createCourseCheckout(
  app: AppServices,
  viewer: Viewer,
  input: {
    customer: string;
    course: string;
    session: string;
    price: number;
    installments?: number;
    code?: string;
    learnerIds?: string[];
  },
  clientKey?: string,
): Promise<CheckoutResult> {
  const customer = await assertOwnCustomer(app, viewer.user, input.customer);
  const { course: c, session: s, account, promo, payable, feePercent, learners, listTotal } = await checkCourseCheckout(app, viewer, input);
  const seats = learners?.length ?? 1;
  const installments = input.installments ?? null;
  // The payments add up to what is paid exactly: a monthly price of the later amount, and the
  // cents the division leaves charged once with the first (a one-time line on the first invoice).
  // With a code (ADR 0070) the discounted price is divided the same way: the monthly price
  // stays the list price's later amount, a coupon takes the same amount off every invoice,
  // and the one-time line is the discounted price's left-over cents.
  // Several learners: the same on the total (the price times the learners, less the code once).
  const listSchedule = installments ? installmentSchedule(listTotal, installments) : null;
  const schedule = installments ? installmentSchedule(payable, installments) : null;
  const each = schedule ? schedule[schedule.length - 1] : null;
  const listEach = listSchedule ? listSchedule[listSchedule.length - 1] : null;
  const leftOver = schedule ? schedule[0] - each! : 0;
  const monthlyOff = installments ? listEach! - each! : 0;
  const discountCents = promo?.discountCents ?? 0;
  const metadataBase = {
    course: c.id,
    session: s.id,
    user: viewer.user.id,
    ...(promo ? { promo_code: promo.code.code } : {}),
    ...(learners ? { seats: String(seats) } : {}),
  };
  // Holding a use of this code in an earlier checkout (another way to pay chosen): that one ends first.
  if (promo) {
    const sameRequest = clientKey ? await purchaseByClientKey(app, viewer.user.id, clientKey) : null;
    if (sameRequest?.promoCodeId !== promo.code.id) await releaseEarlierHold(app, promo.code.id, viewer.user.id);
  }
  return openCheckout(
    app,
    {
      userId: viewer.user.id,
      kind: installments ? 'course_installments' : 'course_payment',
      courseId: c.id,
      courseSessionId: s.id,
      educatorId: c.educatorId,
      amountCents: payable,
      currency: c.currency,
      installments,
      installmentCents: each,
      feePercent,
      promoCodeId: promo?.code.id ?? null,
      discountCents,
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
        // A code's use is held while the checkout is payable: an hour, not the provider's default day.
        ...(promo ? { expires_at: await codeCheckoutExpiry(app.database.db, purchaseId) } : {}),
      };
      if (!installments) {
        // An educator's code: the fee is on what is paid. A platform code: the platform's usual
        // fee on the list price, less the discount (it never exceeds the fee: applicableCode).
        const fee = promo?.platformBears ? platformFee(listTotal, feePercent) - discountCents : platformFee(payable, feePercent);
        return {
          ...common,
          mode: 'payment',
          // Several learners: one line of the course, quantity N (the provider's subtotal is the
          // price times the learners; a percent code is taken on it once, an amount off once).
          line_items: [{ quantity: seats, price_data: { currency: c.currency, unit_amount: c.priceCents, product } }],
          ...(promo ? { discounts: [{ promotion_code: promo.code.providerPromotionCodeId! }] } : {}),
          payment_intent_data: {
            application_fee_amount: fee,
            transfer_data: { destination: account.accountId },
            metadata,
            description: `${c.title} (session starting ${s.startsOn})${seats > 1 ? `, ${seats} learners` : ''}`,
          },
        };
      }
      // The plan's own coupon: the same amount off every monthly invoice (forever: the plan ends by itself).
      const coupon =
        promo && monthlyOff > 0
          ? await app.stripe().coupons.create(
              {
                amount_off: monthlyOff,
                currency: c.currency,
                duration: 'forever',
                max_redemptions: 1,
                name: `${promo.code.code} (${installments} payments)`,
                metadata: { purchase_id: purchaseId, promo_code: promo.code.code, promo_code_id: promo.code.id },
              },
              { idempotencyKey: `promo-plan-coupon-${purchaseId}` },
            )
          : null;
      return {
        ...common,
        mode: 'subscription',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: c.currency,
              unit_amount: listEach ?? each!,
              product,
              recurring: { interval: 'month', interval_count: 1 },
            },
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
        ...(coupon ? { discounts: [{ coupon: coupon.id }] } : {}),
        subscription_data: {
          application_fee_percent: feePercent,
          transfer_data: { destination: account.accountId },
          metadata,
          // Shown with the card form: when the plan ends, so "per month" is never open-ended.
          description: `${c.title}${seats > 1 ? ` for ${seats} learners` : ''}: ${installments} payments in all, the last on ${metadata.last_payment_on}`,
        },
      };
    },
    promo || learners
      ? async (tx, purchaseId) => {
          if (promo) await reserveUse(tx, promo, viewer.user.id, purchaseId, c.currency);
          if (learners) await insertSeats(tx, purchaseId, learners, payable, installments);
        }
      : undefined,
  );
}

/**
 * POST /api/course/:courseID/checkout/promo-code: the price with a code, before paying (one
 * payment, and each installment adding up to it). Refused codes answer 400 on `code`.
 */
export async function promoQuoteFor(
  app: AppServices,
  viewer: Viewer,
  courseId: string,
  input: { session: string; code: string; seats?: number },
): Promise<PromoQuote> {
  const db = app.database.db;
  const c = await courseRowOf(db, courseId);
  if (!c || c.status !== 'published' || c.priceCents <= 0) throw AppError.notFound('This course does not exist');
  const s = (await openSessionsOf(db, c.id)).find((x) => x.id === input.session);
  if (!s) throw AppError.notFound('This session does not exist');
  const listTotal = c.priceCents * (input.seats ?? 1);
  const promo = await applicableCode(app, viewer.user.id, input.code, {
    courseId: c.id,
    educatorId: c.educatorId,
    sessionId: s.id,
    priceCents: listTotal,
    currency: c.currency,
    // A code's quote is for a seat paid at once (installments are offered beside it, at their own fee).
    feePercent: await feePercentFor(app, c.educatorId, 'course_payment'),
  });
  const priceCents = listTotal - promo.discountCents;
  const offered = promo.platformBears ? null : installmentsOffered({ ...c, priceCents }, s.endsOn, dateIn(new Date(), s.timeZone));
  return {
    code: promo.code.code,
    label: promoLabel(promo.code),
    currency: c.currency,
    listPriceCents: listTotal,
    discountCents: promo.discountCents,
    priceCents,
    installments: offered,
    installmentAmounts: offered ? installmentSchedule(priceCents, offered) : null,
    onePaymentOnly: promo.platformBears,
  };
}

/** GET /api/course/:courseID/checkout?session=: the order summary of /course/checkout. */
export async function checkoutSummaryFor(
  app: AppServices,
  viewer: Viewer,
  courseId: string,
  courseSessionId: string | undefined,
  learnerChoice?: string[],
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

  const today = dateIn(new Date(), s.timeZone);
  // Several learners (ADR 0074): the price times them, the installments those of the total.
  const learners = learnerChoice?.length
    ? await familySeats(db, await checkEligible(db, s.id, viewer.user.id), viewer.user.id, learnerChoice)
    : null;
  const totalCents = c.priceCents * (learners?.length ?? 1);
  const offered = installmentsOffered({ ...c, priceCents: totalCents }, s.endsOn, today);
  // A seat held from the waitlist: the holder's own, or the one learner's the checkout is for.
  const heldUntil = learners && learners.length > 1 ? null : await offerHeldFor(db, s.id, learners?.[0] ?? viewer.user.id);
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
    installmentCents: offered ? installmentSchedule(totalCents, offered)[offered - 1] : null,
    installmentAmounts: offered ? installmentSchedule(totalCents, offered) : null,
    lastInstallmentOn: offered ? installmentDates(today, offered)[offered - 1] : null,
    seatHeldUntil: heldUntil?.toISOString() ?? null,
    customer,
    learners: learners?.map((l) => ({ id: l.learnerProfileId ?? HOLDER, name: l.name ?? 'You' })) ?? null,
    totalCents,
  };
}
