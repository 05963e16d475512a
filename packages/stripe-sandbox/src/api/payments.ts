import { invalidRequest, missingParam } from '../errors.js';
import * as shapes from '../shapes.js';
import type Stripe from 'stripe';
import { emit, get, insert, list, listEnvelope, save, unixNow, type Obj } from '../store.js';
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
    const transferred = charge.amount - (charge.application_fee_amount ?? 0);
    const feeRefunded =
      refundFee && charge.application_fee_amount ? Math.round((charge.application_fee_amount * amount) / charge.amount) : 0;
    refund._sandbox = {
      reversed: reverseTransfer ? Math.round((transferred * amount) / charge.amount) : 0,
      fee_refunded: feeRefunded,
      destination: charge.transfer_data?.destination ?? null,
    };
    await insert(ctx, refund, { parent: charge.id, account: null });
    const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded >= charge.amount;
    await save(ctx, charge);
    await emit(ctx, 'refund.created', refund);
    await emit(ctx, 'charge.refunded', charge, { previousAttributes: previous });
    return refund;
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
