import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, smallint, text, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { learnerProfile, user } from './accounts.js';
import { ts } from './columns.js';
import { course, courseSession, enrolment } from './courses.js';

/**
 * Payments (issue 4). Our own record of what was bought and paid; the card provider
 * (Stripe, or the local payments sandbox) stays the source of truth for money, and every
 * webhook is only a trigger to re-read the provider's object. See
 * docs/decisions/0006-payments.md.
 */

/** Every provider event we received: processed once (id is the provider's event id). */
export const stripeEvent = pgTable('stripe_event', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  /** The Connect account the event came from (Connect webhooks), if any. */
  account: text('account'),
  receivedAt: ts('received_at').notNull().defaultNow(),
  processedAt: ts('processed_at'),
  /** Last processing error (the provider retries; the next delivery processes again). */
  error: text('error'),
});

/**
 * One checkout: a learner buying a seat in a course session (one payment or N monthly
 * installments), or an educator buying a platform plan. Created before the provider's
 * checkout session; its id is the idempotency key of every provider call it makes.
 */
export const purchase = pgTable(
  'purchase',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** course_payment | course_installments | plan */
    kind: text('kind').notNull(),
    courseId: uuid('course_id').references(() => course.id, { onDelete: 'set null' }),
    courseSessionId: uuid('session_id').references(() => courseSession.id, { onDelete: 'set null' }),
    /** The educator paid out (destination of the charges); null for platform plans. */
    educatorId: uuid('educator_id').references(() => user.id, { onDelete: 'set null' }),
    planId: text('plan_id'),
    enrolmentId: uuid('enrolment_id').references(() => enrolment.id, { onDelete: 'set null' }),
    /** What the buyer agreed to pay in total, in the smallest currency unit. */
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    /** Installment plans: number of monthly payments and the amount of each. */
    installments: smallint('installments'),
    installmentCents: integer('installment_cents'),
    /** Platform fee percent applied (10 by default, less with Educator Pro). */
    feePercent: integer('fee_percent').notNull(),
    checkoutSessionId: text('checkout_session_id'),
    paymentIntentId: text('payment_intent_id'),
    subscriptionId: text('subscription_id'),
    /**
     * open (checkout not finished) | fulfilled (seat or plan given) | past_due (an
     * installment failed) | completed (every installment paid) | refunded (money returned,
     * e.g. the last seat went to someone else) | cancelled (dropped / plan ended) | expired
     */
    status: text('status').notNull().default('open'),
    /**
     * The client's Idempotency-Key of the checkout call: a retried call (same user, same
     * key) answers the same checkout session instead of opening a second purchase.
     */
    idempotencyKey: text('idempotency_key'),
    /** Why the purchase did not fulfil (shown to the buyer), e.g. "This session is full". */
    failureReason: text('failure_reason'),
    /**
     * A promo code used at checkout (ADR 0070): `amount_cents` is then the discounted price and
     * `discount_cents` what the code took off (the list price is their sum).
     */
    promoCodeId: uuid('promo_code_id').references((): AnyPgColumn => promoCode.id, { onDelete: 'set null' }),
    discountCents: integer('discount_cents').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    fulfilledAt: ts('fulfilled_at'),
  },
  (t) => [
    uniqueIndex('purchase_checkout_session_idx').on(t.checkoutSessionId),
    uniqueIndex('purchase_subscription_idx').on(t.subscriptionId),
    uniqueIndex('purchase_idempotency_idx').on(t.userId, t.idempotencyKey),
    index('purchase_user_idx').on(t.userId, t.createdAt),
    index('purchase_educator_idx').on(t.educatorId, t.createdAt),
    index('purchase_enrolment_idx').on(t.enrolmentId),
    check('purchase_kind_valid', sql`${t.kind} in ('course_payment', 'course_installments', 'plan')`),
    check('purchase_amount_positive', sql`${t.amountCents} > 0`),
  ],
);

/**
 * Money received: the one payment of a purchase, or one paid installment invoice. One row
 * per provider charge (unique), so a replayed event never counts money twice.
 */
