import { readFileSync } from 'node:fs';
import { desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sandboxDelivery, sandboxObject } from '../schema.js';
import { advanceClock } from '../clock.js';
import { checkCard } from '../cards.js';
import { completeCheckout, returnUrl, SessionSecretError } from '../checkout.js';
import { completeOnboarding } from '../api/connect.js';
import { StripeError, invalidRequest } from '../errors.js';
import type { Sandbox } from '../sandbox.js';
import * as shapes from '../shapes.js';
import { emit, find, get, insert, list, save, unixNow, type Ctx, type Obj } from '../store.js';
import { boundary, clockTime, days } from '../time.js';
import { checkoutPage } from './checkout.js';
import { cardUpdatePage, expressDashboardPage, onboardingPage } from './connect.js';
import { devDashboardPage } from './dashboard.js';
import { errorPage } from './layout.js';
import { receiptPage } from './receipt.js';

/**
 * The sandbox's pages (/sandbox/*) and their small JSON API (/sandbox/api/*): the
 * checkout form, receipts, Connect onboarding and Express dashboard, the developer
 * dashboard with test-clock controls. Development tool only: the sandbox is never
 * mounted in production, and no page shows the secret key.
 */
const ASSETS: Record<string, string> = {
  'sandbox.css': 'text/css; charset=utf-8',
  'checkout.js': 'text/javascript; charset=utf-8',
  'dashboard.js': 'text/javascript; charset=utf-8',
};
const assetCache = new Map<string, string>();
function asset(name: string): string {
  let text = assetCache.get(name);
  if (text === undefined) {
    text = readFileSync(new URL(`../assets/${name}`, import.meta.url), 'utf8');
    assetCache.set(name, text);
  }
  return text;
}

const sendHtml = (reply: FastifyReply, body: string, status = 200) =>
  reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);
const notFound = (reply: FastifyReply, what: string) =>
  sendHtml(reply, errorPage(404, 'Not found', `${what} does not exist in the payments sandbox.`), 404);

/** JSON error in Stripe's shape for the sandbox's own API. */
function apiError(reply: FastifyReply, err: unknown) {
  if (err instanceof StripeError) return reply.status(err.status).send(err.toJSON());
  if (err instanceof SessionSecretError) return reply.status(404).send({ error: { type: 'invalid_request_error', message: err.message } });
  throw err;
}

