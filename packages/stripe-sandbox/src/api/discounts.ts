import type Stripe from 'stripe';
import { invalidRequest } from '../errors.js';
import { newId } from '../ids.js';
import { mergeMetadata, type Params } from '../params.js';
import { find, get, insert, list, listEnvelope, save, unixNow, type Ctx, type Obj } from '../store.js';
import { page, type Router } from './router.js';

/**
 * Coupons, promotion codes and the discounts they become, as Stripe documents them:
 * a coupon is `percent_off` or `amount_off` + `currency`, for `once`, `repeating`
 * (`duration_in_months`) or `forever`, with optional `max_redemptions` and `redeem_by`; a
 * promotion code is a customer-facing `code` for a coupon (`promotion[type]=coupon`), with
 * its own `max_redemptions`, `expires_at` and `active`. A Checkout Session takes one entry
 * in `discounts` (`coupon` or `promotion_code`): its `total_details.amount_discount` and
 * `amount_total` say the discount of the (first) payment; completing it redeems the coupon
 * (`times_redeemed`), and in subscription mode the subscription gets a `discount` object that
 * each invoice applies for the coupon's duration (`total_discount_amounts`).
 */
export function discountRoutes(r: Router) {
  r.post('/coupons', async ({ ctx, params }) => {
    const percent = params.num('percent_off');
    const amount = params.int('amount_off');
    if ((percent === undefined) === (amount === undefined))
      throw invalidRequest('You must pass exactly one of `percent_off` or `amount_off`.', { param: 'percent_off' });
    if (percent !== undefined && !(percent > 0 && percent <= 100))
      throw invalidRequest('Percent off must be greater than 0 and at most 100.', { param: 'percent_off' });
    const currency = params.str('currency')?.toLowerCase() ?? null;
    if (amount !== undefined) {
      if (amount <= 0) throw invalidRequest('Amount off must be a positive integer.', { param: 'amount_off' });
      if (!currency) throw invalidRequest('You must pass `currency` when passing `amount_off`.', { param: 'currency' });
    }
    const duration = params.oneOf('duration', ['once', 'repeating', 'forever'] as const) ?? 'once';
    const months = params.int('duration_in_months') ?? null;
    if (duration === 'repeating' && !months)
      throw invalidRequest('You must pass `duration_in_months` when `duration` is repeating.', { param: 'duration_in_months' });
    const id = params.str('id') ?? newId('').slice(1, 9);
    if (await find(ctx, id, 'coupon')) throw invalidRequest('Coupon already exists.', { code: 'resource_already_exists', param: 'id' });
    const maxRedemptions = params.int('max_redemptions') ?? null;
    if (maxRedemptions !== null && maxRedemptions < 1)
      throw invalidRequest('max_redemptions must be a positive integer.', { param: 'max_redemptions' });
    const coupon: Obj = {
      id,
      object: 'coupon',
      amount_off: amount ?? null,
      created: unixNow(),
      currency: amount !== undefined ? currency : null,
      duration,
      duration_in_months: duration === 'repeating' ? months : null,
      livemode: false,
      max_redemptions: maxRedemptions,
      metadata: params.metadata() ?? {},
      name: params.str('name') ?? null,
      percent_off: percent ?? null,
      redeem_by: params.int('redeem_by') ?? null,
      times_redeemed: 0,
      valid: true,
    };
    await insert(ctx, coupon);
    return coupon;
  });
  r.get('/coupons/:id', async ({ ctx, path }) => refreshValid(ctx, await get(ctx, path.id, 'coupon')));
  r.post('/coupons/:id', async ({ ctx, path, params }) => {
    const c = await get(ctx, path.id, 'coupon', { lock: true });
    if (params.has('name')) c.name = params.str('name') ?? null;
    if (params.has('metadata')) c.metadata = mergeMetadata(c.metadata, params.metadata());
    await save(ctx, c);
    return refreshValid(ctx, c);
  });
  r.del('/coupons/:id', async ({ ctx, path }) => {
    const c = await get(ctx, path.id, 'coupon', { lock: true });
    c.valid = false;
    c._sandbox = { ...(c._sandbox ?? {}), deleted: true };
    await save(ctx, c);
    return { id: c.id, object: 'coupon', deleted: true };
  });
  r.get('/coupons', async ({ ctx, params }) => {
    const { data, hasMore } = await list(ctx, 'coupon', page(params));
    return listEnvelope('/v1/coupons', await Promise.all(data.map((c) => refreshValid(ctx, c))), hasMore);
  });

  r.post('/promotion_codes', async ({ ctx, params }) => {
    const promotion = params.obj('promotion', true)!;
    promotion.oneOf('type', ['coupon'] as const, true);
    const coupon = await get(ctx, promotion.str('coupon', true), 'coupon', { param: 'promotion[coupon]' });
    if (coupon._sandbox?.deleted)
      throw invalidRequest(`No such coupon: '${coupon.id}'`, { param: 'promotion[coupon]', code: 'resource_missing' });
    const code = params.str('code') ?? newId('').slice(-8).toUpperCase();
    if (!/^[A-Za-z0-9_-]{1,500}$/.test(code))
      throw invalidRequest('Promotion codes can only contain alphanumeric characters, dashes and underscores.', { param: 'code' });
    const taken = await list(ctx, 'promotion_code', { where: { code }, limit: 100 });
    if (taken.data.some((p) => p.active))
      throw invalidRequest('An active promotion code with `code` already exists.', { code: 'resource_already_exists', param: 'code' });
    const restrictions = params.obj('restrictions');
    const pc: Obj = {
      id: newId('promo'),
      object: 'promotion_code',
      active: params.bool('active') ?? true,
      code,
      created: unixNow(),
      customer: params.str('customer') ?? null,
      customer_account: null,
      expires_at: params.int('expires_at') ?? null,
      livemode: false,
      max_redemptions: params.int('max_redemptions') ?? null,
      metadata: params.metadata() ?? {},
      promotion: { coupon: coupon.id, type: 'coupon' },
      restrictions: {
        first_time_transaction: restrictions?.bool('first_time_transaction') ?? false,
        minimum_amount: restrictions?.int('minimum_amount') ?? null,
        minimum_amount_currency: restrictions?.str('minimum_amount_currency') ?? null,
      },
      times_redeemed: 0,
    };
    await insert(ctx, pc);
    return pc;
  });
  r.get('/promotion_codes/:id', ({ ctx, path }) => get(ctx, path.id, 'promotion_code'));
  r.post('/promotion_codes/:id', async ({ ctx, path, params }) => {
    const pc = await get(ctx, path.id, 'promotion_code', { lock: true });
    if (params.has('active')) pc.active = params.bool('active') ?? pc.active;
    if (params.has('metadata')) pc.metadata = mergeMetadata(pc.metadata, params.metadata());
    await save(ctx, pc);
    return pc;
  });
  r.get('/promotion_codes', async ({ ctx, params }) => {
    const active = params.bool('active');
    const { data, hasMore } = await list(ctx, 'promotion_code', {
      ...page(params),
      where: { code: params.str('code'), customer: params.str('customer') },
    });
    const filtered = active === undefined ? data : data.filter((p) => p.active === active);
    return listEnvelope('/v1/promotion_codes', filtered, hasMore);
  });
}

