import { and, asc, eq, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import type Stripe from 'stripe';
import { formatPrice } from '../../shared/courses.js';
import { installmentDates, installmentSchedule, installmentsOffered, planById, platformFee, type PlanId } from '../../shared/payments.js';
import { dateIn } from '../../shared/time.js';
import type { CheckoutResult, CheckoutSummary } from '../../shared/payments-schemas.js';
import type { Viewer } from '../accounts/viewer.js';
import { requireEducator } from '../educators/require-educator.js';
import { assertNotEnrolled, checkEligible } from '../courses/seats.js';
import { user } from '../db/schema/accounts.js';
import { classTime, course, courseSession } from '../db/schema/courses.js';
import { payoutAccount, purchase } from '../db/schema/payments.js';
import { AppError } from '../http/errors.js';
import { CHECKOUT_FAILURE, provider } from './provider-calls.js';
import { ensureCourseProduct, ensurePlanProduct } from './products.js';
import { assertOwnCustomer, ensureCustomer } from './customers.js';
import { feePercentOfPlan } from './fees.js';

/** The platform's fee percent for an educator: their plan's, else the configured default. */
export async function feePercentFor(app: AppServices, educatorId: string): Promise<number> {
  const [acct] = await app.database.db
    .select({ plan: payoutAccount.plan })
    .from(payoutAccount)
    .where(eq(payoutAccount.userId, educatorId))
    .limit(1);
  return feePercentOfPlan(app, acct?.plan);
}

/**
 * Everything a course checkout checks before any money moves, in the order a buyer
 * would want to hear it: the course (published, paid), the session (the enrolment rules:
 * not your own course, not cancelled or past, not already enrolled, and not full), the
 * price they saw, the installments they chose, and the educator's payouts.
 */
async function checkCourseCheckout(
  app: AppServices,
  viewer: Viewer,
  input: { course: string; session: string; price: number; installments?: number },
) {
  const db = app.database.db;
  const [c] = await db.select().from(course).where(eq(course.id, input.course)).limit(1);
  if (!c || c.status !== 'published') throw AppError.notFound('This course does not exist');
  if (c.priceCents <= 0)
    throw new AppError(400, 'free_course', 'This course is free: enrol from the course page', {
      fields: { course: 'This course is free' },
    });
  const row = await checkEligible(db, input.session, viewer.user.id);
  if (row.s.courseId !== c.id) throw AppError.notFound('This session does not exist');
  await assertNotEnrolled(db, input.session, viewer.user.id);
  if (row.s.seatsTaken >= row.s.capacity) throw new AppError(409, 'session_full', 'This session is full');
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

function returnUrl(app: AppServices, path: string) {
  return `${app.config.publicUrl}${path}${path.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`;
}

function checkoutAnswer(app: AppServices, checkout: Stripe.Checkout.Session): CheckoutResult {
  const clientSecret = checkout.client_secret ?? '';
  return {
    clientSecret,
    sessionId: checkout.id,
    // The sandbox's form is the session's url (real Stripe: null, Stripe.js opens its form from
    // the secret), served by this server: framed by path, same origin on any host name.
    sandboxUrl: app.config.payments.mode === 'sandbox' && checkout.url ? sameOriginPath(checkout.url) : null,
  };
}

function sameOriginPath(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

/**
 * The purchase row first (its id is in the provider's metadata and is the idempotency
 * key), then the provider's checkout session. A provider failure: the purchase expires and
 * the caller gets 500 "Checkout session error" (the provider's text is only logged).
 *
 * End-to-end idempotency: a call carrying the client's Idempotency-Key that was seen
 * before (same user) reuses that purchase, and the provider's own idempotency key
 * (`checkout-<purchase id>`) then answers the same checkout session, so a retried request
 * (a lost answer, a double click) never opens a second purchase or session.
 */
async function openCheckout(
  app: AppServices,
  values: typeof purchase.$inferInsert,
  clientKey: string | undefined,
  build: (purchaseId: string) => Promise<Stripe.Checkout.SessionCreateParams>,
): Promise<CheckoutResult> {
  const db = app.database.db;
  let purchaseId: string;
  if (clientKey) {
    const [created] = await db
      .insert(purchase)
      .values({ ...values, idempotencyKey: clientKey })
      .onConflictDoNothing({ target: [purchase.userId, purchase.idempotencyKey] })
      .returning({ id: purchase.id });
    if (created) {
      purchaseId = created.id;
    } else {
      const [seen] = await db
        .select()
        .from(purchase)
        .where(and(eq(purchase.userId, values.userId), eq(purchase.idempotencyKey, clientKey)))
        .limit(1);
      // The same checkout, with the same terms: a price or fee that changed since the first
      // call would send the provider other parameters under the same key (its error: a 500).
      const same = (
        ['kind', 'courseId', 'courseSessionId', 'planId', 'amountCents', 'currency', 'installments', 'feePercent'] as const
      ).every((field) => seen[field] === (values[field] ?? null));
      if (!same) {
        throw new AppError(
          409,
          'idempotency_key_reused',
          'This request key was already used for another checkout: reload the page and try again',
        );
      }
      purchaseId = seen.id;
    }
  } else {
    purchaseId = (await db.insert(purchase).values(values).returning({ id: purchase.id }))[0].id;
  }
  try {
    const session = await provider(app.log, CHECKOUT_FAILURE, 'checkout.sessions.create', async () =>
      app.stripe().checkout.sessions.create(await build(purchaseId), { idempotencyKey: `checkout-${purchaseId}` }),
    );
    await db
      .update(purchase)
      .set({
        checkoutSessionId: session.id,
        status: sql`case when ${purchase.status} = 'expired' and ${purchase.checkoutSessionId} is null then 'open' else ${purchase.status} end`,
        failureReason: null,
        updatedAt: new Date(),
      })
      .where(eq(purchase.id, purchaseId));
    return checkoutAnswer(app, session);
  } catch (err) {
    await db
      .update(purchase)
      .set({ status: 'expired', failureReason: CHECKOUT_FAILURE.message, updatedAt: new Date() })
      .where(and(eq(purchase.id, purchaseId), sql`${purchase.checkoutSessionId} is null`))
      .catch(() => {});
    throw err;
  }
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

/**
 * POST /api/stripe/create-embedded-checkout-session: a platform plan (Educator Pro) for
 * an educator, a monthly subscription to the platform. Decision: the plan lowers the fee
 * on the educator's payout account, so payouts must be set up first (400 otherwise).
 */
export async function createPlanCheckout(
  app: AppServices,
  viewer: Viewer,
  input: { customer: string; product: PlanId; price: number },
  clientKey?: string,
): Promise<CheckoutResult> {
  requireEducator(viewer);
  const customer = await assertOwnCustomer(app, viewer.user, input.customer);
  const plan = planById(input.product)!;
  if (input.price !== plan.priceCents) {
    const now = formatPrice(plan.priceCents, plan.currency);
    throw new AppError(400, 'price_changed', `The price has changed: it is now ${now} a month. Check the new price and try again.`, {
      fields: { price: `The price is now ${now}` },
    });
  }
  const db = app.database.db;
  const [acct] = await db.select().from(payoutAccount).where(eq(payoutAccount.userId, viewer.user.id)).limit(1);
  if (!acct)
    throw new AppError(400, 'payouts_required', 'Set up payouts before choosing a plan', {
      fields: { payouts: 'Set up payouts first', next: '/educator/onboard?step=payouts' },
    });
  if (acct.plan === 'pro' && acct.planSubscriptionId) throw new AppError(409, 'plan_active', `You already have ${plan.name}`);
  return openCheckout(
    app,
    {
      userId: viewer.user.id,
      kind: 'plan',
      planId: plan.id,
      amountCents: plan.priceCents,
      currency: plan.currency,
      feePercent: 0,
    },
    clientKey,
    async (purchaseId) => {
      const product = await ensurePlanProduct(app.stripe(), plan.id);
      const metadata = { purchase_id: purchaseId, kind: 'plan', plan: plan.id, user: viewer.user.id };
      return {
        ui_mode: 'embedded_page',
        mode: 'subscription',
        customer,
        metadata,
        client_reference_id: purchaseId,
        return_url: returnUrl(app, '/pricing'),
        line_items: [
          {
            quantity: 1,
            price_data: { currency: plan.currency, unit_amount: plan.priceCents, product, recurring: { interval: plan.interval } },
          },
        ],
        subscription_data: { metadata },
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
  const [row] = await db
    .select({ c: course, firstName: user.firstName, lastName: user.lastName })
    .from(course)
    .innerJoin(user, eq(user.id, course.educatorId))
    .where(eq(course.id, courseId))
    .limit(1);
  if (!row || row.c.status !== 'published') throw AppError.notFound('This course does not exist');
  const c = row.c;
  if (c.priceCents <= 0) throw new AppError(400, 'free_course', 'This course is free: enrol from the course page');
  const sessions = await db
    .select()
    .from(courseSession)
    .where(and(eq(courseSession.courseId, c.id), eq(courseSession.status, 'scheduled'), sql`${courseSession.endsOn} >= current_date`))
    .orderBy(asc(courseSession.startsOn));
  const s = courseSessionId ? sessions.find((x) => x.id === courseSessionId) : sessions[0];
  if (!s) throw AppError.notFound('This session does not exist');
  const [first] = await db
    .select({ at: classTime.startsAt })
    .from(classTime)
    .where(eq(classTime.sessionId, s.id))
    .orderBy(asc(classTime.startsAt))
    .limit(1);
  const customer = await ensureCustomer(app, viewer.user);
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
      firstClassAt: first?.at.toISOString() ?? null,
    },
    priceCents: c.priceCents,
    currency: c.currency,
    installments: offered,
    installmentCents: offered ? installmentSchedule(c.priceCents, offered)[offered - 1] : null,
    installmentAmounts: offered ? installmentSchedule(c.priceCents, offered) : null,
    lastInstallmentOn: offered ? installmentDates(today, offered)[offered - 1] : null,
    customer,
  };
}