export async function sandboxPages(scope: FastifyInstance, sandbox: Sandbox) {
  // Sandbox pages may be framed by this same origin (the checkout form sits in an iframe
  // of the app's checkout page); the app's global CSP says frame-ancestors 'none'.
  scope.addHook('onSend', async (request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('text/html')) {
      const formTargets = (reply.getHeader('x-sandbox-form-action') as string | undefined) ?? '';
      reply.removeHeader('x-sandbox-form-action');
      reply.header(
        'content-security-policy',
        `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'self'; form-action 'self'${formTargets ? ' ' + formTargets : ''}; base-uri 'none'; object-src 'none'`,
      );
      reply.header('x-frame-options', 'SAMEORIGIN');
      reply.header('referrer-policy', 'no-referrer');
    }
    return payload;
  });

  scope.get<{ Params: { name: string } }>('/sandbox/assets/:name', async (request, reply) => {
    const type = ASSETS[request.params.name];
    if (!type) return reply.status(404).type('text/plain').send('Not found');
    return reply.type(type).header('cache-control', 'no-cache').send(asset(request.params.name));
  });

  // ── Checkout form ────────────────────────────────────────────────────────────────
  scope.get<{ Params: { id: string }; Querystring: { client_secret?: string } }>('/sandbox/checkout/:id', async (request, reply) => {
    const clientSecret = request.query.client_secret ?? '';
    const session = await sandbox.db.transaction(async (tx) =>
      find(ctxOf(sandbox, tx), request.params.id, 'checkout.session', { anyAccount: true }),
    );
    if (!session || session.client_secret !== clientSecret) return notFound(reply, 'This checkout session');
    return sendHtml(reply, checkoutPage(session, clientSecret));
  });

  scope.post<{
    Params: { id: string };
    Body: { client_secret?: string; number?: string; exp?: string; cvc?: string; name?: string; email?: string };
  }>('/sandbox/api/checkout/:id/confirm', async (request, reply) => {
    const b = request.body ?? {};
    try {
      const session = await sandbox.transaction((ctx) =>
        completeCheckout(ctx, request.params.id, {
          clientSecret: String(b.client_secret ?? ''),
          number: String(b.number ?? ''),
          exp: String(b.exp ?? ''),
          cvc: String(b.cvc ?? ''),
          name: String(b.name ?? ''),
          email: b.email,
        }),
      );
      return { status: session.status, payment_status: session.payment_status, redirect: returnUrl(session) };
    } catch (err) {
      return apiError(reply, err);
    }
  });

  // ── Receipts ─────────────────────────────────────────────────────────────────────
  scope.get<{ Params: { id: string } }>('/sandbox/receipts/:id', async (request, reply) => {
    const data = await sandbox.db.transaction(async (tx) => {
      const ctx = ctxOf(sandbox, tx);
      const charge = await find(ctx, request.params.id, 'charge', { anyAccount: true });
      if (!charge) return null;
      return { charge, refunds: (await list(ctx, 'refund', { parent: charge.id, anyAccount: true, limit: 100 })).data };
    });
    if (!data || !data.charge.paid) return notFound(reply, 'This receipt');
    return sendHtml(reply, receiptPage(data.charge, data.refunds));
  });

  // ── The customer portal's card update (billing_portal.session url) ───────────────
  const portalSession = (id: string) =>
    sandbox.db.transaction((tx) => find(ctxOf(sandbox, tx), id, 'billing_portal.session', { anyAccount: true }));
  const currentLast4 = async (customerId: string) =>
    sandbox.db.transaction(async (tx) => {
      const ctx = ctxOf(sandbox, tx);
      const customer = await find(ctx, customerId, 'customer', { anyAccount: true });
      const pmId = customer?.invoice_settings?.default_payment_method as string | undefined;
      const pm = pmId ? await find(ctx, pmId, 'payment_method', { anyAccount: true }) : null;
      return (pm?.card?.last4 as string | undefined) ?? null;
    });
  scope.get<{ Params: { id: string } }>('/sandbox/billing/:id', async (request, reply) => {
    const session = await portalSession(request.params.id);
    if (!session) return notFound(reply, 'This card update session');
    reply.header('x-sandbox-form-action', originOf(session.return_url));
    return sendHtml(reply, cardUpdatePage(session, { last4: await currentLast4(session.customer) }));
  });
  scope.post<{ Params: { id: string }; Body: Record<string, unknown> }>('/sandbox/billing/:id', async (request, reply) => {
    const session = await portalSession(request.params.id);
    if (!session) return notFound(reply, 'This card update session');
    const body = (request.body ?? {}) as Record<string, unknown>;
    try {
      await sandbox.transaction((ctx) =>
        changeCard(ctx, session.customer, { number: String(body.number ?? ''), exp: String(body.exp ?? ''), cvc: String(body.cvc ?? '') }),
      );
    } catch (err) {
      if (err instanceof StripeError) {
        const message = (err.toJSON() as { error?: { message?: string } }).error?.message ?? 'This card cannot be used.';
        return sendHtml(reply, cardUpdatePage(session, { error: message, last4: await currentLast4(session.customer) }), 402);
      }
      throw err;
    }
    return reply.redirect(safeRedirect(session.return_url ?? '/'), 303);
  });

  // ── Connect onboarding and Express dashboard ──────────────────────────────────────
  scope.get<{ Params: { id: string }; Querystring: Record<string, string> }>('/sandbox/connect/onboard/:id', async (request, reply) => {
    const acct = await sandbox.db.transaction((tx) => find(ctxOf(sandbox, tx), request.params.id, 'account', { anyAccount: true }));
    if (!acct) return notFound(reply, 'This connected account');
    const q = request.query;
    const expired = q.expires ? Number(q.expires) < unixNow() : false;
    reply.header('x-sandbox-form-action', originOf(q.return_url));
    return sendHtml(reply, onboardingPage(acct, { return_url: q.return_url ?? '/', refresh_url: q.refresh_url ?? '/', expired }));
  });
  scope.post<{ Params: { id: string }; Querystring: Record<string, string>; Body: Record<string, unknown> }>(
    '/sandbox/connect/onboard/:id',
    async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const name = String(body.legal_name ?? '').trim();
      if (!name) return sendHtml(reply, errorPage(400, 'Legal name missing', 'Go back and enter your legal name.'), 400);
      try {
        await sandbox.transaction((ctx) => completeOnboarding(ctx, request.params.id, { name, country: String(body.country ?? '') }));
      } catch (err) {
        if (err instanceof StripeError && err.status === 404) return notFound(reply, 'This connected account');
        throw err;
      }
      return reply.redirect(safeRedirect(request.query.return_url), 303);
    },
  );
  scope.get<{ Params: { id: string } }>('/sandbox/connect/dashboard/:id', async (request, reply) => {
    const data = await sandbox.db.transaction(async (tx) => {
      const ctx = ctxOf(sandbox, tx);
      const acct = await find(ctx, request.params.id, 'account', { anyAccount: true });
      if (!acct) return null;
      const charges = (
        await list(ctx, 'charge', {
          anyAccount: true,
          limit: 100,
          extra: sql`${sandboxObject.data}->'transfer_data'->>'destination' = ${acct.id} and (${sandboxObject.data}->>'paid')::boolean`,
        })
      ).data;
      const refunds = (
        await list(ctx, 'refund', {
          anyAccount: true,
          limit: 100,
          extra: sql`${sandboxObject.data}->'_sandbox'->>'destination' = ${acct.id}`,
        })
      ).data;
      return { acct, charges, refunds };
    });
    if (!data) return notFound(reply, 'This connected account');
    return sendHtml(reply, expressDashboardPage(data.acct, data.charges, data.refunds));
  });

  // ── Developer dashboard and its controls ─────────────────────────────────────────
  scope.get('/sandbox', async (_request, reply) => {
    const data = await sandbox.db.transaction(async (tx) => {
      const ctx = ctxOf(sandbox, tx);
      const opts = { anyAccount: true, limit: 50 };
      const customers = (await list(ctx, 'customer', opts)).data;
      const clocks = new Map<string, number>();
      for (const c of customers)
        if (c.test_clock && !clocks.has(c.test_clock)) clocks.set(c.test_clock, await clockTime(ctx, c.test_clock));
      const rows = await tx
        .select({
          data: sandboxObject.data,
          deliveredAt: sandboxDelivery.deliveredAt,
          attempts: sandboxDelivery.attempts,
          lastStatus: sandboxDelivery.lastStatus,
          lastError: sandboxDelivery.lastError,
        })
        .from(sandboxObject)
        .leftJoin(sandboxDelivery, eq(sandboxDelivery.eventId, sandboxObject.id))
        .where(eq(sandboxObject.type, 'event'))
        .orderBy(desc(sql`${sandboxObject.id} collate "C"`))
        .limit(50);
      return {
        customers,
        clocks,
        charges: (await list(ctx, 'charge', opts)).data,
        subscriptions: (await list(ctx, 'subscription', opts)).data,
        events: rows.map((r) => ({
          event: r.data as Obj,
          delivered: !!r.deliveredAt,
          attempts: r.attempts ?? 0,
          lastStatus: r.lastStatus,
          lastError: r.lastError,
        })),
      };
    });
    return sendHtml(reply, devDashboardPage({ ...data, webhookUrl: sandbox.webhookTarget() }));
  });

  scope.post<{ Params: { id: string }; Body: { days?: number; months?: number } }>(
    '/sandbox/api/customers/:id/advance',
    async (request, reply) => {
      try {
        const clock = await sandbox.transaction((ctx) => advanceCustomer(ctx, request.params.id, request.body ?? {}));
        return { clock: clock.id, frozen_time: clock.frozen_time };
      } catch (err) {
        return apiError(reply, err);
      }
    },
  );

  scope.post<{ Params: { id: string }; Body: { number?: string; exp?: string; cvc?: string } }>(
    '/sandbox/api/customers/:id/card',
    async (request, reply) => {
      try {
        const pm = await sandbox.transaction((ctx) => changeCard(ctx, request.params.id, request.body ?? {}));
        return { payment_method: pm.id, last4: pm.card.last4 };
      } catch (err) {
        return apiError(reply, err);
      }
    },
  );
}