export const payment = pgTable(
  'payment',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    purchaseId: uuid('purchase_id')
      .notNull()
      .references(() => purchase.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    educatorId: uuid('educator_id').references(() => user.id, { onDelete: 'set null' }),
    /** Provider ids: the charge (unique), its payment intent, the invoice (installments). */
    chargeId: text('charge_id'),
    paymentIntentId: text('payment_intent_id'),
    invoiceId: text('invoice_id'),
    /** 1..N for installments, 1 for a one-time payment. */
    sequence: smallint('sequence').notNull().default(1),
    amountCents: integer('amount_cents').notNull(),
    /** The platform's application fee; the educator receives amount - fee - refunds. */
    feeCents: integer('fee_cents').notNull(),
    refundedCents: integer('refunded_cents').notNull().default(0),
    /**
     * The part of the platform's fee given back with refunds (the provider's application
     * fee `amount_refunded`): all of it on a full refund, in proportion on a partial one.
     * The educator's net is amount - fee - refunded + fee refunded (decision 0017).
     */
    feeRefundedCents: integer('fee_refunded_cents').notNull().default(0),
    currency: text('currency').notNull(),
    receiptUrl: text('receipt_url'),
    paidAt: ts('paid_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payment_charge_idx').on(t.chargeId),
    uniqueIndex('payment_invoice_idx').on(t.invoiceId),
    index('payment_user_idx').on(t.userId, t.paidAt),
    index('payment_educator_idx').on(t.educatorId, t.paidAt),
    index('payment_purchase_idx').on(t.purchaseId),
    check('payment_refund_range', sql`${t.refundedCents} between 0 and ${t.amountCents}`),
  ],
);

/**
 * A refund (and/or installment cancel) we owe at the provider: written in the transaction
 * that plans it (a drop, a cancelled session), carried out after the commit and deleted
 * once the provider has done every step. A failed step stays here and is retried with
 * back-off by the payments plugin's timer (src/server/payments/refund-due.ts), each
 * refund always with the same idempotency key, so a retry never refunds twice.
 */
