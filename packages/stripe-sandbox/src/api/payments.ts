import { sql } from 'drizzle-orm';
import { invalidRequest, missingParam, noSuch } from '../errors.js';
import { sandboxObject } from '../schema.js';
import * as shapes from '../shapes.js';
import type Stripe from 'stripe';
import { emit, find, get, insert, list, listEnvelope, save, unixNow, type Ctx, type Obj } from '../store.js';
import { page, type Router } from './router.js';

const money = (cents: number, currency: string) =>
  `${currency === 'usd' ? '$' : ''}${(cents / 100).toFixed(2)}${currency === 'usd' ? '' : ' ' + currency.toUpperCase()}`;

/** Payment intents and charges (read), refunds (create, read). */
export function paymentRoutes(r: Router) {
  r.get('/payment_intents/:id', ({ ctx, path }) => get(ctx, path.id, 'payment_intent', { anyAccount: true }));
  r.get('/payment_intents', async ({ ctx, params }) => {
    const { data, hasMore } = await list(ctx, 'payment_intent', {
      ...page(params),
      where: { customer: params.str('customer') },
      anyAccount: true,
    });
    return listEnvelope('/v1/payment_intents', data, hasMore);
  });
  r.get('/charges/:id', ({ ctx, path }) => get(ctx, path.id, 'charge', { anyAccount: true }));
  r.get('/charges', async ({ ctx, params }) => {
    const { data, hasMore } = await list(ctx, 'charge', {
      ...page(params),
      where: { customer: params.str('customer'), payment_intent: params.str('payment_intent') },
      anyAccount: true,
    });
    return listEnvelope('/v1/charges', data, hasMore);
  });

  r.post('/refunds', async ({ ctx, params }) => {
    const chargeId = params.str('charge');
    const intentId = params.str('payment_intent');
    if (!chargeId && !intentId) throw missingParam('charge');
    let charge: Obj;
    if (chargeId) charge = await get(ctx, chargeId, 'charge', { lock: true, param: 'charge', anyAccount: true });
    else {
      const pi = await get(ctx, intentId!, 'payment_intent', { param: 'payment_intent', anyAccount: true });
      if (pi.status !== 'succeeded' || !pi.latest_charge) {
        throw invalidRequest(`This PaymentIntent (${pi.id}) does not have a successful charge to refund.`, {
          code: 'charge_not_refundable',
          param: 'payment_intent',
        });
      }
      charge = await get(ctx, pi.latest_charge, 'charge', { lock: true, anyAccount: true });
    }
    if (!charge.paid)
      throw invalidRequest(`Charge ${charge.id} has not been paid and cannot be refunded.`, { code: 'charge_not_refundable' });
    const rest = charge.amount - charge.amount_refunded;
    if (rest <= 0) throw invalidRequest(`Charge ${charge.id} has already been refunded.`, { code: 'charge_already_refunded' });
    const amount = params.int('amount') ?? rest;
    if (amount <= 0) throw invalidRequest('Invalid positive integer', { param: 'amount', code: 'parameter_invalid_integer' });
    if (amount > rest) {
      throw invalidRequest(
        `Refund amount (${money(amount, charge.currency)}) is greater than unrefunded amount on charge (${money(rest, charge.currency)})`,
        { param: 'amount', code: 'amount_too_large' },
      );
    }
    const reverseTransfer = params.bool('reverse_transfer') ?? false;
    const refundFee = params.bool('refund_application_fee') ?? false;
    if ((reverseTransfer || refundFee) && !charge.transfer_data) {
      throw invalidRequest('You can only reverse transfers or refund application fees on charges with a destination.', {
        param: reverseTransfer ? 'reverse_transfer' : 'refund_application_fee',
      });
    }
    const reason = params.oneOf('reason', ['duplicate', 'fraudulent', 'requested_by_customer'] as const) ?? null;
    const refund = shapes.refund({
      amount,
      charge: charge as unknown as Stripe.Charge,
      metadata: params.metadata() ?? {},
      reason,
      created: unixNow(),
      reverse_transfer: reverseTransfer,
    }) as Obj;
    // Connect bookkeeping for the Express dashboard: what goes back from the account.
    // Stripe: a full refund with refund_application_fee returns the whole fee, a partial one the
    // fee in proportion to the amount refunded. Counted on the running total, so partial
    // refunds that add up to the whole charge return exactly the whole fee.
    const transferred = charge.amount - (charge.application_fee_amount ?? 0);
    const fee = charge.application_fee_amount ?? 0;
    const feeBefore = charge._sandbox?.fee_refunded ?? 0;
    const feeAfter = refundFee && fee ? Math.round((fee * (charge.amount_refunded + amount)) / charge.amount) : feeBefore;
    const feeRefunded = Math.max(0, Math.min(fee, feeAfter) - feeBefore);
    refund._sandbox = {
      reversed: reverseTransfer ? Math.round((transferred * amount) / charge.amount) : 0,
      fee_refunded: feeRefunded,
      destination: charge.transfer_data?.destination ?? null,
    };
    await insert(ctx, refund, { parent: charge.id, account: null });
    const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded >= charge.amount;
    charge._sandbox = { ...(charge._sandbox ?? {}), fee_refunded: feeBefore + feeRefunded };
    await save(ctx, charge);
    await emit(ctx, 'refund.created', refund);
    await emit(ctx, 'charge.refunded', charge, { previousAttributes: previous });
    return refund;
  });
  // Application fees (the platform's fee on a destination charge), as Stripe shows them:
  // `amount_refunded` grows with refunds made with refund_application_fee.
  r.get('/application_fees/:id', async ({ ctx, path }) => {
    const charge = path.id.startsWith('fee_') ? await find(ctx, `ch_${path.id.slice(4)}`, 'charge', { anyAccount: true }) : null;
    if (!charge || charge.application_fee !== path.id) throw noSuch('application_fee', path.id);
    return applicationFee(ctx, charge);
  });
  r.get('/application_fees', async ({ ctx, params }) => {
    const chargeId = params.str('charge');
    const { data, hasMore } = await list(ctx, 'charge', {
      ...page(params),
      where: chargeId ? { id: chargeId } : {},
      extra: sql`${sandboxObject.data}->>'application_fee' is not null`,
      anyAccount: true,
    });
    return listEnvelope('/v1/application_fees', await Promise.all(data.map((c) => applicationFee(ctx, c))), hasMore);
  });

  r.get('/refunds/:id', ({ ctx, path }) => get(ctx, path.id, 'refund', { anyAccount: true }));
  r.get('/refunds', async ({ ctx, params }) => {
    const { data, hasMore } = await list(ctx, 'refund', {
      ...page(params),
      where: { charge: params.str('charge'), payment_intent: params.str('payment_intent') },
      anyAccount: true,
    });
    return listEnvelope('/v1/refunds', data, hasMore);
  });
}