const ctxOf = (sandbox: Sandbox, tx: Ctx['tx']): Ctx => ({ tx, account: null, events: [], base: sandbox.publicBase() });

function originOf(url: string | undefined): string {
  try {
    return url ? new URL(url).origin : '';
  } catch {
    return '';
  }
}

/** Only http(s) URLs (or paths) as redirect targets. */
function safeRedirect(url: string | undefined): string {
  if (!url) return '/';
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : '/';
  } catch {
    return '/';
  }
}

/**
 * Developer convenience: move a customer's time forward. A customer without a test clock
 * gets one frozen at now (its subscriptions join it), then the clock advances.
 */
export async function advanceCustomer(ctx: Ctx, customerId: string, by: { days?: number; months?: number }): Promise<Obj> {
  const customer = await get(ctx, customerId, 'customer', { lock: true, anyAccount: true });
  const d = Number(by.days ?? 0);
  const m = Number(by.months ?? 0);
  if (!(Number.isFinite(d) && Number.isFinite(m)) || d < 0 || m < 0 || d + m <= 0 || d > 3660 || m > 120) {
    throw invalidRequest('Give a positive number of days or months (at most 10 years).', { param: 'days' });
  }
  let clockId = customer.test_clock as string | null;
  if (!clockId) {
    const clock = shapes.testClock({ frozen_time: unixNow(), name: `Sandbox clock of ${customer.id}`, created: unixNow() }) as Obj;
    await insert(ctx, clock, { account: null });
    await emit(ctx, 'test_helpers.test_clock.created', clock);
    customer.test_clock = clock.id;
    await save(ctx, customer);
    const subs = await list(ctx, 'subscription', { anyAccount: true, limit: 100, where: { customer: customer.id } });
    for (const s of subs.data) {
      s.test_clock = clock.id;
      await save(ctx, s);
    }
    clockId = clock.id;
  }
  const from = await clockTime(ctx, clockId);
  const to = (m ? boundary(from, 'month', 1, m) : from) + days(d);
  return advanceClock(ctx, clockId!, to);
}

