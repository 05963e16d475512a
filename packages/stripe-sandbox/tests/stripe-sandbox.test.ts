import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import Fastify, { type FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeSandbox } from '@agora/stripe-sandbox';

/**
 * The sandbox as another app would use it: a bare Fastify server that mounts only the
 * plugin, on an in-memory PGlite database, driven by the official `stripe` SDK over HTTP.
 * Webhooks go to a small receiver here that verifies signatures with
 * Stripe.webhooks.constructEvent.
 */
const SECRET_KEY = 'sk_test_standalone_sandbox';
const SECRETS = { platform: 'whsec_standalone_platform', connect: 'whsec_standalone_connect' };

let pglite: PGlite;
let database: ReturnType<typeof drizzle>;
let app: FastifyInstance;
let stripe: Stripe;
let base: string;
let receiver: Server;
const received: Stripe.Event[] = [];
/** Answers of the receiver, first in first out; 200 when empty. */
const answers: number[] = [];
let signatureFailures = 0;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const payload = Buffer.concat(chunks).toString('utf8');
      const header = String(req.headers['stripe-signature'] ?? '');
      const status = answers.shift() ?? 200;
      let event: Stripe.Event;
      try {
        const isConnect = JSON.parse(payload).account;
        event = Stripe.webhooks.constructEvent(payload, header, isConnect ? SECRETS.connect : SECRETS.platform);
      } catch {
        signatureFailures++;
        res.writeHead(400).end();
        return;
      }
      if (status === 200) received.push(event);
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));

  pglite = new PGlite();
  database = drizzle(pglite);
  app = Fastify({ logger: false });
  await app.register(stripeSandbox, {
    database,
    secretKey: SECRET_KEY,
    webhookSecret: SECRETS.platform,
    connectWebhookSecret: SECRETS.connect,
    webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  stripe = new Stripe(SECRET_KEY, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
});

afterAll(async () => {
  await app?.close();
  await new Promise((r) => receiver.close(r));
  await pglite?.close();
});

async function waitFor<T>(fn: () => T | undefined | null | false, timeoutMs = 10_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}
const eventsFor = (id: string, type?: string) =>
  received.filter((e) => (e.data.object as { id: string }).id === id && (!type || e.type === type));

async function stripeError(p: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await p;
  } catch (err) {
    return err as Stripe.errors.StripeError;
  }
  throw new Error('expected a Stripe error');
}

