import type Stripe from 'stripe';
import { expireIfDue, expireSession } from '../checkout.js';
import { invalidRequest, missingParam } from '../errors.js';
import type { Params } from '../params.js';
import * as shapes from '../shapes.js';
import { emit, get, insert, listEnvelope, type Ctx, type Obj } from '../store.js';
import { customerNow } from '../time.js';
import { createPrice, recurringOf } from './customers-and-prices.js';
import { discountOn, resolveDiscounts } from './discounts.js';
import { type Router } from './router.js';

/** Checkout Sessions: create (payment / subscription, embedded or hosted), retrieve, expire. */
export function checkoutRoutes(r: Router) {
  r.post('/checkout/sessions', async ({ ctx, params }) => {
    const mode = params.oneOf('mode', ['payment', 'subscription'] as const, true)!;
    const ui_mode = params.oneOf('ui_mode', ['embedded_page', 'hosted_page', 'elements', 'form'] as const) ?? 'hosted_page';
    const embedded = ui_mode !== 'hosted_page';
    const return_url = params.str('return_url') ?? null;
    const success_url = params.str('success_url') ?? null;
    if (embedded && params.has('success_url'))
      throw invalidRequest('You cannot use `success_url` with `ui_mode` embedded_page. Use `return_url` instead.', {
        param: 'success_url',
      });
    if (embedded && !return_url && params.str('redirect_on_completion') !== 'never') throw missingParam('return_url');
    if (!embedded && params.has('return_url'))
      throw invalidRequest('You can only use `return_url` with an embedded `ui_mode`.', { param: 'return_url' });

    const customerId = params.str('customer') ?? null;
    const customer = customerId ? await get(ctx, customerId, 'customer', { param: 'customer' }) : null;
    const now = await customerNow(ctx, customerId);

    const itemsIn = params.list('line_items');
    if (itemsIn.length === 0) throw missingParam('line_items');
    const lineItems: Stripe.LineItem[] = [];
    for (const item of itemsIn) lineItems.push(await lineItem(ctx, item));
    const currency = lineItems[0].currency;
    if (lineItems.some((li) => li.currency !== currency))
      throw invalidRequest('All line items must use the same currency.', { param: 'line_items' });
    const recurring = lineItems.filter((li) => li.price?.recurring);
    if (mode === 'subscription' && recurring.length === 0) {
      throw invalidRequest('You must provide at least one recurring price in `subscription` mode when using prices.', {
        param: 'line_items',
      });
    }
    if (mode === 'payment' && recurring.length > 0) {
      throw invalidRequest(
        'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.',
        { param: 'line_items' },
      );
    }
    const subtotal = lineItems.reduce((s, li) => s + li.amount_total, 0);
    // One coupon or promotion code: its discount on the (first) payment.
    const applied = await resolveDiscounts(ctx, params.list('discounts'), currency, now);
    const discount = applied ? discountOn(applied.coupon, subtotal) : 0;
    const amount = subtotal - discount;

    const extra: Record<string, unknown> = { line_items: lineItems };
    if (applied) {
      // What a lasting coupon takes off each later payment of the subscription (for the form's "Then ...").
      const monthly = lineItems.filter((li) => li.price?.recurring).reduce((s, li) => s + li.amount_total, 0);
      const later = mode === 'subscription' && applied.coupon.duration !== 'once' ? discountOn(applied.coupon, monthly) : 0;
      extra.discount = { coupon: applied.coupon.id, promotion_code: applied.promotionCode?.id ?? null, later };
    }
    const pid = params.obj('payment_intent_data');
    if (pid) {
      if (mode !== 'payment')
        throw invalidRequest('You can only specify `payment_intent_data` in `payment` mode.', { param: 'payment_intent_data' });
      const fee = pid.int('application_fee_amount') ?? null;
      const destination = await destinationOf(ctx, pid.obj('transfer_data'));
      if (fee !== null && (fee < 0 || fee > amount))
        throw invalidRequest('The application fee amount must be between 0 and the amount of the payment.', {
          param: 'payment_intent_data[application_fee_amount]',
        });
      extra.payment_intent_data = {
        application_fee_amount: fee,
        destination,
        metadata: pid.metadata() ?? {},
        description: pid.str('description') ?? null,
      };
    }
    const sd = params.obj('subscription_data');
    if (sd) {
      if (mode !== 'subscription')
        throw invalidRequest('You can only specify `subscription_data` in `subscription` mode.', { param: 'subscription_data' });
      const pct = sd.num('application_fee_percent') ?? null;
      if (pct !== null && (pct < 0 || pct > 100))
        throw invalidRequest('application_fee_percent must be between 0 and 100.', { param: 'subscription_data[application_fee_percent]' });
      extra.subscription_data = {
        application_fee_percent: pct,
        destination: await destinationOf(ctx, sd.obj('transfer_data')),
        metadata: sd.metadata() ?? {},
        description: sd.str('description') ?? null,
      };
    }
    const expiresAt = params.int('expires_at') ?? now + 24 * 3600;
    const session = shapes.checkoutSession({
      mode,
      customer: customer?.id ?? null,
      customer_email: params.str('customer_email') ?? (customer?.email as string | null) ?? null,
      currency,
      amount,
      subtotal,
      discount: applied ? { amount: discount, coupon: applied.coupon.id, promotion_code: applied.promotionCode?.id ?? null } : null,
      metadata: params.metadata() ?? {},
      return_url,
      success_url,
      cancel_url: params.str('cancel_url') ?? null,
      client_reference_id: params.str('client_reference_id') ?? null,
      ui_mode,
      created: now,
      expires_at: expiresAt,
      payment_method_types: ['card'],
      baseUrl: ctx.base,
    }) as Obj;
    session._sandbox = extra;
    await insert(ctx, session, { parent: customer?.id ?? null });
    return session;
  });

  r.get('/checkout/sessions/:id', async ({ ctx, path }) => {
    const s = await get(ctx, path.id, 'checkout.session');
    await expireIfDue(ctx, s);
    return s;
  });
  r.get('/checkout/sessions/:id/line_items', async ({ ctx, path }) => {
    const s = await get(ctx, path.id, 'checkout.session');
    return listEnvelope(`/v1/checkout/sessions/${s.id}/line_items`, s._sandbox?.line_items ?? []);
  });
  r.post('/checkout/sessions/:id/expire', async ({ ctx, path }) => {
    const s = await get(ctx, path.id, 'checkout.session', { lock: true });
    if (s.status !== 'open') {
      throw invalidRequest(
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${s.status}".`,
        { code: 'checkout_session_inactive' },
      );
    }
    await expireSession(ctx, s);
    return s;
  });
}