/** Developer convenience: the card used for the customer's later charges. */
export async function changeCard(ctx: Ctx, customerId: string, input: { number?: string; exp?: string; cvc?: string }): Promise<Obj> {
  const customer = await get(ctx, customerId, 'customer', { lock: true, anyAccount: true });
  const now = await clockTime(ctx, customer.test_clock ?? null);
  const year = new Date(now * 1000).getUTCFullYear() + 3;
  const card = checkCard({ number: String(input.number ?? ''), exp: input.exp ?? `12/${year}`, cvc: input.cvc ?? '123' }, now);
  const pm = shapes.paymentMethod(card, customer.id, now) as Obj;
  pm._sandbox = { card };
  await insert(ctx, pm, { parent: customer.id, account: null });
  await emit(ctx, 'payment_method.attached', pm);
  customer.invoice_settings = { ...customer.invoice_settings, default_payment_method: pm.id };
  await save(ctx, customer);
  await emit(ctx, 'customer.updated', customer);
  const subs = await list(ctx, 'subscription', { anyAccount: true, limit: 100, where: { customer: customer.id } });
  for (const s of subs.data) {
    if (s.status === 'canceled') continue;
    s.default_payment_method = pm.id;
    await save(ctx, s);
    await emit(ctx, 'customer.subscription.updated', s, { previousAttributes: { default_payment_method: null } });
  }
  return pm;
}