/** Submits the sandbox checkout form as its script does. */
async function pay(session: Stripe.Checkout.Session, number: string, exp = '12/34', cvc = '123') {
  const res = await fetch(`${base}/sandbox/api/checkout/${session.id}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_secret: session.client_secret, number, exp, cvc, name: 'Ada Lovelace' }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { redirect?: string; error?: { message: string; code: string; decline_code?: string; type: string } },
  };
}

/** A Connect Express account taken through the onboarding form. */
async function onboardedAccount(): Promise<Stripe.Account> {
  const acct = await stripe.accounts.create({
    type: 'express',
    email: 'grace@agora.local',
    country: 'GB',
    capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
  });
  const link = await stripe.accountLinks.create({
    account: acct.id,
    refresh_url: 'http://localhost:3000/educator/onboard',
    return_url: 'http://localhost:3000/educator/onboard-success',
    type: 'account_onboarding',
  });
  const path = new URL(link.url);
  const res = await fetch(`${base}${path.pathname}${path.search}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'legal_name=Grace+Hopper&country=GB&routing_number=110000000&account_number=000123456789',
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  expect(res.headers.get('location')).toBe('http://localhost:3000/educator/onboard-success');
  return stripe.accounts.retrieve(acct.id);
}

describe('objects through the SDK', () => {
  it('customers: create, retrieve, update', async () => {
    const c = await stripe.customers.create({ email: 'ada@agora.local', name: 'Ada', metadata: { user_id: 'u1' } });
    expect(c.id).toMatch(/^cus_/);
    expect(c).toMatchObject({
      object: 'customer',
      email: 'ada@agora.local',
      name: 'Ada',
      metadata: { user_id: 'u1' },
      livemode: false,
      test_clock: null,
    });
    const got = await stripe.customers.retrieve(c.id);
    expect(got).toMatchObject({ id: c.id, email: 'ada@agora.local' });
    const upd = await stripe.customers.update(c.id, { name: 'Ada L.', metadata: { plan: 'pro' } });
    expect(upd).toMatchObject({ name: 'Ada L.', metadata: { user_id: 'u1', plan: 'pro' } });
  });

  it('products with a given id (duplicate: resource_already_exists) and prices', async () => {
    const id = `agora_educator_pro_${Date.now()}`;
    const p = await stripe.products.create({ id, name: 'Educator Pro' });
    expect(p).toMatchObject({ id, object: 'product', name: 'Educator Pro', active: true });
    const dup = await stripeError(stripe.products.create({ id, name: 'Again' }));
    expect(dup.statusCode).toBe(400);
    expect(dup.code).toBe('resource_already_exists');
    const price = await stripe.prices.create({
      product: id,
      unit_amount: 2900,
      currency: 'usd',
      recurring: { interval: 'month', interval_count: 1 },
    });
    expect(price.id).toMatch(/^price_/);
    expect(price).toMatchObject({
      unit_amount: 2900,
      currency: 'usd',
      type: 'recurring',
      recurring: { interval: 'month', interval_count: 1 },
      product: id,
    });
    expect((await stripe.prices.retrieve(price.id)).id).toBe(price.id);
    expect((await stripe.products.retrieve(id)).name).toBe('Educator Pro');
  });

  it('errors in Stripe format: missing param, unknown id 404, bad key 401', async () => {
    const missing = await stripeError(stripe.prices.create({ currency: 'usd', product: 'prod_x' } as Stripe.PriceCreateParams));
    expect(missing).toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
      code: 'parameter_missing',
      param: 'unit_amount',
      message: 'Missing required param: unit_amount.',
    });
    const unknown = await stripeError(stripe.customers.retrieve('cus_nope'));
    expect(unknown).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'id', message: "No such customer: 'cus_nope'" });
    const bad = new Stripe('sk_test_wrong_key_123456', { host: '127.0.0.1', port: Number(new URL(base).port), protocol: 'http' });
    const auth = await stripeError(bad.customers.create({ email: 'x@y.z' }));
    expect(auth.statusCode).toBe(401);
    expect(auth.type).toBe('StripeAuthenticationError');
    // The raw body, exactly
    const raw = await fetch(`${base}/v1/customers/cus_nope`, { headers: { authorization: `Bearer ${SECRET_KEY}` } });
    expect(raw.status).toBe(404);
    expect(await raw.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'resource_missing', param: 'id' } });
  });

  it('idempotency: same key and body replays; another body is an idempotency_error', async () => {
    const key = `idem-${Date.now()}`;
    const a = await stripe.customers.create({ email: 'idem@agora.local' }, { idempotencyKey: key });
    const b = await stripe.customers.create({ email: 'idem@agora.local' }, { idempotencyKey: key });
    expect(b.id).toBe(a.id);
    expect(b.lastResponse.headers['idempotent-replayed']).toBe('true');
    const err = await stripeError(stripe.customers.create({ email: 'other@agora.local' }, { idempotencyKey: key }));
    expect(err.statusCode).toBe(400);
    expect(err.type).toBe('StripeIdempotencyError');
  });
});