export const refundDue = pgTable(
  'refund_due',
  {
    purchaseId: uuid('purchase_id')
      .primaryKey()
      .references(() => purchase.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** What is still owed, in the smallest currency unit (the sum of the plan's remaining refunds). */
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    /** The remaining steps (RefundPlan of refund-policy.ts), each item with its idempotency key. */
    plan: jsonb('plan').$type<Record<string, unknown>>().notNull(),
    /** Failed attempts so far (the back-off grows with them). */
    attempts: integer('attempts').notNull().default(0),
    /** When a worker may take it next (also a lease while one is carrying it out). */
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('refund_due_next_idx').on(t.nextAttemptAt), index('refund_due_user_idx').on(t.userId)],
);

/** The educator's Connect account state, as last read from the provider. */
export const payoutAccount = pgTable('payout_account', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  accountId: text('account_id').notNull().unique(),
  chargesEnabled: boolean('charges_enabled').notNull().default(false),
  payoutsEnabled: boolean('payouts_enabled').notNull().default(false),
  detailsSubmitted: boolean('details_submitted').notNull().default(false),
  /** Requirements currently due (provider field names), shown on the dashboard. */
  requirementsDue: jsonb('requirements_due')
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  /** Platform plan: 'standard' or 'pro' (lower fee); set by a paid plan subscription. */
  plan: text('plan').notNull().default('standard'),
  planSubscriptionId: text('plan_subscription_id'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * Promo codes (ADR 0070): an educator's, for one of their courses (all its sessions or some),
 * or the platform's (no educator, no course: any course). Percent off or an amount off in one
 * currency; valid from `starts_at` to `ends_at` (or `ended_at`, ended early); at most `max_uses`
 * uses, once per person. `uses` counts the reservations and confirmed uses together: a checkout
 * reserves one with a conditional UPDATE (`uses < max_uses`), so the last use goes once. The
 * provider's coupon and promotion code are made with it.
 */
export const promoCode = pgTable(
  'promo_code',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** What learners type, stored in capitals (codes are case-insensitive). */
    code: text('code').notNull(),
    educatorId: uuid('educator_id').references(() => user.id, { onDelete: 'cascade' }),
    courseId: uuid('course_id').references(() => course.id, { onDelete: 'cascade' }),
    /** Some sessions of the course only; null = all of them. */
    sessionIds: uuid('session_ids').array(),
    percentOff: smallint('percent_off'),
    amountOffCents: integer('amount_off_cents'),
    /** The currency of an amount off (the course's for an educator's code). */
    currency: text('currency'),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    endedAt: ts('ended_at'),
    maxUses: integer('max_uses').notNull(),
    uses: integer('uses').notNull().default(0),
    providerCouponId: text('provider_coupon_id'),
    providerPromotionCodeId: text('provider_promotion_code_id'),
    createdBy: uuid('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('promo_code_code_idx').on(t.code),
    index('promo_code_educator_idx').on(t.educatorId, t.createdAt),
    index('promo_code_course_idx').on(t.courseId),
    check('promo_code_kind', sql`(${t.percentOff} is null) <> (${t.amountOffCents} is null)`),
    check('promo_code_percent_range', sql`${t.percentOff} is null or ${t.percentOff} between 1 and 90`),
    check('promo_code_amount_positive', sql`${t.amountOffCents} is null or (${t.amountOffCents} > 0 and ${t.currency} is not null)`),
    check('promo_code_uses_range', sql`${t.uses} between 0 and ${t.maxUses}`),
    check('promo_code_dates', sql`${t.endsAt} > ${t.startsAt}`),
    check('promo_code_owner', sql`${t.courseId} is null or ${t.educatorId} is not null`),
  ],
);

/**
 * One use of a promo code by a person for one checkout: `reserved` when the checkout opens,
 * `confirmed` when it is paid, `released` when it expires or is refused (the use goes back).
 * At most one live (reserved or confirmed) use per code and person: the partial unique index.
 */
export const promoRedemption = pgTable(
  'promo_redemption',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    promoCodeId: uuid('promo_code_id')
      .notNull()
      .references(() => promoCode.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    purchaseId: uuid('purchase_id')
      .notNull()
      .references(() => purchase.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('reserved'),
    discountCents: integer('discount_cents').notNull(),
    currency: text('currency').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('promo_redemption_purchase_idx').on(t.purchaseId),
    uniqueIndex('promo_redemption_once_idx')
      .on(t.promoCodeId, t.userId)
      .where(sql`${t.status} <> 'released'`),
    check('promo_redemption_status', sql`${t.status} in ('reserved', 'confirmed', 'released')`),
  ],
);

/**
 * The seats of a purchase made for several learners of one account (issue 26 part 3, ADR 0074):
 * one row per seat, in the order the shares were split (`position` 1..N). A purchase without
 * rows is one seat for the account holder (as before). `share_cents` is this learner's part of
 * what the purchase costs in all (the total's cents split by `splitShares`: the sum of the
 * shares is the purchase's amount exactly); `first_cents` its part of the first payment and
 * `later_cents` of each later installment (one payment: first = share, later 0). The seat's
 * enrolment is set once fulfilled; `dropped` once that learner alone left (the refund planned
 * from the seat's part of what was paid, the installments lowered by `later_cents`).
 */
export const purchaseSeat = pgTable(
  'purchase_seat',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    purchaseId: uuid('purchase_id')
      .notNull()
      .references(() => purchase.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    /** The learner profile (accounts' `learner_profile`) seated; null: the account holder. */
    learnerProfileId: uuid('learner_profile_id').references(() => learnerProfile.id, { onDelete: 'set null' }),
    enrolmentId: uuid('enrolment_id').references(() => enrolment.id, { onDelete: 'set null' }),
    shareCents: integer('share_cents').notNull(),
    firstCents: integer('first_cents').notNull(),
    laterCents: integer('later_cents').notNull().default(0),
    /** open (not paid yet) | seated | refused (the seats were gone: all refunded) | dropped */
    status: text('status').notNull().default('open'),
    droppedAt: ts('dropped_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('purchase_seat_position_idx').on(t.purchaseId, t.position),
    index('purchase_seat_enrolment_idx')
      .on(t.enrolmentId)
      .where(sql`${t.enrolmentId} is not null`),
    check('purchase_seat_status', sql`${t.status} in ('open', 'seated', 'refused', 'dropped')`),
    check('purchase_seat_amounts', sql`${t.shareCents} >= 0 and ${t.firstCents} >= 0 and ${t.laterCents} >= 0`),
  ],
);