/** `transfer_data[destination]`: an existing connected account able to receive transfers. */
async function destinationOf(ctx: Ctx, td: Params | undefined): Promise<string | null> {
  if (!td) return null;
  const id = td.str('destination', true);
  const acct = await get(ctx, id, 'account', { param: `${td.path}[destination]`, anyAccount: true });
  if (acct.capabilities?.transfers !== 'active') {
    throw invalidRequest(
      'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
      { param: `${td.path}[destination]`, code: 'insufficient_capabilities_for_transfer' },
    );
  }
  return id;
}

async function lineItem(ctx: Ctx, item: Params): Promise<Stripe.LineItem> {
  const quantity = item.int('quantity') ?? 1;
  if (quantity < 1) throw invalidRequest('Quantity must be at least 1.', { param: `${item.path}[quantity]` });
  const priceId = item.str('price');
  const pd = item.obj('price_data');
  let price: Obj;
  if (priceId) {
    price = await get(ctx, priceId, 'price', { param: `${item.path}[price]` });
    if (!price.active)
      throw invalidRequest(`The price specified is inactive. This field only accepts active prices.`, { param: `${item.path}[price]` });
  } else if (pd) {
    let product = pd.str('product');
    if (product) await get(ctx, product, 'product', { param: `${pd.path}[product]` });
    else {
      const productData = pd.obj('product_data');
      if (!productData) throw missingParam(`${pd.path}[product]`);
      const p = shapes.product({
        name: productData.str('name', true),
        description: productData.str('description') ?? null,
        metadata: productData.metadata() ?? {},
        active: false,
        created: await customerNow(ctx, null),
      }) as Obj;
      await insert(ctx, p);
      product = p.id;
    }
    // Inline prices are created inactive, as Stripe does.
    price = await createPrice(ctx, {
      product,
      currency: pd.str('currency', true),
      unit_amount: pd.int('unit_amount', true),
      recurring: recurringOf(pd.obj('recurring')),
      metadata: {},
      active: false,
    });
  } else {
    throw invalidRequest('You must specify either `price` or `price_data` in each line item.', { param: `${item.path}[price]` });
  }
  const product = await get(ctx, price.product, 'product', { anyAccount: true });
  return shapes.checkoutLineItem(price as unknown as Stripe.Price, quantity, product.name);
}

export { emit };