describe('checkout in payment mode', () => {
  let acct: Stripe.Account;
  let customer: Stripe.Customer;
  beforeAll(async () => {
    acct = await onboardedAccount();
    customer = await stripe.customers.create({ email: 'learner@agora.local', name: 'Learner' });
  });

  const session = () =>
    stripe.checkout.sessions.create({
      ui_mode: 'embedded_page',
      mode: 'payment',
      customer: customer.id,
      line_items: [{ price_data: { currency: 'usd', unit_amount: 12000, product_data: { name: 'Intro to TypeScript' } }, quantity: 1 }],
      metadata: { purchase_id: 'p-1' },
      return_url: 'http://localhost:3000/course/checkout/return?session_id={CHECKOUT_SESSION_ID}',
      payment_intent_data: { application_fee_amount: 1200, transfer_data: { destination: acct.id }, metadata: { purchase_id: 'p-1' } },
    });

  it('creates an open embedded session and serves a labelled form', async () => {
    const s = await session();
    expect(s.id).toMatch(/^cs_test_/);
    expect(s).toMatchObject({
      object: 'checkout.session',
      status: 'open',
      payment_status: 'unpaid',
      ui_mode: 'embedded_page',
      amount_total: 12000,
      currency: 'usd',
    });
    expect(s.client_secret).toMatch(/^cs_test_.+_secret_/);
    // Stripe answers url: null here (Stripe.js opens the form); the sandbox answers its form.
    expect(s.url).toBe(`${base}/sandbox/checkout/${s.id}?client_secret=${encodeURIComponent(s.client_secret!)}`);
    const res = await fetch(s.url!);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).not.toContain("frame-ancestors 'none'");
    const page = await res.text();
    expect(page).not.toContain('<script>');
    expect(page).toContain('src="/sandbox/assets/checkout.js"');
    expect(page).not.toContain(SECRET_KEY);
    for (const id of ['card-number', 'card-exp', 'card-cvc', 'card-name']) {
      expect(page).toMatch(new RegExp(`<label for="${id}">[^<]+</label>`));
      expect(page).toContain(`id="${id}"`);
    }
    expect(page).toContain('role="alert"');
    expect(page).toContain('Test mode — payments sandbox');
    expect(page).toContain('$120.00');
    const js = await fetch(`${base}/sandbox/assets/checkout.js`);
    expect(js.headers.get('content-type')).toContain('javascript');
    expect(await js.text()).toContain('window.top.location.href');
    const wrong = await fetch(`${base}/sandbox/checkout/${s.id}?client_secret=nope`);
    expect(wrong.status).toBe(404);
  });

  it('declines 0002 and 9995 with Stripe messages; the session stays open; 4242 pays with fee and destination', async () => {
    const s = await session();
    const declined = await pay(s, '4000 0000 0000 0002');
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'generic_decline',
      message: 'Your card was declined.',
    });
    const poor = await pay(s, '4000000000009995');
    expect(poor.body.error).toMatchObject({
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
    expect((await pay(s, '4242424242424241')).body.error!.message).toBe('Your card number is invalid.');
    expect((await pay(s, '4242424242424242', '01/20')).body.error!.message).toBe("Your card's expiration year is invalid.");
    expect(await stripe.checkout.sessions.retrieve(s.id)).toMatchObject({ status: 'open', payment_status: 'unpaid' });

    const ok = await pay(s, '4242424242424242');
    expect(ok.status).toBe(200);
    expect(ok.body.redirect).toBe(`http://localhost:3000/course/checkout/return?session_id=${s.id}`);
    const done = await stripe.checkout.sessions.retrieve(s.id, { expand: ['payment_intent.latest_charge'] });
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid' });
    const pi = done.payment_intent as Stripe.PaymentIntent;
    expect(pi).toMatchObject({
      object: 'payment_intent',
      status: 'succeeded',
      amount: 12000,
      application_fee_amount: 1200,
      metadata: { purchase_id: 'p-1' },
    });
    const charge = pi.latest_charge as Stripe.Charge;
    expect(charge).toMatchObject({
      object: 'charge',
      paid: true,
      amount: 12000,
      application_fee_amount: 1200,
      amount_refunded: 0,
      refunded: false,
      payment_intent: pi.id,
      transfer_data: { destination: acct.id },
    });
    expect(charge.receipt_url).toContain(`/sandbox/receipts/${charge.id}`);
    const receipt = await fetch(`${base}/sandbox/receipts/${charge.id}`);
    expect(await receipt.text()).toContain('$120.00');
    // A second payment of the same session is refused.
    expect((await pay(s, '4242424242424242')).status).toBe(400);

    const completed = await waitFor(() => eventsFor(s.id, 'checkout.session.completed')[0]);
    expect(completed).toMatchObject({ object: 'event', livemode: false, api_version: '2026-10-28.endive' });
    expect((completed.data.object as Stripe.Checkout.Session).payment_intent).toBe(pi.id);
    await waitFor(() => eventsFor(charge.id, 'charge.succeeded')[0]);

    // Refunds: partial, then too much, then the rest.
    const r1 = await stripe.refunds.create({
      payment_intent: pi.id,
      amount: 2000,
      reverse_transfer: true,
      refund_application_fee: true,
      metadata: { n: '1' },
    });
    expect(r1).toMatchObject({ object: 'refund', amount: 2000, status: 'succeeded', charge: charge.id, payment_intent: pi.id });
    expect(await stripe.charges.retrieve(charge.id)).toMatchObject({ amount_refunded: 2000, refunded: false });
    const tooMuch = await stripeError(stripe.refunds.create({ charge: charge.id, amount: 10001 }));
    expect(tooMuch).toMatchObject({ statusCode: 400, param: 'amount', code: 'amount_too_large' });
    await stripe.refunds.create({ charge: charge.id });
    expect(await stripe.charges.retrieve(charge.id)).toMatchObject({ amount_refunded: 12000, refunded: true });
    expect((await stripeError(stripe.refunds.create({ charge: charge.id }))).code).toBe('charge_already_refunded');
    await waitFor(() => eventsFor(charge.id, 'charge.refunded').length === 2);

    // The educator's Express dashboard: net of fee and reversed refunds.
    const login = await stripe.accounts.createLoginLink(acct.id);
    const dash = await (await fetch(`${base}${new URL(login.url).pathname}`)).text();
    expect(dash).toContain('Payouts dashboard');
  });

  it('expires an open session', async () => {
    const s = await session();
    const expired = await stripe.checkout.sessions.expire(s.id);
    expect(expired.status).toBe('expired');
    expect((await pay(s, '4242424242424242')).status).toBe(400);
  });
});

