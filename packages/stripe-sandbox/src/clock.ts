import { sql } from 'drizzle-orm';
import { sandboxObject } from './schema.js';
import { attemptInvoice, cancelSubscription, renewSubscription } from './billing.js';
import { invalidParam } from './errors.js';
import { emit, get, list, save, type Ctx, type Obj } from './store.js';

/**
 * Test clocks: advancing one runs every subscription of the clock's customers through
 * each billing boundary up to the new frozen time, in time order: cancel_at reached →
 * canceled; period end → renewal invoice charged; failed invoice → retries; the last
 * failed retry → canceled.
 */
type Action = { at: number; sub: Obj; kind: 'cancel' | 'renew' | 'retry'; invoice?: Obj };

async function nextAction(ctx: Ctx, sub: Obj): Promise<Action | null> {
  if (sub.status === 'canceled' || sub.status === 'incomplete_expired') return null;
  const periodEnd = Math.min(...sub.items.data.map((i: Obj) => i.current_period_end as number));
  const candidates: Action[] = [];
  if (sub.cancel_at && sub.cancel_at <= periodEnd) candidates.push({ at: sub.cancel_at, sub, kind: 'cancel' });
  else if (sub.cancel_at_period_end) candidates.push({ at: periodEnd, sub, kind: 'cancel' });
  else candidates.push({ at: periodEnd, sub, kind: 'renew' });
  const open = await list(ctx, 'invoice', { parent: sub.id, where: { status: 'open' }, anyAccount: true, limit: 100 });
  for (const inv of open.data) {
    if (inv.next_payment_attempt) candidates.push({ at: inv.next_payment_attempt, sub, kind: 'retry', invoice: inv });
  }
  // Same instant: retries before renewals before cancellation.
  const order = { retry: 0, renew: 1, cancel: 2 };
  candidates.sort((a, b) => a.at - b.at || order[a.kind] - order[b.kind]);
  return candidates[0] ?? null;
}

/** Subscriptions of every customer on the clock that may still change. */
async function liveSubscriptions(ctx: Ctx, clockId: string): Promise<Obj[]> {
  const rows = await ctx.tx
    .select({ data: sandboxObject.data })
    .from(sandboxObject)
    .where(
      sql`${sandboxObject.type} = 'subscription' and ${sandboxObject.data}->>'test_clock' = ${clockId} and ${sandboxObject.data}->>'status' not in ('canceled', 'incomplete_expired')`,
    )
    .orderBy(sql`${sandboxObject.id} collate "C"`)
    .for('update');
  return rows.map((r) => r.data as Obj);
}

export async function advanceClock(ctx: Ctx, clockId: string, to: number): Promise<Obj> {
  const clock = await get(ctx, clockId, 'test_helpers.test_clock', { lock: true, anyAccount: true });
  if (to < clock.frozen_time) {
    throw invalidParam('frozen_time', `The test clock's new frozen_time must be after its current frozen_time (${clock.frozen_time}).`);
  }
  const subs = await liveSubscriptions(ctx, clockId);
  for (let guard = 0; guard < 5000; guard++) {
    let next: Action | null = null;
    for (const sub of subs) {
      const a = await nextAction(ctx, sub);
      if (a && a.at <= to && (!next || a.at < next.at)) next = a;
    }
    if (!next) break;
    // Objects created during this step live at the step's time.
    clock.frozen_time = next.at;
    await save(ctx, clock);
    if (next.kind === 'cancel') await cancelSubscription(ctx, next.sub, next.at, 'cancellation_requested');
    else if (next.kind === 'renew') await renewSubscription(ctx, next.sub, next.at);
    else await attemptInvoice(ctx, next.invoice!, next.sub, next.at);
  }
  clock.frozen_time = to;
  clock.status = 'ready';
  await save(ctx, clock);
  await emit(ctx, 'test_helpers.test_clock.ready', clock);
  return clock;
}
