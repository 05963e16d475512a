import type Stripe from 'stripe';
import { chargeOutcome } from './cards.js';
import { invoiceDiscount, subscriptionDiscount } from './api/discounts.js';
import type { StripeError } from './errors.js';
import { newId } from './ids.js';
import * as shapes from './shapes.js';
import { emit, get, insert, list, save, type Ctx, type Obj } from './store.js';
import { boundary, days } from './time.js';

/**
 * Money movements: one charge (payment intent + charge), subscriptions and their
 * invoices, dunning (retries at +3, +5, +7 days, then cancellation).
 */

/** Days after the first failed attempt at which an invoice is retried. */
export const RETRY_DAYS = [3, 5, 7];

export interface ChargeRequest {
  customer: string | null;
  paymentMethod: string;
  amount: number;
  currency: string;
  applicationFee: number | null;
  destination: string | null;
  metadata: Record<string, string>;
  description: string | null;
  at: number;
  /** `first`: the card was just entered (checkout); `later`: an off-session renewal. */
  when: 'first' | 'later';
  billingName?: string | null;
}

export interface ChargeResult {
  intent: Obj;
  charge: Obj;
  error: StripeError | null;
}

/** Charges a stored card: creates the payment intent and its charge, emits their events. */
export async function chargeCard(ctx: Ctx, req: ChargeRequest): Promise<ChargeResult> {
  const pm = await get(ctx, req.paymentMethod, 'payment_method', { anyAccount: true });
  const card = pm._sandbox.card as shapes.Card;
  const error = chargeOutcome(card.number, req.when);
  const intent = shapes.paymentIntent({
    amount: req.amount,
    currency: req.currency,
    customer: req.customer,
    payment_method: pm.id,
    application_fee_amount: req.applicationFee,
    destination: req.destination,
    metadata: req.metadata,
    description: req.description,
    created: req.at,
    status: error ? 'requires_payment_method' : 'succeeded',
    latest_charge: null,
  }) as Obj;
  const charge = shapes.charge({
    amount: req.amount,
    currency: req.currency,
    customer: req.customer,
    payment_intent: intent.id,
    payment_method: pm.id,
    card,
    application_fee_amount: req.applicationFee,
    destination: req.destination,
    metadata: req.metadata,
    description: req.description,
    created: req.at,
    receiptBase: ctx.base,
    billing_name: req.billingName ?? null,
    failure: error ? { code: error.body.code!, message: error.message, decline_code: error.body.decline_code } : null,
  }) as Obj;
  intent.latest_charge = charge.id;
  if (error) {
    intent.last_payment_error = { ...error.body, charge: charge.id, payment_method: pm.id };
  }
  await insert(ctx, intent, { parent: req.customer });
  await insert(ctx, charge, { parent: intent.id });
  if (error) {
    await emit(ctx, 'payment_intent.payment_failed', intent);
    await emit(ctx, 'charge.failed', charge);
  } else {
    await emit(ctx, 'payment_intent.succeeded', intent);
    await emit(ctx, 'charge.succeeded', charge);
  }
  return { intent, charge, error };
}

/** Application fee of a subscription charge (application_fee_percent). */
function subscriptionFee(sub: Obj, amount: number): number | null {
  const pct = sub.application_fee_percent as number | null;
  return pct === null || pct === undefined ? null : Math.round((amount * pct) / 100);
}

export interface NewSubscription {
  customer: Obj;
  /** The recurring prices (the subscription's items). */
  prices: { price: Obj; quantity: number }[];
  /** One-time prices billed once, with the first invoice (a Checkout's one-time line items). */
  oneTime?: { price: Obj; quantity: number }[];
  paymentMethod: string;
  metadata: Record<string, string>;
  applicationFeePercent: number | null;
  destination: string | null;
  description: string | null;
  at: number;
  /** A Checkout's coupon / promotion code: becomes the subscription's discount. */
  discount?: { coupon: string; promotion_code: string | null; checkoutSession: string } | null;
}

