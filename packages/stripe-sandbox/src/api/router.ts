import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sandboxIdempotency } from '../schema.js';
import { invalidRequest, StripeError } from '../errors.js';
import { parseForm, type FormObject } from '../form.js';
import { Params } from '../params.js';
import { find, list, listEnvelope, publicView, type Ctx, type Obj } from '../store.js';
import type { Sandbox } from '../sandbox.js';

/**
 * The /v1 router: every handler runs in one database transaction with a `Ctx` (the
 * Stripe-Account of the request, the events it emits), answers a Stripe object (expanded
 * per `expand[]`, private fields stripped), and POSTs honour `Idempotency-Key`.
 * Events are handed to the delivery worker once the transaction has committed.
 */
export interface ApiCall {
  ctx: Ctx;
  params: Params;
  /** Path parameters (`:id`). */
  path: Record<string, string>;
  request: FastifyRequest;
}

export type ApiHandler = (call: ApiCall) => Promise<unknown>;

export interface Router {
  get(url: string, handler: ApiHandler): void;
  post(url: string, handler: ApiHandler): void;
  del(url: string, handler: ApiHandler): void;
}

function paramsOf(request: FastifyRequest): FormObject {
  if (request.method === 'POST') {
    const body = request.body;
    return body && typeof body === 'object' ? (body as FormObject) : {};
  }
  const q = request.url.indexOf('?');
  return q < 0 ? {} : parseForm(request.url.slice(q + 1));
}

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );

/** Stripe's answer when a key comes back with other parameters. */
const idempotencyMismatch = (key: string) =>
  new StripeError(400, {
    type: 'idempotency_error',
    message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
  });

export function createRouter(scope: FastifyInstance, sandbox: Sandbox): Router {
  const db = sandbox.db;

  async function run(request: FastifyRequest, reply: FastifyReply, handler: ApiHandler) {
    const raw = paramsOf(request);
    const params = new Params(raw);
    const account = (request.headers['stripe-account'] as string | undefined)?.trim() || null;
    const key = request.method === 'POST' ? (request.headers['idempotency-key'] as string | undefined)?.trim() : undefined;
    const storeKey = key ? `${account ?? ''}:${key}` : null;
    const hash = createHash('sha256')
      .update(`${request.method} ${request.url.split('?')[0]} ${canonical(raw)}`)
      .digest('hex');

    if (storeKey) {
      // A placeholder row claims the key (status 0 = in progress; abandoned after a minute).
      await db
        .delete(sandboxIdempotency)
        .where(
          and(
            eq(sandboxIdempotency.key, storeKey),
            eq(sandboxIdempotency.status, 0),
            lt(sandboxIdempotency.createdAt, new Date(Date.now() - 60_000)),
          ),
        );
      const claimed = await db
        .insert(sandboxIdempotency)
        .values({ key: storeKey, requestHash: hash, status: 0, response: {} })
        .onConflictDoNothing()
        .returning({ key: sandboxIdempotency.key });
      if (claimed.length === 0) {
        const [prior] = await db.select().from(sandboxIdempotency).where(eq(sandboxIdempotency.key, storeKey));
        if (prior) {
          if (prior.requestHash !== hash) throw idempotencyMismatch(key!);
          if (prior.status === 0) {
            throw new StripeError(409, {
              type: 'idempotency_error',
              code: 'idempotency_key_in_use',
              message:
                'There is currently another in-progress request using this Stripe-Account and Idempotency-Key. Please try again later.',
            });
          }
          return reply.status(prior.status).header('idempotent-replayed', 'true').header('idempotency-key', key!).send(prior.response);
        }
      }
    }

    const ctx: Ctx = { tx: db, account, events: [], base: sandbox.publicBase() };
    try {
      const body = await db.transaction(async (tx) => {
        ctx.tx = tx;
        ctx.events = [];
        const result = await handler({ ctx, params, path: request.params as Record<string, string>, request });
        const expanded = await expandAll(ctx, structuredClone(result), params.strings('expand'));
        const out = publicView(expanded);
        if (storeKey)
          await tx
            .update(sandboxIdempotency)
            .set({ status: 200, response: out as object })
            .where(eq(sandboxIdempotency.key, storeKey));
        return out;
      });
      sandbox.delivery.kick(ctx.events);
      if (key) reply.header('idempotency-key', key);
      return reply.status(200).send(body);
    } catch (err) {
      if (storeKey) {
        // Card errors are results (replayed); anything else frees the key.
        if (err instanceof StripeError && err.status === 402) {
          await db.update(sandboxIdempotency).set({ status: 402, response: err.toJSON() }).where(eq(sandboxIdempotency.key, storeKey));
        } else {
          await db.delete(sandboxIdempotency).where(eq(sandboxIdempotency.key, storeKey));
        }
      }
      throw err;
    }
  }

  const add = (method: 'GET' | 'POST' | 'DELETE') => (url: string, handler: ApiHandler) => {
    scope.route({ method, url, handler: (request, reply) => run(request, reply, handler) });
  };
  return { get: add('GET'), post: add('POST'), del: add('DELETE') };
}

/** Applies every `expand[]` path (`customer`, `latest_invoice.payments`, `data.customer`). */
async function expandAll(ctx: Ctx, value: unknown, paths: string[]): Promise<unknown> {
  if (paths.length > 20) throw invalidRequest('You cannot expand more than 20 properties.', { param: 'expand' });
  for (const p of paths) {
    const parts = p.split('.');
    if (parts.length > 4) throw invalidRequest(`You cannot expand more than 4 levels of a property. Property: ${p}`, { param: 'expand' });
    value = await expandPath(ctx, value, parts);
  }
  return value;
}

async function expandPath(ctx: Ctx, value: unknown, path: string[]): Promise<unknown> {
  if (!value || typeof value !== 'object' || path.length === 0) return value;
  const obj = value as Obj;
  const [head, ...rest] = path;
  if (obj.object === 'list' && head === 'data') {
    obj.data = await Promise.all((obj.data as unknown[]).map((item) => expandPath(ctx, item, rest)));
    return obj;
  }
  let v: unknown = obj[head];
  if (obj.object === 'invoice' && head === 'payments') {
    const { data } = await list(ctx, 'invoice_payment', { parent: obj.id, anyAccount: true, limit: 100 });
    v = listEnvelope(`/v1/invoice_payments?invoice=${obj.id}`, data);
  } else if (obj.object === 'checkout.session' && head === 'line_items') {
    v = listEnvelope(`/v1/checkout/sessions/${obj.id}/line_items`, obj._sandbox?.line_items ?? []);
  } else if (Array.isArray(v) && !rest.length) {
    // A list of ids (a subscription's or invoice's `discounts`): each expanded.
    v = await Promise.all(v.map(async (x) => (typeof x === 'string' ? ((await find(ctx, x, undefined, { anyAccount: true })) ?? x) : x)));
  } else if (typeof v === 'string' && /^[a-z_]+_[A-Za-z0-9_]+$/.test(v)) {
    v = (await find(ctx, v, undefined, { anyAccount: true })) ?? v;
  } else if (v === undefined) {
    throw invalidRequest(`This property cannot be expanded (${head}).`, { param: 'expand' });
  }
  obj[head] = rest.length ? await expandPath(ctx, v, rest) : v;
  return obj;
}

/** Shared list answer: `limit`, `starting_after`, `ending_before` from the query. */
export function page(params: Params) {
  return { limit: params.int('limit') ?? 10, startingAfter: params.str('starting_after'), endingBefore: params.str('ending_before') };
}

export { sql };
