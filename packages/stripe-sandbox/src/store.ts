import { and, desc, eq, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sandboxDelivery, sandboxObject } from './schema.js';
import { noSuch } from './errors.js';
import { newId } from './ids.js';

/**
 * The sandbox's object store: every Stripe object as its JSON shape in `stripe_sandbox.object`
 * (id, type = Stripe's `object`, account = Connect account it belongs to, parent = the
 * owner used for lookups). Private bookkeeping lives under `_sandbox` inside `data` and is
 * stripped from every API answer (see `publicView`).
 */
/** The database the sandbox was given (any drizzle PostgreSQL driver) or a transaction of it. */
export type SandboxDb = PgDatabase<PgQueryResultHKT>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Stripe-shaped JSON of every kind; each route reads the fields it knows
export type Obj = Record<string, any> & { id: string; object: string };

/** A transaction (or the database) plus what happened in it. */
export interface Ctx {
  tx: SandboxDb;
  /** The Connect account of the request (Stripe-Account header); null = the platform. */
  account: string | null;
  /** Event ids created in this transaction: delivered once it commits. */
  events: string[];
  /** Public base URL of this server for links people open (receipts, onboarding). */
  base: string;
}

/** Human words for 404s ("No such checkout.session: ..."). */
const NAMES: Record<string, string> = {
  'checkout.session': 'checkout.session',
  'test_helpers.test_clock': 'test_clock',
};

const accountIs = (account: string | null) => (account ? eq(sandboxObject.account, account) : isNull(sandboxObject.account));

export async function find(ctx: Ctx, id: string, type?: string, opts: { lock?: boolean; anyAccount?: boolean } = {}): Promise<Obj | null> {
  const conds: SQL[] = [eq(sandboxObject.id, id)];
  if (type) conds.push(eq(sandboxObject.type, type));
  if (!opts.anyAccount) conds.push(accountIs(ctx.account)!);
  let q = ctx.tx
    .select({ data: sandboxObject.data })
    .from(sandboxObject)
    .where(and(...conds))
    .$dynamic();
  if (opts.lock) q = q.for('update');
  const rows = await q;
  return (rows[0]?.data as Obj | undefined) ?? null;
}

/** The object or Stripe's 404 (`No such customer: 'cus_x'`). */
export async function get(
  ctx: Ctx,
  id: string,
  type: string,
  opts: { lock?: boolean; param?: string; anyAccount?: boolean } = {},
): Promise<Obj> {
  const obj = await find(ctx, id, type, opts);
  if (!obj) throw noSuch(NAMES[type] ?? type, id, opts.param);
  return obj;
}

export async function insert(ctx: Ctx, obj: Obj, opts: { parent?: string | null; account?: string | null } = {}): Promise<Obj> {
  await ctx.tx.insert(sandboxObject).values({
    id: obj.id,
    type: obj.object,
    account: opts.account === undefined ? ctx.account : opts.account,
    data: obj,
    parent: opts.parent ?? null,
  });
  return obj;
}

export async function save(ctx: Ctx, obj: Obj): Promise<Obj> {
  await ctx.tx.update(sandboxObject).set({ data: obj, updatedAt: new Date() }).where(eq(sandboxObject.id, obj.id));
  return obj;
}

export interface ListOpts {
  /** Equality filters on top-level string fields of the object (`customer`, `subscription`). */
  where?: Record<string, string | undefined>;
  parent?: string;
  limit?: number;
  startingAfter?: string;
  endingBefore?: string;
  anyAccount?: boolean;
  /** Oldest first (default: newest first, as Stripe lists). */
  ascending?: boolean;
  extra?: SQL;
}

/** Objects of a type, newest first, with Stripe's cursor pagination. */
export async function list(ctx: Ctx, type: string, opts: ListOpts = {}): Promise<{ data: Obj[]; hasMore: boolean }> {
  const limit = Math.min(Math.max(opts.limit ?? 10, 1), 100);
  const conds: SQL[] = [eq(sandboxObject.type, type)];
  if (!opts.anyAccount) conds.push(accountIs(ctx.account)!);
  if (opts.parent) conds.push(eq(sandboxObject.parent, opts.parent));
  for (const [field, value] of Object.entries(opts.where ?? {})) {
    if (value !== undefined) conds.push(sql`${sandboxObject.data}->>${field} = ${value}`);
  }
  // ids sort by creation time (ids.ts); compare bytewise, whatever the database collation.
  const idC = sql`${sandboxObject.id} collate "C"`;
  if (opts.startingAfter) conds.push(sql`${idC} < ${opts.startingAfter}`);
  if (opts.endingBefore) conds.push(sql`${idC} > ${opts.endingBefore}`);
  if (opts.extra) conds.push(opts.extra);
  const asc = opts.ascending || !!opts.endingBefore;
  const rows = await ctx.tx
    .select({ data: sandboxObject.data })
    .from(sandboxObject)
    .where(and(...conds))
    .orderBy(asc ? sql`${idC} asc` : sql`${idC} desc`)
    .limit(limit + 1);
  let data = rows.slice(0, limit).map((r) => r.data as Obj);
  if (opts.endingBefore && !opts.ascending) data = data.reverse();
  return { data, hasMore: rows.length > limit };
}

/** Stripe's list envelope. */
export function listEnvelope(url: string, data: unknown[], hasMore = false) {
  return { object: 'list' as const, data, has_more: hasMore, url };
}

/** The API view of a stored object: private `_sandbox` bookkeeping removed (deeply). */
export function publicView<T>(value: T): T {
  if (Array.isArray(value)) return value.map(publicView) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== '_sandbox') out[k] = publicView(v);
    return out as T;
  }
  return value;
}

export const API_VERSION = '2026-10-28.endive';

/**
 * Records an event (and its pending webhook delivery) in this transaction; the delivery
 * worker sends it once the transaction has committed.
 */
export async function emit(
  ctx: Ctx,
  type: string,
  object: Obj,
  opts: { account?: string | null; previousAttributes?: Record<string, unknown> } = {},
): Promise<Obj> {
  const account = opts.account === undefined ? ctx.account : opts.account;
  const event: Obj = {
    id: newId('evt'),
    object: 'event',
    api_version: API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: {
      object: publicView(object),
      ...(opts.previousAttributes ? { previous_attributes: opts.previousAttributes } : {}),
    },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    ...(account ? { account } : {}),
  };
  await ctx.tx.insert(sandboxObject).values({ id: event.id, type: 'event', account, data: event, parent: object.id });
  await ctx.tx.insert(sandboxDelivery).values({ eventId: event.id, nextAttemptAt: new Date() });
  ctx.events.push(event.id);
  return event;
}

/** Unix seconds now (wall clock). */
export const unixNow = () => Math.floor(Date.now() / 1000);

export { desc, lt };
