import { sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Params } from '../params.js';
import { sandboxObject } from '../schema.js';
import { cancelSubscription } from '../billing.js';
import { advanceClock } from '../clock.js';
import { invalidRequest } from '../errors.js';
import { mergeMetadata } from '../params.js';
import * as shapes from '../shapes.js';
import { emit, get, insert, list, listEnvelope, save, unixNow, type Ctx, type Obj } from '../store.js';
import { createPrice, recurringOf } from './customers-and-prices.js';
import { customerNow } from '../time.js';
import { page, type Router } from './router.js';

/** Subscriptions, invoices, invoice payments, test clocks. */
export function billingRoutes(r: Router) {
  // ── Subscriptions ────────────────────────────────────────────────────────────────
  r.get('/subscriptions/:id', ({ ctx, path }) => get(ctx, path.id, 'subscription', { anyAccount: true }));
  r.get('/subscriptions', async ({ ctx, params }) => {
    const status = params.str('status');
    const { data, hasMore } = await list(ctx, 'subscription', {
      ...page(params),
      anyAccount: true,
      where: {
        customer: params.str('customer'),
        status: status && status !== 'all' ? status : undefined,
        test_clock: params.str('test_clock'),
      },
      // Stripe lists subscriptions that are not canceled unless asked.
      ...(status ? {} : { extra: notCanceled }),
    });
    return listEnvelope('/v1/subscriptions', data, hasMore);
  });
  r.post('/subscriptions/:id', async ({ ctx, path, params }) => {
    const sub = await get(ctx, path.id, 'subscription', { lock: true, anyAccount: true });
    if (sub.status === 'canceled') {
      throw invalidRequest('A canceled subscription can only update its cancellation_details and metadata.', { param: 'id' });
    }
    const proration = params.oneOf('proration_behavior', ['always_invoice', 'create_prorations', 'none'] as const) ?? 'create_prorations';
    const previous: Record<string, unknown> = {};
    const itemsIn = params.list('items');
    if (itemsIn.length) {
      previous.items = { data: sub.items.data.map((i: Obj) => ({ id: i.id, price: i.price, quantity: i.quantity })) };
      await updateItems(ctx, sub, itemsIn, proration);
    }
    if (params.has('cancel_at')) {
      previous.cancel_at = sub.cancel_at;
      const at = params.int('cancel_at') ?? null;
      if (at !== null && at < (await customerNow(ctx, sub.customer)))
        throw invalidRequest('cancel_at must be in the future.', { param: 'cancel_at' });
      sub.cancel_at = at;
      sub.cancel_at_period_end = false;
    }
    if (params.has('cancel_at_period_end')) {
      previous.cancel_at_period_end = sub.cancel_at_period_end;
      sub.cancel_at_period_end = params.bool('cancel_at_period_end') ?? false;
      if (sub.cancel_at_period_end) sub.cancel_at = Math.min(...sub.items.data.map((i: Obj) => i.current_period_end));
      else if (!params.has('cancel_at')) sub.cancel_at = null;
    }
    if (sub.cancel_at !== previous.cancel_at && (sub.cancel_at || sub.cancel_at_period_end))
      sub.canceled_at = await customerNow(ctx, sub.customer);
    else if (!sub.cancel_at && !sub.cancel_at_period_end) sub.canceled_at = null;
    if (params.has('metadata')) {
      previous.metadata = sub.metadata;
      sub.metadata = mergeMetadata(sub.metadata, params.metadata());
    }
    if (params.has('default_payment_method')) {
      previous.default_payment_method = sub.default_payment_method;
      const pm = params.str('default_payment_method') ?? null;
      if (pm) await get(ctx, pm, 'payment_method', { param: 'default_payment_method', anyAccount: true });
      sub.default_payment_method = pm;
    }
    if (params.has('description')) sub.description = params.str('description') ?? null;
    await save(ctx, sub);
    await emit(ctx, 'customer.subscription.updated', sub, { previousAttributes: previous });
    return sub;
  });
  r.del('/subscriptions/:id', async ({ ctx, path }) => {
    const sub = await get(ctx, path.id, 'subscription', { lock: true, anyAccount: true });
    if (sub.status === 'canceled')
      throw invalidRequest(`No such subscription: '${sub.id}'`, { code: 'resource_missing', param: 'id' }, 404);
    await cancelSubscription(ctx, sub, await customerNow(ctx, sub.customer), 'cancellation_requested');
    return sub;
  });

  // ── Invoices and their payments ─────────────────────────────────────────────────
  r.get('/invoices/:id', ({ ctx, path }) => get(ctx, path.id, 'invoice', { anyAccount: true }));
  r.get('/invoices', async ({ ctx, params }) => {
    const { data, hasMore } = await list(ctx, 'invoice', {
      ...page(params),
      anyAccount: true,
      parent: params.str('subscription'),
      where: { customer: params.str('customer'), status: params.str('status') },
    });
    return listEnvelope('/v1/invoices', data, hasMore);
  });
  r.get('/invoices/:id/lines', async ({ ctx, path }) => {
    const inv = await get(ctx, path.id, 'invoice', { anyAccount: true });
    return inv.lines;
  });
  r.get('/invoice_payments/:id', ({ ctx, path }) => get(ctx, path.id, 'invoice_payment', { anyAccount: true }));
  r.get('/invoice_payments', async ({ ctx, params }) => {
    const invoice = params.str('invoice');
    const payment = params.obj('payment');
    const { data, hasMore } = await list(ctx, 'invoice_payment', {
      ...page(params),
      anyAccount: true,
      parent: invoice,
      extra: payment?.str('payment_intent') ? piIs(payment.str('payment_intent')!) : undefined,
    });
    return listEnvelope('/v1/invoice_payments', data, hasMore);
  });

  // ── Test clocks ──────────────────────────────────────────────────────────────────
  r.post('/test_helpers/test_clocks', async ({ ctx, params }) => {
    const clock = shapes.testClock({
      frozen_time: params.int('frozen_time', true),
      name: params.str('name') ?? null,
      created: unixNow(),
    }) as Obj;
    await insert(ctx, clock, { account: null });
    await emit(ctx, 'test_helpers.test_clock.created', clock);
    return clock;
  });
  r.get('/test_helpers/test_clocks/:id', ({ ctx, path }) => get(ctx, path.id, 'test_helpers.test_clock', { anyAccount: true }));
  r.get('/test_helpers/test_clocks', async ({ ctx, params }) => {
    const { data, hasMore } = await list(ctx, 'test_helpers.test_clock', { ...page(params), anyAccount: true });
    return listEnvelope('/v1/test_helpers/test_clocks', data, hasMore);
  });
  r.post('/test_helpers/test_clocks/:id/advance', ({ ctx, path, params }) => advanceClock(ctx, path.id, params.int('frozen_time', true)));
}

