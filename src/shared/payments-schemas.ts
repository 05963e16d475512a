import { z } from 'zod';
import { INT32_MAX, str } from './input-schemas.js';
import { PLAN_IDS } from './payments.js';

/**
 * Request and response schemas of the payments API (spec section 7: paths and payload
 * field names kept to the letter; `session` is ours, added to name the course session).
 */
const id = (label: string) =>
  str({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(255, `${label} is too long`);
const uuid = (label: string) => z.string({ error: `${label} is required` }).uuid(`${label} is not valid`);
const cents = (label: string) =>
  z
    .number({ error: `${label} is required` })
    .int(`${label} must be a whole number of cents`)
    .min(1, `${label} must be positive`)
    .max(INT32_MAX, `${label} is too high`);

export const createCustomerInput = z.object({
  email: z.string({ error: 'Email is required' }).trim().email('Enter a valid email'),
  name: str({ error: 'Name is required' }).trim().min(1, 'Name is required').max(200),
});
/** A list with the customer's id (spec: "returns a list with id"). */
export const createCustomerResult = z.array(z.object({ id: z.string() }));

export const createProductInput = z.object({
  name: str({ error: 'Name is required' }).trim().min(1, 'Name is required').max(250),
  /** The course this product sells (ours); without it a plain product for the caller. */
  course: uuid('Course').optional(),
});
export const createProductResult = z.object({ id: z.string(), name: z.string() });

export const courseCheckoutInput = z.object({
  customer: id('Customer'),
  course: uuid('Course'),
  /** The session (run) of the course being bought. */
  session: uuid('Session'),
  /** The course price the buyer saw, in cents; must equal ours (never trusted). */
  price: cents('Price'),
  /** A promo code (ADR 0070): checked again here, refused with a message on `code`. */
  code: str().trim().max(64, 'This code does not exist').optional(),
  /**
   * Whom the seats are for (ADR 0074): learner profile ids of the account, `me` for the account
   * holder; a seat each, the price times the learners. Absent: one seat for the holder.
   */
  learnerIds: z
    .array(z.union([z.literal('me'), z.uuid('Choose learners from your profiles')]), { error: 'Choose who the seats are for' })
    .min(1, 'Choose at least one learner')
    .max(10, 'Choose at most 10 learners')
    .optional(),
});
export const courseSubscriptionInput = courseCheckoutInput.extend({
  installments: z
    .number({ error: 'Installments is required' })
    .int('Installments must be a whole number')
    .min(2, 'Installments must be between 2 and 24')
    .max(24, 'Installments must be between 2 and 24'),
});
export const planCheckoutInput = z.object({
  customer: id('Customer'),
  product: z.enum(PLAN_IDS, { error: 'Choose a plan from the list' }),
  price: cents('Price'),
});
/** Answer of every create-...-checkout call. */
export const checkoutResult = z.object({
  clientSecret: z.string(),
  sessionId: z.string(),
  /** Sandbox mode only: the sandbox's checkout form, shown where Embedded Checkout would be. */
  sandboxUrl: z.string().nullable(),
});
export type CheckoutResult = z.infer<typeof checkoutResult>;

export const verifySessionQuery = z.object({ session_id: str().trim().min(1).max(255).optional() });
export const verifySessionResult = z.object({
  /** Provider's checkout session status. */
  status: z.enum(['open', 'complete', 'expired']),
  paymentStatus: z.enum(['paid', 'unpaid', 'no_payment_required']),
  kind: z.enum(['course_payment', 'course_installments', 'plan']),
  /** Our purchase: fulfilled once the seat (or plan) is given; refunded if the seat was gone. */
  purchase: z.object({
    id: z.string(),
    status: z.enum(['open', 'fulfilled', 'past_due', 'completed', 'refunded', 'cancelled', 'expired']),
    amountCents: z.number(),
    currency: z.string(),
    installments: z.number().nullable(),
    /** Each monthly payment after the first (the first is amountCents minus the others). */
    installmentCents: z.number().nullable(),
    failureReason: z.string().nullable(),
  }),
  course: z.object({ id: z.string(), title: z.string() }).nullable(),
  session: z.object({ id: z.string(), startsOn: z.string(), endsOn: z.string() }).nullable(),
  enrolment: z.object({ id: z.string(), status: z.string() }).nullable(),
  plan: z.object({ id: z.string(), name: z.string() }).nullable(),
});
export type VerifySessionResult = z.infer<typeof verifySessionResult>;

export const createAccountInput = z.object({
  email: z.string({ error: 'Email is required' }).trim().email('Enter a valid email'),
  user_id: uuid('User'),
});
export const createAccountResult = z.object({ stripe_connect_account_id: z.string() });
export const accountLinkInput = z.object({ stripe_connect_account_id: id('Account') });
export const linkResult = z.object({ url: z.string() });

/** GET /api/stripe/config: what the checkout page needs to load the right form. */
export const paymentsConfigResult = z.object({
  mode: z.enum(['stripe', 'sandbox']),
  publishableKey: z.string(),
  /** The caller's customer id (created on demand), so pages can send it back. */
  customer: z.string().nullable(),
});

/**
 * GET /api/pricing: the platform's fees as the server charges them (the standard fee is its
 * PLATFORM_FEE_PERCENT) and the plans on sale. The web app shows fees from this answer only.
 */
/** One fee as the pages say it: "10% per sale", or one line per kind of sale when their fees differ. */
export const feeLine = z.object({ label: z.string(), feePercent: z.number() });
export type FeeLine = z.infer<typeof feeLine>;

export const pricingResult = z.object({
  /** Without a plan: the percent of a sale paid at once the platform keeps, and every fee line (the pages list these). */
  standard: z.object({ feePercent: z.number(), fees: z.array(feeLine) }),
  plans: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      priceCents: z.number(),
      currency: z.string(),
      interval: z.literal('month'),
      /** On a sale paid at once. */
      feePercent: z.number(),
      fees: z.array(feeLine),
      /** What the plan gives, first the fee against the standard one ("Platform fee of 5% instead of 10%"). */
      features: z.array(z.string()),
    }),
  ),
});
export type Pricing = z.infer<typeof pricingResult>;

