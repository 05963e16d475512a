import type Stripe from 'stripe';
import { invalidRequest } from '../errors.js';
import { mergeMetadata } from '../params.js';
import * as shapes from '../shapes.js';
import { emit, find, get, insert, list, listEnvelope, save, unixNow, type Obj } from '../store.js';
import { customerNow } from '../time.js';
import { page, type Router } from './router.js';

/** Customers, products, prices, payment methods (read), events. */
export function customerAndPriceRoutes(r: Router) {
  // ── Customers ────────────────────────────────────────────────────────────────────
  r.post('/customers', async ({ ctx, params }) => {
    const clock = params.str('test_clock') ?? null;
    let created = unixNow();
    if (clock) created = (await get(ctx, clock, 'test_helpers.test_clock', { param: 'test_clock', anyAccount: true })).frozen_time;
    const c = shapes.customer({
      email: params.str('email') ?? null,
      name: params.str('name') ?? null,
      description: params.str('description') ?? null,
      phone: params.str('phone') ?? null,
      metadata: params.metadata() ?? {},
      test_clock: clock,
      created,
    }) as Obj;
    await insert(ctx, c);
    await emit(ctx, 'customer.created', c);
    return c;
  });
  r.get('/customers/:id', ({ ctx, path }) => get(ctx, path.id, 'customer'));
  r.post('/customers/:id', async ({ ctx, path, params }) => {
    const c = await get(ctx, path.id, 'customer', { lock: true });
    const previous: Record<string, unknown> = {};
    for (const field of ['email', 'name', 'description', 'phone'] as const) {
      if (params.has(field)) {
        previous[field] = c[field];
        c[field] = params.str(field) ?? null;
      }
    }
    if (params.has('metadata')) {
      previous.metadata = c.metadata;
      c.metadata = mergeMetadata(c.metadata, params.metadata());
    }
    const settings = params.obj('invoice_settings');
    if (settings?.has('default_payment_method')) {
      const pm = settings.str('default_payment_method') ?? null;
      if (pm) await get(ctx, pm, 'payment_method', { param: 'invoice_settings[default_payment_method]', anyAccount: true });
      c.invoice_settings = { ...c.invoice_settings, default_payment_method: pm };
    }
    await save(ctx, c);
    await emit(ctx, 'customer.updated', c, { previousAttributes: previous });
    return c;
  });
  r.get('/customers', async ({ ctx, params }) => {
    const { data, hasMore } = await list(ctx, 'customer', {
      ...page(params),
      where: { email: params.str('email'), test_clock: params.str('test_clock') },
    });
    return listEnvelope('/v1/customers', data, hasMore);
  });

  // ── Products ─────────────────────────────────────────────────────────────────────
  r.post('/products', async ({ ctx, params }) => {
    const name = params.str('name', true);
    const id = params.str('id');
    if (id && (await find(ctx, id, undefined, { anyAccount: true }))) {
      throw invalidRequest('Product already exists.', { code: 'resource_already_exists', param: 'id' });
    }
    const p = shapes.product({
      id,
      name,
      description: params.str('description') ?? null,
      metadata: params.metadata() ?? {},
      active: params.bool('active') ?? true,
      created: unixNow(),
    }) as Obj;
    await insert(ctx, p);
    const dp = params.obj('default_price_data');
    if (dp) {
      const pr = await createPrice(ctx, {
        product: p.id,
        currency: dp.str('currency', true),
        unit_amount: dp.int('unit_amount', true),
        recurring: recurringOf(dp.obj('recurring')),
        metadata: {},
      });
      p.default_price = pr.id;
      await save(ctx, p);
    }
    await emit(ctx, 'product.created', p);
    return p;
  });
  r.get('/products/:id', ({ ctx, path }) => get(ctx, path.id, 'product'));
  r.post('/products/:id', async ({ ctx, path, params }) => {
    const p = await get(ctx, path.id, 'product', { lock: true });
    if (params.has('name')) p.name = params.str('name', true);
    if (params.has('description')) p.description = params.str('description') ?? null;
    if (params.has('active')) p.active = params.bool('active');
    if (params.has('metadata')) p.metadata = mergeMetadata(p.metadata, params.metadata());
    if (params.has('default_price')) p.default_price = params.str('default_price') ?? null;
    p.updated = unixNow();
    await save(ctx, p);
    await emit(ctx, 'product.updated', p);
    return p;
  });
  r.get('/products', async ({ ctx, params }) => {
    const { data, hasMore } = await list(ctx, 'product', page(params));
    return listEnvelope('/v1/products', data, hasMore);
  });

  // ── Prices ───────────────────────────────────────────────────────────────────────
  r.post('/prices', async ({ ctx, params }) => {
    const currency = params.str('currency', true);
    const unit_amount = params.int('unit_amount', true);
    let product = params.str('product');
    const productData = params.obj('product_data');
    if (!product && !productData)
      throw invalidRequest('You must specify either `product` or `product_data` when creating a price.', { param: 'product' });
    if (product) await get(ctx, product, 'product', { param: 'product' });
    else {
      const p = shapes.product({
        name: productData!.str('name', true),
        description: null,
        metadata: productData!.metadata() ?? {},
        active: true,
        created: unixNow(),
      }) as Obj;
      await insert(ctx, p);
      product = p.id;
    }
    const pr = await createPrice(ctx, {
      product: product!,
      currency,
      unit_amount,
      recurring: recurringOf(params.obj('recurring')),
      metadata: params.metadata() ?? {},
      nickname: params.str('nickname') ?? null,
      lookup_key: params.str('lookup_key') ?? null,
    });
    await emit(ctx, 'price.created', pr);
    return pr;
  });
  r.get('/prices/:id', ({ ctx, path }) => get(ctx, path.id, 'price'));
  r.get('/prices', async ({ ctx, params }) => {
    const { data, hasMore } = await list(ctx, 'price', { ...page(params), where: { product: params.str('product') } });
    return listEnvelope('/v1/prices', data, hasMore);
  });

  // ── Payment methods (read) ───────────────────────────────────────────────────────
  r.get('/payment_methods/:id', ({ ctx, path }) => get(ctx, path.id, 'payment_method', { anyAccount: true }));
  r.get('/customers/:id/payment_methods', async ({ ctx, path, params }) => {
    await get(ctx, path.id, 'customer');
    const { data, hasMore } = await list(ctx, 'payment_method', { ...page(params), where: { customer: path.id }, anyAccount: true });
    return listEnvelope(`/v1/customers/${path.id}/payment_methods`, data, hasMore);
  });

  // ── Events ───────────────────────────────────────────────────────────────────────
  r.get('/events/:id', ({ ctx, path }) => get(ctx, path.id, 'event'));
  r.get('/events', async ({ ctx, params }) => {
    const { data, hasMore } = await list(ctx, 'event', { ...page(params), where: { type: params.str('type') } });
    return listEnvelope('/v1/events', data, hasMore);
  });
}