/** `valid`: false once `redeem_by` has passed, `max_redemptions` is reached, or the coupon was deleted. */
async function refreshValid(ctx: Ctx, c: Obj, now = unixNow()): Promise<Obj> {
  const valid =
    !c._sandbox?.deleted &&
    (c.redeem_by === null || c.redeem_by > now) &&
    (c.max_redemptions === null || c.times_redeemed < c.max_redemptions);
  if (valid !== c.valid) {
    c.valid = valid;
    await save(ctx, c);
  }
  return c;
}

/** What a Checkout Session's `discounts` resolved to: the coupon, and the promotion code it came from. */
export interface AppliedDiscount {
  coupon: Obj;
  promotionCode: Obj | null;
}

/**
 * The one entry of a Checkout Session's `discounts` (Stripe takes at most one), checked as
 * Stripe checks it: an active promotion code, not expired, not used up; a valid coupon in
 * the session's currency.
 */
export async function resolveDiscounts(ctx: Ctx, entries: Params[], currency: string, now: number): Promise<AppliedDiscount | null> {
  if (entries.length === 0) return null;
  if (entries.length > 1) throw invalidRequest('You may only specify one discount.', { param: 'discounts' });
  const d = entries[0];
  const promoId = d.str('promotion_code');
  const couponId = d.str('coupon');
  if ((promoId === undefined) === (couponId === undefined))
    throw invalidRequest('You must pass exactly one of `coupon` or `promotion_code` in each discount.', { param: 'discounts[0]' });
  let promotionCode: Obj | null = null;
  let coupon: Obj;
  if (promoId) {
    promotionCode = await get(ctx, promoId, 'promotion_code', { param: 'discounts[0][promotion_code]' });
    if (!promotionCode.active || (promotionCode.expires_at !== null && promotionCode.expires_at <= now))
      throw invalidRequest('This promotion code is inactive.', { param: 'discounts[0][promotion_code]', code: 'promotion_code_inactive' });
    if (promotionCode.max_redemptions !== null && promotionCode.times_redeemed >= promotionCode.max_redemptions)
      throw invalidRequest('This promotion code has been redeemed the maximum number of times.', {
        param: 'discounts[0][promotion_code]',
        code: 'promotion_code_inactive',
      });
    coupon = await get(ctx, promotionCode.promotion.coupon, 'coupon', { param: 'discounts[0][promotion_code]' });
  } else {
    coupon = await get(ctx, couponId!, 'coupon', { param: 'discounts[0][coupon]' });
  }
  await refreshValid(ctx, coupon, now);
  if (!coupon.valid) throw invalidRequest(`Coupon ${coupon.id} is no longer valid.`, { param: 'discounts[0]', code: 'coupon_expired' });
  if (coupon.amount_off !== null && coupon.currency !== currency)
    throw invalidRequest(`Coupon ${coupon.id} is in ${coupon.currency}, not ${currency}.`, { param: 'discounts[0]' });
  return { coupon, promotionCode };
}