describe('subscriptions and test clocks', () => {
  const DAY = 86400;
  async function subscribe(number: string) {
    const start = Math.floor(Date.UTC(2030, 0, 15) / 1000);
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: start });
    const customer = await stripe.customers.create({ email: 'inst@agora.local', test_clock: clock.id });
    const s = await stripe.checkout.sessions.create({
      ui_mode: 'embedded_page',
      mode: 'subscription',
      customer: customer.id,
      line_items: [
        {
          price_data: {
            currency: 'usd',
            unit_amount: 4000,
            product_data: { name: 'Course in 3 installments' },
            recurring: { interval: 'month', interval_count: 1 },
          },
          quantity: 1,
        },
      ],
      return_url: 'http://localhost:3000/return?session_id={CHECKOUT_SESSION_ID}',
      subscription_data: { application_fee_percent: 10, metadata: { purchase_id: 'p-sub' } },
    });
    expect((await pay(s, number)).status).toBe(200);
    const done = await stripe.checkout.sessions.retrieve(s.id);
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid', payment_intent: null });
    return { clock, customer, start, session: done, sub: await stripe.subscriptions.retrieve(done.subscription as string) };
  }

  it('installments: invoices paid at each month, cancel_at ends it with customer.subscription.deleted', async () => {
    const { clock, customer, start, session, sub } = await subscribe('4242424242424242');
    expect(sub).toMatchObject({
      object: 'subscription',
      status: 'active',
      customer: customer.id,
      test_clock: clock.id,
      application_fee_percent: 10,
      metadata: { purchase_id: 'p-sub' },
    });
    expect(sub.items.data[0]).toMatchObject({ current_period_start: start, price: { unit_amount: 4000 } });
    const first = await stripe.invoices.retrieve(session.invoice as string);
    expect(first).toMatchObject({
      status: 'paid',
      amount_paid: 4000,
      billing_reason: 'subscription_create',
      parent: { subscription_details: { subscription: sub.id } },
    });
    const payments = await stripe.invoicePayments.list({ invoice: first.id });
    expect(payments.data[0]).toMatchObject({ object: 'invoice_payment', status: 'paid', payment: { type: 'payment_intent' } });
    const pi = await stripe.paymentIntents.retrieve(payments.data[0].payment.payment_intent as string, { expand: ['latest_charge'] });
    expect((pi.latest_charge as Stripe.Charge).application_fee_amount).toBe(400);

    // Ends after the third paid invoice.
    const cancelAt = Math.floor(Date.UTC(2030, 3, 15) / 1000);
    await stripe.subscriptions.update(sub.id, { cancel_at: cancelAt, proration_behavior: 'none' });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 40 * DAY });
    expect((await stripe.invoices.list({ subscription: sub.id })).data.map((i) => i.status)).toEqual(['paid', 'paid']);
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: cancelAt + DAY });
    const invoices = await stripe.invoices.list({ subscription: sub.id });
    expect(invoices.data).toHaveLength(3);
    expect(invoices.data.every((i) => i.status === 'paid')).toBe(true);
    expect(await stripe.subscriptions.retrieve(sub.id)).toMatchObject({ status: 'canceled', ended_at: cancelAt });
    expect((await stripe.testHelpers.testClocks.retrieve(clock.id)).frozen_time).toBe(cancelAt + DAY);
    await waitFor(() => eventsFor(sub.id, 'customer.subscription.deleted')[0]);
    expect(
      received.filter(
        (e) => e.type === 'invoice.paid' && (e.data.object as Stripe.Invoice).parent?.subscription_details?.subscription === sub.id,
      ),
    ).toHaveLength(3);
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(0);
    expect((await stripe.subscriptions.list({ customer: customer.id, status: 'all' })).data).toHaveLength(1);
  });

  it('0341: pays at checkout, renewals fail, retried, then the subscription is canceled', async () => {
    const { clock, start, sub } = await subscribe('4000000000000341');
    const periodEnd = sub.items.data[0].current_period_end;
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: periodEnd + 1 });
    expect(await stripe.subscriptions.retrieve(sub.id)).toMatchObject({ status: 'past_due' });
    const failed = (await stripe.invoices.list({ subscription: sub.id })).data[0];
    expect(failed).toMatchObject({ status: 'open', attempt_count: 1, next_payment_attempt: periodEnd + 3 * DAY });
    await waitFor(() => eventsFor(failed.id, 'invoice.payment_failed')[0]);
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: periodEnd + 8 * DAY });
    expect(await stripe.invoices.retrieve(failed.id)).toMatchObject({ attempt_count: 4, next_payment_attempt: null, status: 'open' });
    expect(await stripe.subscriptions.retrieve(sub.id)).toMatchObject({
      status: 'canceled',
      cancellation_details: { reason: 'payment_failed' },
    });
    await waitFor(() => eventsFor(sub.id, 'customer.subscription.deleted')[0]);
    await waitFor(() => eventsFor(failed.id, 'invoice.payment_failed').length === 4);
    expect(start).toBeLessThan(periodEnd);
  });

  it('dev convenience: advance a customer without a clock; subscriptions cancel', async () => {
    const customer = await stripe.customers.create({ email: 'noclock@agora.local' });
    const res = await fetch(`${base}/sandbox/api/customers/${customer.id}/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ days: 2 }),
    });
    expect(res.status).toBe(200);
    const c = (await stripe.customers.retrieve(customer.id)) as Stripe.Customer;
    expect(c.test_clock).toMatch(/^clock_/);
    const dash = await fetch(`${base}/sandbox`);
    expect(dash.status).toBe(200);
    const html = await dash.text();
    expect(html).toContain(customer.id);
    expect(html).not.toContain(SECRET_KEY);
  });
});

describe('coupons, promotion codes and discounts', () => {
  const DAY = 86400;
  it('coupons and promotion codes in Stripe shape; a promotion code on a payment-mode session', async () => {
    const coupon = await stripe.coupons.create({ percent_off: 15, duration: 'once', max_redemptions: 5, name: 'Spring' });
    expect(coupon).toMatchObject({ object: 'coupon', percent_off: 15, amount_off: null, duration: 'once', times_redeemed: 0, valid: true });
    const promo = await stripe.promotionCodes.create({
      promotion: { type: 'coupon', coupon: coupon.id },
      code: 'SPRING15',
      max_redemptions: 1,
    });
    expect(promo).toMatchObject({
      object: 'promotion_code',
      code: 'SPRING15',
      active: true,
      times_redeemed: 0,
      promotion: { type: 'coupon', coupon: coupon.id },
    });
    expect((await stripe.promotionCodes.list({ code: 'SPRING15' })).data.map((p) => p.id)).toEqual([promo.id]);
    // The same code twice while active: refused.
    const dup = await stripeError(stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: coupon.id }, code: 'SPRING15' }));
    expect(dup.code).toBe('resource_already_exists');

    const customer = await stripe.customers.create({ email: 'promo@agora.local' });
    const s = await stripe.checkout.sessions.create({
      ui_mode: 'embedded_page',
      mode: 'payment',
      customer: customer.id,
      line_items: [{ price_data: { currency: 'usd', unit_amount: 9999, product_data: { name: 'Course' } }, quantity: 1 }],
      discounts: [{ promotion_code: promo.id }],
      return_url: 'http://localhost:3000/return?session_id={CHECKOUT_SESSION_ID}',
    });
    // 15 % of $99.99 is $14.9985: $15.00 off, $84.99 charged.
    expect(s).toMatchObject({
      amount_subtotal: 9999,
      amount_total: 8499,
      total_details: { amount_discount: 1500 },
      discounts: [{ coupon: coupon.id, promotion_code: promo.id }],
    });
    expect((await pay(s, '4242424242424242')).status).toBe(200);
    const done = await stripe.checkout.sessions.retrieve(s.id);
    const pi = await stripe.paymentIntents.retrieve(done.payment_intent as string);
    expect(pi.amount).toBe(8499);
    expect((await stripe.promotionCodes.retrieve(promo.id)).times_redeemed).toBe(1);
    expect((await stripe.coupons.retrieve(coupon.id)).times_redeemed).toBe(1);

    // Used up (max_redemptions 1), or turned off: refused at session creation.
    const again = await stripeError(
      stripe.checkout.sessions.create({
        ui_mode: 'embedded_page',
        mode: 'payment',
        line_items: [{ price_data: { currency: 'usd', unit_amount: 5000, product_data: { name: 'Course' } }, quantity: 1 }],
        discounts: [{ promotion_code: promo.id }],
        return_url: 'http://localhost:3000/return',
      }),
    );
    expect(again.message).toMatch(/maximum number of times/);
    const other = await stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: coupon.id }, code: 'OFFNOW' });
    await stripe.promotionCodes.update(other.id, { active: false });
    const inactive = await stripeError(
      stripe.checkout.sessions.create({
        ui_mode: 'embedded_page',
        mode: 'payment',
        line_items: [{ price_data: { currency: 'usd', unit_amount: 5000, product_data: { name: 'Course' } }, quantity: 1 }],
        discounts: [{ promotion_code: other.id }],
        return_url: 'http://localhost:3000/return',
      }),
    );
    expect(inactive.code).toBe('promotion_code_inactive');
    // An amount-off coupon in another currency than the session's.
    const eur = await stripe.coupons.create({ amount_off: 500, currency: 'eur' });
    const wrong = await stripeError(
      stripe.checkout.sessions.create({
        ui_mode: 'embedded_page',
        mode: 'payment',
        line_items: [{ price_data: { currency: 'usd', unit_amount: 5000, product_data: { name: 'Course' } }, quantity: 1 }],
        discounts: [{ coupon: eur.id }],
        return_url: 'http://localhost:3000/return',
      }),
    );
    expect(wrong.param).toBe('discounts[0]');
  });

  it('a forever amount-off coupon on a subscription: every invoice discounted, totals exact', async () => {
    const start = Math.floor(Date.UTC(2031, 0, 15) / 1000);
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: start });
    const customer = await stripe.customers.create({ email: 'inst-promo@agora.local', test_clock: clock.id });
    // $100.00 in 3 is 33.34 + 33.33 + 33.33; 15 % off ($85.00) is 28.34 + 28.33 + 28.33:
    // a monthly 33.33 less 5.00 every month, and 0.01 once with the first.
    const coupon = await stripe.coupons.create({ amount_off: 500, currency: 'usd', duration: 'forever' });
    const s = await stripe.checkout.sessions.create({
      ui_mode: 'embedded_page',
      mode: 'subscription',
      customer: customer.id,
      line_items: [
        {
          price_data: { currency: 'usd', unit_amount: 3333, product_data: { name: 'Course' }, recurring: { interval: 'month' } },
          quantity: 1,
        },
        { price_data: { currency: 'usd', unit_amount: 1, product_data: { name: 'Cents left' } }, quantity: 1 },
      ],
      discounts: [{ coupon: coupon.id }],
      subscription_data: { application_fee_percent: 10 },
      return_url: 'http://localhost:3000/return?session_id={CHECKOUT_SESSION_ID}',
    });
    expect(s).toMatchObject({ amount_subtotal: 3334, amount_total: 2834, total_details: { amount_discount: 500 } });
    expect((await pay(s, '4242424242424242')).status).toBe(200);
    const done = await stripe.checkout.sessions.retrieve(s.id);
    const sub = await stripe.subscriptions.retrieve(done.subscription as string, { expand: ['discounts'] });
    const di = sub.discounts[0] as Stripe.Discount;
    expect(di).toMatchObject({ object: 'discount', source: { coupon: coupon.id, type: 'coupon' }, subscription: sub.id, end: null });
    await stripe.subscriptions.update(sub.id, { cancel_at: Math.floor(Date.UTC(2031, 3, 15) / 1000) });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 100 * DAY });
    const invoices = (await stripe.invoices.list({ subscription: sub.id })).data.sort((a, b) => a.created - b.created);
    expect(invoices.map((i) => i.amount_paid)).toEqual([2834, 2833, 2833]);
    expect(invoices.map((i) => i.subtotal)).toEqual([3334, 3333, 3333]);
    expect(invoices.map((i) => i.total_discount_amounts)).toEqual(Array(3).fill([{ amount: 500, discount: di.id }]));
    expect(invoices.reduce((n, i) => n + i.amount_paid, 0)).toBe(8500);
  });
});

describe('several seats in one checkout (quantity), lowered later', () => {
  const DAY = 86400;
  it('quantity 2 with a percent code on the total; a partial refund returns the fee in proportion', async () => {
    const account = await onboardedAccount();
    const coupon = await stripe.coupons.create({ percent_off: 15, duration: 'once' });
    const customer = await stripe.customers.create({ email: 'family@agora.local' });
    // 2 x $49.99 = $99.98; 15 % is $14.997: $15.00 off the total once (not $7.50 a seat), $84.98 paid.
    const s = await stripe.checkout.sessions.create({
      ui_mode: 'embedded_page',
      mode: 'payment',
      customer: customer.id,
      line_items: [{ price_data: { currency: 'usd', unit_amount: 4999, product_data: { name: 'Course, 2 learners' } }, quantity: 2 }],
      discounts: [{ coupon: coupon.id }],
      payment_intent_data: { application_fee_amount: 850, transfer_data: { destination: account.id } },
      return_url: 'http://localhost:3000/return?session_id={CHECKOUT_SESSION_ID}',
    });
    expect(s).toMatchObject({ amount_subtotal: 9998, amount_total: 8498, total_details: { amount_discount: 1500 } });
    const items = await stripe.checkout.sessions.listLineItems(s.id);
    expect(items.data[0]).toMatchObject({ quantity: 2, amount_subtotal: 9998, price: { unit_amount: 4999 } });
    expect((await pay(s, '4242424242424242')).status).toBe(200);
    const pi = await stripe.paymentIntents.retrieve((await stripe.checkout.sessions.retrieve(s.id)).payment_intent as string);
    expect(pi.amount).toBe(8498);
    // One learner's share (half: $42.49) back, then the other's: the fee comes back in proportion, all of it in the end.
    const first = await stripe.refunds.create({
      payment_intent: pi.id,
      amount: 4249,
      refund_application_fee: true,
      reverse_transfer: true,
    });
    expect(first).toMatchObject({ amount: 4249, status: 'succeeded' });
    const charge = await stripe.charges.retrieve(pi.latest_charge as string);
    expect(charge).toMatchObject({ amount_refunded: 4249, refunded: false });
    const fee1 = await stripe.applicationFees.retrieve(charge.application_fee as string);
    expect(fee1.amount_refunded).toBe(Math.round((850 * 4249) / 8498));
    await stripe.refunds.create({ payment_intent: pi.id, amount: 4249, refund_application_fee: true, reverse_transfer: true });
    expect((await stripe.applicationFees.retrieve(charge.application_fee as string)).amount_refunded).toBe(850);
    expect(await stripe.charges.retrieve(charge.id)).toMatchObject({ amount_refunded: 8498, refunded: true });
  });

  it('a subscription item lowered with proration_behavior none: the next invoices bill the new amount', async () => {
    const start = Math.floor(Date.UTC(2032, 0, 15) / 1000);
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: start });
    const customer = await stripe.customers.create({ email: 'family-inst@agora.local', test_clock: clock.id });
    const product = await stripe.products.create({ name: 'Course, 2 learners' });
    const s = await stripe.checkout.sessions.create({
      ui_mode: 'embedded_page',
      mode: 'subscription',
      customer: customer.id,
      line_items: [
        { price_data: { currency: 'usd', unit_amount: 6667, product: product.id, recurring: { interval: 'month' } }, quantity: 1 },
      ],
      subscription_data: { application_fee_percent: 10 },
      return_url: 'http://localhost:3000/return?session_id={CHECKOUT_SESSION_ID}',
    });
    expect((await pay(s, '4242424242424242')).status).toBe(200);
    const sub = await stripe.subscriptions.retrieve((await stripe.checkout.sessions.retrieve(s.id)).subscription as string);
    const item = sub.items.data[0];
    // Prorating is not done by the sandbox: refused, never billed differently from Stripe.
    const prorate = await stripeError(
      stripe.subscriptions.update(sub.id, {
        items: [{ id: item.id, price_data: { currency: 'usd', unit_amount: 3334, product: product.id, recurring: { interval: 'month' } } }],
      }),
    );
    expect(prorate.param).toBe('proration_behavior');
    const unknown = await stripeError(
      stripe.subscriptions.update(sub.id, { items: [{ id: 'si_nope', quantity: 1 }], proration_behavior: 'none' }),
    );
    expect(unknown.statusCode).toBe(404);
    const updated = await stripe.subscriptions.update(sub.id, {
      items: [{ id: item.id, price_data: { currency: 'usd', unit_amount: 3334, product: product.id, recurring: { interval: 'month' } } }],
      proration_behavior: 'none',
    });
    expect(updated.items.data).toHaveLength(1);
    expect(updated.items.data[0]).toMatchObject({
      id: item.id,
      quantity: 1,
      price: { unit_amount: 3334, recurring: { interval: 'month' } },
    });
    await waitFor(() =>
      eventsFor(sub.id, 'customer.subscription.updated').find((e) => (e.data.previous_attributes as { items?: unknown })?.items),
    );
    // Quantity too: 2 of the new price, then back to 1.
    await stripe.subscriptions.update(sub.id, { items: [{ id: item.id, quantity: 2 }], proration_behavior: 'none' });
    await stripe.subscriptions.update(sub.id, { items: [{ id: item.id, quantity: 1 }], proration_behavior: 'none' });
    await stripe.subscriptions.update(sub.id, { cancel_at: Math.floor(Date.UTC(2032, 2, 15) / 1000) });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 70 * DAY });
    const invoices = (await stripe.invoices.list({ subscription: sub.id })).data.sort((a, b) => a.created - b.created);
    expect(invoices.map((i) => i.amount_paid)).toEqual([6667, 3334]);
    expect(invoices.map((i) => i.lines.data[0].quantity)).toEqual([1, 1]);
  });
});

describe('Connect and webhooks', () => {
  it('onboarding enables the account and emits a Connect account.updated', async () => {
    const fresh = await stripe.accounts.create({ type: 'express', email: 'e@agora.local', country: 'US' });
    expect(fresh).toMatchObject({
      object: 'account',
      type: 'express',
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
    });
    expect(fresh.requirements!.currently_due!.length).toBeGreaterThan(0);
    const link = await stripe.accountLinks.create({
      account: fresh.id,
      refresh_url: 'http://localhost:3000/r',
      return_url: 'http://localhost:3000/ok',
      type: 'account_onboarding',
    });
    expect(link).toMatchObject({ object: 'account_link' });
    expect(link.url).toContain(`/sandbox/connect/onboard/${fresh.id}`);
    const form = await (await fetch(`${base}${new URL(link.url).pathname}${new URL(link.url).search}`)).text();
    expect(form).toContain('000123456789');
    expect(form).toContain('110000000');
    const acct = await onboardedAccount();
    expect(acct).toMatchObject({
      charges_enabled: true,
      payouts_enabled: true,
      details_submitted: true,
      requirements: { currently_due: [] },
    });
    const ev = await waitFor(() => eventsFor(acct.id, 'account.updated')[0]);
    expect(ev.account).toBe(acct.id);
    const login = await stripe.accounts.createLoginLink(acct.id);
    expect(login.url).toContain(`/sandbox/connect/dashboard/${acct.id}`);
  });

  it('signs deliveries as Stripe and retries after a 500 until a 200', async () => {
    answers.push(500, 500);
    const c = await stripe.customers.create({ email: 'retry@agora.local' });
    const ev = await waitFor(() => eventsFor(c.id, 'customer.created')[0], 15_000);
    expect(ev.type).toBe('customer.created');
    expect(signatureFailures).toBe(0);
    const fetched = await stripe.events.retrieve(ev.id);
    expect(fetched.id).toBe(ev.id);
    const listed = await stripe.events.list({ type: 'customer.created', limit: 3 });
    expect(listed.data.length).toBeGreaterThan(0);
    expect(await app.stripeSandbox!.settle()).toBe(true);
  }, 30_000);
});

describe('its own schema', () => {
  it("keeps its tables in stripe_sandbox and none in the host database's public schema", async () => {
    const { rows } = await pglite.query<{ table_schema: string; table_name: string }>(
      `select table_schema, table_name from information_schema.tables where table_schema in ('public', 'stripe_sandbox') order by 1, 2`,
    );
    expect(rows).toEqual([
      { table_schema: 'stripe_sandbox', table_name: 'delivery' },
      { table_schema: 'stripe_sandbox', table_name: 'idempotency_key' },
      { table_schema: 'stripe_sandbox', table_name: 'migration' },
      { table_schema: 'stripe_sandbox', table_name: 'object' },
    ]);
  });

  it('mounted again on the same database (several apps at once): migrations apply once, state is shared', async () => {
    const c = await stripe.customers.create({ email: 'shared@agora.local' });
    const others = [Fastify({ logger: false }), Fastify({ logger: false })];
    try {
      await Promise.all(
        others.map((o) => o.register(stripeSandbox, { database, secretKey: SECRET_KEY, webhookSecret: SECRETS.platform }).ready()),
      );
      const [{ n }] = (await database.execute<{ n: number }>(sql`select count(*)::int as n from stripe_sandbox.migration`)).rows;
      expect(n).toBe(1);
      const res = await others[0].inject({
        method: 'GET',
        url: `/v1/customers/${c.id}`,
        headers: { authorization: `Bearer ${SECRET_KEY}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id: c.id, email: 'shared@agora.local' });
      expect(others[0].stripeSandbox!.webhookUrl).toBeNull();
    } finally {
      await Promise.all(others.map((o) => o.close()));
    }
  });

  it('refuses to start without its required options', async () => {
    const bare = Fastify({ logger: false });
    await expect(bare.register(stripeSandbox, { database, secretKey: '', webhookSecret: SECRETS.platform }).ready()).rejects.toThrow(
      /secretKey/,
    );
    await bare.close().catch(() => undefined);
  });
});
