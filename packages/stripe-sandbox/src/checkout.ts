import type Stripe from 'stripe';
import { chargeCard, createSubscription } from './billing.js';
import { redeem } from './api/discounts.js';
import { checkCard, type CardInput } from './cards.js';
import { invalidRequest, StripeError } from './errors.js';
import * as shapes from './shapes.js';
import { emit, get, insert, save, unixNow, type Ctx, type Obj } from './store.js';
import { customerNow } from './time.js';

/**
 * Completing a Checkout Session from the sandbox's form: the card is checked as Stripe
 * would (a decline leaves the session open for another try), then in the same
 * transaction the payment intent and charge (payment mode) or the subscription and its
 * first paid invoice (subscription mode) are created and the session is completed.
 */
export interface CheckoutSubmission extends CardInput {
  clientSecret: string;
  name: string;
  email?: string;
}

export class SessionSecretError extends Error {}

/** The session behind a checkout form, checked against its client secret. */
export async function sessionForForm(ctx: Ctx, id: string, clientSecret: string): Promise<Obj> {
  const session = await get(ctx, id, 'checkout.session', { anyAccount: true });
  if (!clientSecret || session.client_secret !== clientSecret) throw new SessionSecretError('This checkout link is not valid.');
  return session;
}

export async function expireIfDue(ctx: Ctx, session: Obj): Promise<boolean> {
  if (session.status === 'open' && session.expires_at < (await customerNow(ctx, session.customer))) {
    await expireSession(ctx, session);
    return true;
  }
  return false;
}

export async function expireSession(ctx: Ctx, session: Obj) {
  session.status = 'expired';
  await save(ctx, session);
  await emit(ctx, 'checkout.session.expired', session);
}

export async function completeCheckout(ctx: Ctx, id: string, input: CheckoutSubmission): Promise<Obj> {
  const session = await get(ctx, id, 'checkout.session', { lock: true, anyAccount: true });
  if (session.client_secret !== input.clientSecret) throw new SessionSecretError('This checkout link is not valid.');
  if (await expireIfDue(ctx, session)) throw invalidRequest('This Checkout Session has expired.', { code: 'checkout_session_expired' });
  if (session.status !== 'open') throw invalidRequest('This Checkout Session is no longer active.', { code: 'checkout_session_inactive' });
  const now = await customerNow(ctx, session.customer);
  // Throws the card's 402 error (declined, invalid number, expiry ...): nothing is written.
  const card = checkCard(input, now);
  const name = input.name.trim() || null;

  // The customer: given, or created for subscriptions (Stripe always needs one there).
  let customer: Obj | null = session.customer ? await get(ctx, session.customer, 'customer', { lock: true, anyAccount: true }) : null;
  if (!customer && session.mode === 'subscription') {
    customer = shapes.customer({
      email: input.email ?? session.customer_email,
      name,
      description: null,
      phone: null,
      metadata: {},
      test_clock: null,
      created: now,
    }) as Obj;
    await insert(ctx, customer, { account: null });
    await emit(ctx, 'customer.created', customer);
    session.customer = customer.id;
  }
  const pm = shapes.paymentMethod(card, customer?.id ?? null, now) as Obj;
  pm.billing_details.name = name;
  pm._sandbox = { card };
  await insert(ctx, pm, { parent: customer?.id ?? null });
  if (customer) {
    await emit(ctx, 'payment_method.attached', pm);
    // The card of later charges (renewals): the last one entered.
    customer.invoice_settings = { ...customer.invoice_settings, default_payment_method: pm.id };
    await save(ctx, customer);
  }

  const extra = session._sandbox ?? {};
  if (session.mode === 'payment') {
    const pid = extra.payment_intent_data ?? {};
    const { intent, error } = await chargeCard(ctx, {
      customer: customer?.id ?? null,
      paymentMethod: pm.id,
      amount: session.amount_total,
      currency: session.currency,
      applicationFee: pid.application_fee_amount ?? null,
      destination: pid.destination ?? null,
      metadata: pid.metadata ?? {},
      description: pid.description ?? null,
      at: now,
      when: 'first',
      billingName: name,
    });
    if (error) throw error;
    session.payment_intent = intent.id;
  } else {
    const sd = extra.subscription_data ?? {};
    const all: { price: Obj; quantity: number }[] = (extra.line_items as Stripe.LineItem[]).map((li) => ({
      price: li.price as unknown as Obj,
      quantity: li.quantity ?? 1,
    }));
    // As Stripe: the recurring prices become the subscription's items; one-time prices are
    // billed once, on the first invoice.
    const { subscription, invoice, payment } = await createSubscription(ctx, {
      customer: customer!,
      prices: all.filter((p) => p.price.recurring),
      oneTime: all.filter((p) => !p.price.recurring),
      paymentMethod: pm.id,
      metadata: sd.metadata ?? {},
      applicationFeePercent: sd.application_fee_percent ?? null,
      destination: sd.destination ?? null,
      description: sd.description ?? null,
      at: now,
      discount: extra.discount ? { ...extra.discount, checkoutSession: session.id } : null,
    });
    if (payment.error) throw payment.error;
    session.subscription = subscription.id;
    session.invoice = invoice.id;
  }
  // The coupon (and promotion code) is redeemed once the session completes, as Stripe counts it.
  if (extra.discount) await redeem(ctx, extra.discount);
  session.status = 'complete';
  session.payment_status = 'paid';
  session.customer_details = {
    address: null,
    business_name: null,
    email: input.email ?? customer?.email ?? session.customer_email ?? null,
    individual_name: null,
    name,
    phone: null,
    tax_exempt: 'none',
    tax_ids: [],
  };
  session.collected_information = { business_name: null, individual_name: null, shipping_details: null };
  await save(ctx, session);
  await emit(ctx, 'checkout.session.completed', session);
  return session;
}

/** Where the buyer goes after paying: return_url with {CHECKOUT_SESSION_ID} filled in. */
export function returnUrl(session: Obj): string | null {
  const url = (session.return_url as string | undefined) ?? (session.success_url as string | null);
  return url ? url.replace(/\{CHECKOUT_SESSION_ID\}/g, session.id) : null;
}

export { StripeError, unixNow };