/**
 * `items` of a subscription update, as Stripe documents them: `items[n][id]` changes an item's
 * `quantity`, `price` or `price_data` (or removes it with `deleted`); an entry without `id` adds
 * an item. Stripe bills the new amounts from the next invoice on; with `proration_behavior`
 * `create_prorations` (its default) or `always_invoice` it would also credit and charge the
 * unused time of the current period, which the sandbox does not compute: it refuses those
 * for a change of amount rather than bill a different figure than Stripe would.
 */
async function updateItems(ctx: Ctx, sub: Obj, itemsIn: Params[], proration: 'always_invoice' | 'create_prorations' | 'none') {
  const data: Obj[] = sub.items.data;
  for (const item of itemsIn) {
    const id = item.str('id');
    const existing = id ? data.find((i) => i.id === id) : undefined;
    if (id && !existing)
      throw invalidRequest(`No such subscription item: '${id}'`, { code: 'resource_missing', param: `${item.path}[id]` }, 404);
    if (item.bool('deleted')) {
      if (!existing) throw invalidRequest('You must specify the item `id` to delete it.', { param: `${item.path}[deleted]` });
      data.splice(data.indexOf(existing), 1);
      continue;
    }
    const quantity = item.int('quantity');
    if (quantity !== undefined && quantity < 0) throw invalidRequest('Quantity must be at least 0.', { param: `${item.path}[quantity]` });
    let price: Obj | null = null;
    const priceId = item.str('price');
    const pd = item.obj('price_data');
    if (priceId) price = await get(ctx, priceId, 'price', { param: `${item.path}[price]`, anyAccount: true });
    else if (pd) {
      const product = pd.str('product', true);
      await get(ctx, product, 'product', { param: `${pd.path}[product]`, anyAccount: true });
      const recurring = recurringOf(pd.obj('recurring', true));
      price = await createPrice(ctx, {
        product,
        currency: pd.str('currency', true),
        unit_amount: pd.int('unit_amount', true),
        recurring,
        metadata: {},
        active: false,
      });
    }
    if (price && !price.recurring)
      throw invalidRequest('The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.', {
        param: `${item.path}[price]`,
      });
    if (price && price.currency !== sub.currency)
      throw invalidRequest(`The price's currency must match the subscription's currency (${sub.currency}).`, {
        param: `${item.path}[price]`,
      });
    if (existing) {
      const before = (existing.price.unit_amount ?? 0) * (existing.quantity ?? 1);
      const next = price ?? existing.price;
      const after = (next.unit_amount ?? 0) * (quantity ?? existing.quantity ?? 1);
      if (after !== before && proration !== 'none')
        throw invalidRequest(
          'The payments sandbox does not prorate: change the amount of a subscription item with `proration_behavior=none` (billed from the next invoice).',
          { param: 'proration_behavior' },
        );
      if (price) {
        existing.price = price;
        existing.plan = shapes.planOf(price as unknown as Stripe.Price);
      }
      if (quantity !== undefined) existing.quantity = quantity;
    } else {
      if (!price) throw invalidRequest('You must specify either `price` or `price_data` in each item.', { param: `${item.path}[price]` });
      if (proration !== 'none')
        throw invalidRequest('The payments sandbox does not prorate: add an item with `proration_behavior=none`.', {
          param: 'proration_behavior',
        });
      const first = data[0];
      data.push(
        shapes.subscriptionItem(
          price as unknown as Stripe.Price,
          sub.id,
          quantity ?? 1,
          first.current_period_start,
          first.current_period_end,
        ),
      );
    }
  }
  if (!data.length) throw invalidRequest('A subscription must have at least one item.', { param: 'items' });
}

const notCanceled = sql`${sandboxObject.data}->>'status' not in ('canceled', 'incomplete_expired')`;
const piIs = (pi: string) => sql`${sandboxObject.data}->'payment'->>'payment_intent' = ${pi}`;