/** A subscription and its first invoice, paid with the card just entered. */
export async function createSubscription(
  ctx: Ctx,
  p: NewSubscription,
): Promise<{ subscription: Obj; invoice: Obj; payment: ChargeResult }> {
  const id = newId('sub');
  const first = p.prices[0].price as unknown as Stripe.Price;
  const rec = first.recurring ?? { interval: 'month', interval_count: 1 };
  const end = boundary(p.at, rec.interval, rec.interval_count, 1);
  const items = p.prices.map(({ price, quantity }) => shapes.subscriptionItem(price as unknown as Stripe.Price, id, quantity, p.at, end));
  const sub = shapes.subscription({
    id,
    customer: p.customer.id,
    currency: first.currency,
    default_payment_method: p.paymentMethod,
    test_clock: (p.customer.test_clock as string | null) ?? null,
    metadata: p.metadata,
    application_fee_percent: p.applicationFeePercent,
    destination: p.destination,
    description: p.description,
    created: p.at,
    items,
  }) as Obj;
  sub._sandbox = { period: 0 };
  await insert(ctx, sub, { parent: p.customer.id });
  if (p.discount) {
    const coupon = await get(ctx, p.discount.coupon, 'coupon', { anyAccount: true });
    const di = await subscriptionDiscount(ctx, {
      coupon,
      promotionCode: p.discount.promotion_code,
      subscription: id,
      customer: p.customer.id,
      checkoutSession: p.discount.checkoutSession,
      start: p.at,
    });
    sub.discounts = [di.id];
    await save(ctx, sub);
  }
  await emit(ctx, 'customer.subscription.created', sub);
  const { invoice, payment } = await billSubscription(ctx, sub, 'subscription_create', p.at, end, p.at, p.oneTime);
  return { subscription: (await get(ctx, id, 'subscription', { anyAccount: true })) as Obj, invoice, payment: payment! };
}

/** Creates, finalizes and tries to pay the invoice of one period. */
export async function billSubscription(
  ctx: Ctx,
  sub: Obj,
  reason: Stripe.Invoice.BillingReason,
  periodStart: number,
  periodEnd: number,
  at: number,
  oneTime: { price: Obj; quantity: number }[] = [],
): Promise<{ invoice: Obj; payment: ChargeResult | null }> {
  const customer = await get(ctx, sub.customer, 'customer', { lock: true, anyAccount: true });
  const seq = (customer.next_invoice_sequence as number) ?? 1;
  customer.next_invoice_sequence = seq + 1;
  await save(ctx, customer);
  const invoice = shapes.invoice({
    customer: customer as unknown as Stripe.Customer,
    subscription: sub as unknown as Stripe.Subscription,
    billing_reason: reason,
    created: at,
    period_start: periodStart,
    period_end: periodEnd,
    number: `${customer.invoice_prefix}-${String(seq).padStart(4, '0')}`,
    baseUrl: ctx.base,
    oneTime: oneTime.map((o) => ({ price: o.price as unknown as Stripe.Price, quantity: o.quantity })),
  }) as Obj;
  invoice._sandbox = { firstAttemptAt: null };
  // The subscription's discount, for as long as its coupon lasts: Stripe's invoice-level discount.
  const off = await invoiceDiscount(ctx, sub, invoice.subtotal, reason === 'subscription_create', periodStart);
  if (off && off.amount > 0) {
    invoice.discounts = [off.discount];
    invoice.total_discount_amounts = [{ amount: off.amount, discount: off.discount }];
    invoice.total = invoice.subtotal - off.amount;
    invoice.total_excluding_tax = invoice.total;
    invoice.amount_due = invoice.total;
    invoice.amount_remaining = invoice.total;
  }
  await insert(ctx, invoice, { parent: sub.id });
  await emit(ctx, 'invoice.created', invoice);
  await emit(ctx, 'invoice.finalized', invoice);
  sub.latest_invoice = invoice.id;
  await save(ctx, sub);
  const payment = await attemptInvoice(ctx, invoice, sub, at);
  return { invoice: await get(ctx, invoice.id, 'invoice', { anyAccount: true }), payment };
}