/** The application fee of a destination charge, with its refunds (Stripe's `application_fee`). */
async function applicationFee(ctx: Ctx, charge: Obj): Promise<Stripe.ApplicationFee> {
  const refunds = (await list(ctx, 'refund', { parent: charge.id, anyAccount: true, limit: 100 })).data;
  const feeRefunds = refunds
    .filter((r) => (r._sandbox?.fee_refunded ?? 0) > 0)
    .map((r) => ({
      id: `fr_${r.id.slice(3)}`,
      object: 'fee_refund' as const,
      amount: r._sandbox.fee_refunded as number,
      balance_transaction: null,
      created: r.created as number,
      currency: charge.currency as string,
      fee: charge.application_fee as string,
      metadata: {},
    }));
  const amountRefunded = charge._sandbox?.fee_refunded ?? 0;
  const amount = charge.application_fee_amount ?? 0;
  return {
    id: charge.application_fee,
    object: 'application_fee',
    account: charge.transfer_data?.destination ?? null,
    amount,
    amount_refunded: amountRefunded,
    application: 'ca_sandbox',
    balance_transaction: null,
    charge: charge.id,
    created: charge.created,
    currency: charge.currency,
    fee_source: { charge: charge.id, type: 'charge' },
    livemode: false,
    originating_transaction: null,
    refunded: amount > 0 && amountRefunded >= amount,
    refunds: { object: 'list', data: feeRefunds, has_more: false, url: `/v1/application_fees/${charge.application_fee}/refunds` },
  } as unknown as Stripe.ApplicationFee;
}
