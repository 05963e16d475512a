import type Stripe from 'stripe';
import { idOf } from './provider-calls.js';

/** What the provider says about one paid invoice (or the one payment of a checkout). */
export interface PaidFacts {
  chargeId: string | null;
  paymentIntentId: string | null;
  invoiceId: string | null;
  amountCents: number;
  currency: string;
  feeCents: number | null;
  receiptUrl: string | null;
  paidAt: Date;
}

/** The charge of a payment intent (its latest charge), read separately (no `expand`). */
export async function chargeFacts(stripe: Stripe, paymentIntentId: string | null) {
  if (!paymentIntentId) return { charge: null as Stripe.Charge | null, pi: null as Stripe.PaymentIntent | null };
  const pi = await stripe.paymentIntents.retrieve(paymentIntentId);
  const chargeId = idOf(pi.latest_charge);
  const charge = chargeId ? await stripe.charges.retrieve(chargeId) : null;
  return { charge, pi };
}

/** A paid invoice: its payment intent (invoice payments), charge and receipt. */
export async function invoiceFacts(stripe: Stripe, invoice: Stripe.Invoice): Promise<PaidFacts> {
  let paymentIntentId: string | null = null;
  let charge: Stripe.Charge | null = null;
  try {
    const payments = await stripe.invoicePayments.list({ invoice: invoice.id!, limit: 10 });
    const paid = payments.data.find((p) => p.status === 'paid') ?? payments.data[0];
    paymentIntentId = idOf(paid?.payment?.payment_intent ?? null);
    const directCharge = idOf(paid?.payment?.charge ?? null);
    if (paymentIntentId) charge = (await chargeFacts(stripe, paymentIntentId)).charge;
    else if (directCharge) charge = await stripe.charges.retrieve(directCharge);
  } catch {
    // Older shapes: the invoice names its charge / payment intent itself.
    const legacy = invoice as unknown as { charge?: string | { id: string } | null; payment_intent?: string | { id: string } | null };
    paymentIntentId = idOf(legacy.payment_intent ?? null);
    const chargeId = idOf(legacy.charge ?? null);
    if (chargeId) charge = await stripe.charges.retrieve(chargeId).catch(() => null);
    else if (paymentIntentId) charge = (await chargeFacts(stripe, paymentIntentId).catch(() => ({ charge: null }))).charge;
  }
  const paidAtSec = invoice.status_transitions?.paid_at ?? charge?.created ?? Math.floor(Date.now() / 1000);
  return {
    chargeId: charge?.id ?? null,
    paymentIntentId: paymentIntentId ?? idOf(charge?.payment_intent ?? null),
    invoiceId: invoice.id ?? null,
    amountCents: invoice.amount_paid,
    currency: invoice.currency,
    feeCents: null,
    receiptUrl: charge?.receipt_url ?? invoice.hosted_invoice_url ?? null,
    paidAt: new Date(paidAtSec * 1000),
  };
}