/** One payment attempt of an open invoice (first try or a retry). */
export async function attemptInvoice(ctx: Ctx, invoice: Obj, sub: Obj, at: number): Promise<ChargeResult | null> {
  const customer = await get(ctx, sub.customer, 'customer', { anyAccount: true });
  const pm = (sub.default_payment_method as string | null) ?? (customer.invoice_settings?.default_payment_method as string | null);
  invoice.attempt_count = (invoice.attempt_count as number) + 1;
  invoice.attempted = true;
  invoice._sandbox ??= {};
  invoice._sandbox.firstAttemptAt ??= at;
  const firstAttemptAt = invoice._sandbox.firstAttemptAt as number;
  let payment: ChargeResult | null = null;
  if (pm) {
    payment = await chargeCard(ctx, {
      customer: customer.id,
      paymentMethod: pm,
      amount: invoice.amount_due,
      currency: invoice.currency,
      applicationFee: subscriptionFee(sub, invoice.amount_due),
      destination: (sub.transfer_data?.destination as string | null) ?? null,
      metadata: {},
      description: invoice.billing_reason === 'subscription_create' ? 'Subscription creation' : 'Subscription update',
      at,
      when: invoice.billing_reason === 'subscription_create' ? 'first' : 'later',
      billingName: customer.name,
    });
  }
  const paid = payment !== null && payment.error === null;
  if (payment) {
    const ip = shapes.invoicePayment({
      invoice: invoice as unknown as Stripe.Invoice,
      payment_intent: payment.intent.id,
      paid_at: paid ? at : null,
      created: at,
    }) as Obj;
    if (!paid) ip.status = 'failed';
    await insert(ctx, ip, { parent: invoice.id });
  }
  if (paid) {
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    invoice.next_payment_attempt = null;
    invoice.status_transitions.paid_at = at;
    await save(ctx, invoice);
    await emit(ctx, 'invoice.paid', invoice);
    await emit(ctx, 'invoice.payment_succeeded', invoice);
    if (sub.status === 'past_due') await setStatus(ctx, sub, 'active');
    return payment;
  }
  // Failed: retry at +3, +5, +7 days after the first attempt, then give up.
  const retryIndex = (invoice.attempt_count as number) - 1;
  const nextRetry = retryIndex < RETRY_DAYS.length ? firstAttemptAt + days(RETRY_DAYS[retryIndex]) : null;
  invoice.next_payment_attempt = nextRetry;
  await save(ctx, invoice);
  await emit(ctx, 'invoice.payment_failed', invoice);
  if (nextRetry === null) {
    await cancelSubscription(ctx, sub, at, 'payment_failed');
  } else if (sub.status === 'active') {
    await setStatus(ctx, sub, 'past_due');
  }
  return payment;
}

async function setStatus(ctx: Ctx, sub: Obj, status: string) {
  const previous = sub.status;
  sub.status = status;
  await save(ctx, sub);
  await emit(ctx, 'customer.subscription.updated', sub, { previousAttributes: { status: previous } });
}

/** Ends a subscription now: canceled, emits customer.subscription.deleted. */
export async function cancelSubscription(
  ctx: Ctx,
  sub: Obj,
  at: number,
  reason: 'cancellation_requested' | 'payment_failed' | 'payment_disputed',
) {
  sub.status = 'canceled';
  sub.canceled_at ??= at;
  sub.ended_at = at;
  sub.cancellation_details = { ...(sub.cancellation_details ?? {}), reason };
  await save(ctx, sub);
  // No more attempts on what is still open.
  const open = await list(ctx, 'invoice', { parent: sub.id, limit: 100, anyAccount: true, where: { status: 'open' } });
  for (const inv of open.data) {
    if (inv.next_payment_attempt !== null) {
      inv.next_payment_attempt = null;
      await save(ctx, inv);
    }
  }
  await emit(ctx, 'customer.subscription.deleted', sub);
}

/** Starts the next billing period at its boundary and bills it. */
export async function renewSubscription(ctx: Ctx, sub: Obj, at: number) {
  const period = ((sub._sandbox?.period as number) ?? 0) + 1;
  const first = sub.items.data[0];
  const rec = first.price.recurring ?? { interval: 'month', interval_count: 1 };
  const start = boundary(sub.billing_cycle_anchor, rec.interval, rec.interval_count, period);
  const end = boundary(sub.billing_cycle_anchor, rec.interval, rec.interval_count, period + 1);
  const previous = {
    items: {
      data: sub.items.data.map((i: Obj) => ({
        id: i.id,
        current_period_start: i.current_period_start,
        current_period_end: i.current_period_end,
      })),
    },
  };
  for (const item of sub.items.data) {
    item.current_period_start = start;
    item.current_period_end = end;
  }
  sub._sandbox = { ...(sub._sandbox ?? {}), period };
  await save(ctx, sub);
  await emit(ctx, 'customer.subscription.updated', sub, { previousAttributes: previous });
  await billSubscription(ctx, sub, 'subscription_cycle', start, end, at);
}