/** GET /api/course/:courseID/checkout?session=: the order summary. */
export const checkoutSummary = z.object({
  course: z.object({
    id: z.string(),
    title: z.string(),
    /** The course's category: its generated cover is drawn from id, title and category, as everywhere else. */
    category: z.string(),
    coverUrl: z.string().nullable(),
    educatorName: z.string(),
    refundPolicy: z.string(),
  }),
  session: z.object({
    id: z.string(),
    startsOn: z.string(),
    endsOn: z.string(),
    timeZone: z.string(),
    seatsLeft: z.number(),
    firstClassAt: z.string().nullable(),
  }),
  priceCents: z.number(),
  currency: z.string(),
  /**
   * The installments offered for this session (the course's number, limited to a minimum
   * payment and to a last payment on or before the session's last day); null: one payment only.
   */
  installments: z.number().nullable(),
  /** Each monthly payment after the first. */
  installmentCents: z.number().nullable(),
  /** Every payment, first (today) to last: they add up to priceCents exactly (the first carries the odd cents). */
  installmentAmounts: z.array(z.number()).nullable(),
  /** The day of the last installment (YYYY-MM-DD) when paying in installments from today. */
  lastInstallmentOn: z.string().nullable(),
  /** A seat offered to the viewer from the waitlist: held for them until then (ISO), else null. */
  seatHeldUntil: z.string().nullable(),
  customer: z.string(),
  /**
   * Whom the seats are for (`?learners=me,<profile id>,...`, ADR 0074), in the order chosen; null:
   * one seat for the account holder. With learners, `totalCents` is the price times them and the
   * installments above are those of the total.
   */
  learners: z.array(z.object({ id: z.string(), name: z.string() })).nullable(),
  totalCents: z.number(),
});
export type CheckoutSummary = z.infer<typeof checkoutSummary>;