export function recurringOf(p: import('../params.js').Params | undefined) {
  if (!p) return null;
  const interval = p.oneOf('interval', ['day', 'week', 'month', 'year'] as const, true)!;
  const interval_count = p.int('interval_count') ?? 1;
  if (interval_count < 1) throw invalidRequest('Invalid interval_count: must be at least 1', { param: `${p.path}[interval_count]` });
  return { interval, interval_count };
}

export async function createPrice(
  ctx: import('../store.js').Ctx,
  p: {
    product: string;
    currency: string;
    unit_amount: number;
    recurring: { interval: Stripe.Price.Recurring.Interval; interval_count: number } | null;
    metadata: Record<string, string>;
    nickname?: string | null;
    lookup_key?: string | null;
    active?: boolean;
  },
): Promise<Obj> {
  if (p.unit_amount < 0)
    throw invalidRequest('Invalid unit_amount: must be at least 0', { param: 'unit_amount', code: 'parameter_invalid_integer' });
  const pr = shapes.price({
    product: p.product,
    currency: p.currency.toLowerCase(),
    unit_amount: p.unit_amount,
    recurring: p.recurring,
    metadata: p.metadata,
    nickname: p.nickname ?? null,
    lookup_key: p.lookup_key ?? null,
    active: p.active ?? true,
    created: await customerNow(ctx, null),
  }) as Obj;
  await insert(ctx, pr);
  return pr;
}