/** A coupon's discount on an amount: `amount_off` (at most the amount), or `percent_off` rounded to the nearest cent. */
export function discountOn(coupon: Obj, amount: number): number {
  if (coupon.amount_off !== null) return Math.min(coupon.amount_off as number, amount);
  return Math.min(amount, Math.round((amount * (coupon.percent_off as number)) / 100));
}

/** Counts a redemption: the coupon's and the promotion code's `times_redeemed`. */
export async function redeem(ctx: Ctx, applied: { coupon: string; promotion_code: string | null }) {
  const coupon = await get(ctx, applied.coupon, 'coupon', { lock: true, anyAccount: true });
  coupon.times_redeemed += 1;
  await save(ctx, coupon);
  await refreshValid(ctx, coupon);
  if (applied.promotion_code) {
    const pc = await get(ctx, applied.promotion_code, 'promotion_code', { lock: true, anyAccount: true });
    pc.times_redeemed += 1;
    await save(ctx, pc);
  }
}

/** The `discount` object a subscription gets from its checkout (Stripe's shape). */
export async function subscriptionDiscount(
  ctx: Ctx,
  p: { coupon: Obj; promotionCode: string | null; subscription: string; customer: string; checkoutSession: string; start: number },
): Promise<Obj> {
  const months = p.coupon.duration === 'repeating' ? (p.coupon.duration_in_months as number) : null;
  const end = months ? addMonthsUnix(p.start, months) : null;
  const di: Obj = {
    id: newId('di'),
    object: 'discount',
    checkout_session: p.checkoutSession,
    customer: p.customer,
    customer_account: null,
    end,
    invoice: null,
    invoice_item: null,
    promotion_code: p.promotionCode,
    source: { coupon: p.coupon.id, type: 'coupon' } as Stripe.Discount.Source,
    start: p.start,
    subscription: p.subscription,
    subscription_item: null,
  };
  await insert(ctx, di, { parent: p.subscription });
  return di;
}

/**
 * The discount an invoice of a subscription gets from the subscription's discounts: a
 * `once` coupon on the first invoice only, `repeating` while the period starts before the
 * discount's end, `forever` always. Answers the amount and the discount's id.
 */
export async function invoiceDiscount(ctx: Ctx, sub: Obj, subtotal: number, first: boolean, periodStart: number) {
  for (const id of (sub.discounts ?? []) as string[]) {
    const di = await find(ctx, id, 'discount', { anyAccount: true });
    if (!di) continue;
    const coupon = await get(ctx, di.source.coupon, 'coupon', { anyAccount: true });
    const applies =
      coupon.duration === 'forever' || (coupon.duration === 'once' ? first : di.end === null || periodStart < (di.end as number));
    if (applies) return { amount: discountOn(coupon, subtotal), discount: di.id as string };
  }
  return null;
}

function addMonthsUnix(at: number, months: number): number {
  const d = new Date(at * 1000);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return Math.floor(d.getTime() / 1000);
}