/** GET /api/payments: the signed-in user's payment history (settings). */
export const paymentHistoryRow = z.object({
  id: z.string(),
  paidAt: z.string(),
  description: z.string(),
  courseId: z.string().nullable(),
  amountCents: z.number(),
  refundedCents: z.number(),
  currency: z.string(),
  /** "1 of 3" for installments. */
  sequence: z.number(),
  installments: z.number().nullable(),
  receiptUrl: z.string().nullable(),
  purchaseStatus: z.string(),
  /** A refund of this payment we owe and are still making (the provider failed; retried until done). */
  refundPendingCents: z.number(),
});
export const paymentHistory = z.object({ payments: z.array(paymentHistoryRow) });

/** GET /api/educator/payouts: payout account state + sales (educator dashboard). */
export const educatorPayouts = z.object({
  account: z
    .object({
      id: z.string(),
      chargesEnabled: z.boolean(),
      payoutsEnabled: z.boolean(),
      detailsSubmitted: z.boolean(),
      requirementsDue: z.array(z.string()),
    })
    .nullable(),
  plan: z.object({ id: z.string(), feePercent: z.number() }),
  /**
   * One total per currency sold in (sorted by currency code): amounts in different
   * currencies are never added. Net = gross - fee - refunded + fee refunded.
   */
  totals: z.array(
    z.object({
      currency: z.string(),
      grossCents: z.number(),
      feeCents: z.number(),
      refundedCents: z.number(),
      /** The platform's fee given back with refunds (all of it on a full refund). */
      feeRefundedCents: z.number(),
      netCents: z.number(),
      sales: z.number(),
    }),
  ),
  /** Net per day and currency, last 30 days (for the chart). */
  daily: z.array(z.object({ day: z.string(), currency: z.string(), netCents: z.number() })),
  sales: z.array(
    z.object({
      id: z.string(),
      paidAt: z.string(),
      courseId: z.string().nullable(),
      courseTitle: z.string(),
      learnerName: z.string(),
      amountCents: z.number(),
      feeCents: z.number(),
      refundedCents: z.number(),
      feeRefundedCents: z.number(),
      netCents: z.number(),
      currency: z.string(),
      sequence: z.number(),
      installments: z.number().nullable(),
    }),
  ),
});
export type EducatorPayouts = z.infer<typeof educatorPayouts>;

/** GET /api/courses/:courseId/sessions/:sessionId/drop-refund: what a drop would refund now. */
export const dropRefundPreview = z.object({
  /** False for a free seat (nothing was paid). */
  paid: z.boolean(),
  /** What the drop refunds, computed by the code that refunds. */
  amountCents: z.number(),
  /** What was paid and not yet refunded. */
  paidCents: z.number(),
  currency: z.string(),
  /** Everything paid comes back. */
  full: z.boolean(),
  policy: z.string(),
  /** An installment plan: dropping cancels the payments still to come. */
  stopsInstallments: z.boolean(),
});
export type DropRefundPreview = z.infer<typeof dropRefundPreview>;

/** GET /api/payments/installments: the caller's installment plans still running (settings). */
export const myInstallments = z.object({
  plans: z.array(
    z.object({
      purchaseId: z.string(),
      courseId: z.string().nullable(),
      courseTitle: z.string(),
      installments: z.number(),
      paidInstallments: z.number(),
      /** Each monthly payment after the first. */
      installmentCents: z.number(),
      /** The price: what the payments add up to. */
      totalCents: z.number(),
      paidCents: z.number(),
      /** What is still to pay. */
      leftCents: z.number(),
      currency: z.string(),
      /** YYYY-MM-DD of the next payment; null when none is due. */
      nextDueOn: z.string().nullable(),
      nextAmountCents: z.number(),
      pastDue: z.boolean(),
    }),
  ),
  /** The card that pays them (the customer's default), if known. */
  card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
});
export type MyInstallments = z.infer<typeof myInstallments>;

/** POST /api/payments/card-update: where to change the card (the provider's customer portal). */
export const cardUpdate = z.object({ url: z.string() });
export type CardUpdate = z.infer<typeof cardUpdate>;
