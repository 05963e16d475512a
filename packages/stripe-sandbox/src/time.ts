import type Stripe from 'stripe';
import { find, unixNow, type Ctx } from './store.js';

/**
 * Time in the sandbox: objects of a customer attached to a test clock live at the clock's
 * frozen time; everything else at the wall clock.
 */
export async function customerNow(ctx: Ctx, customerId: string | null | undefined): Promise<number> {
  if (!customerId) return unixNow();
  const customer = await find(ctx, customerId, 'customer', { anyAccount: true });
  return clockTime(ctx, (customer?.test_clock as string | null) ?? null);
}

export async function clockTime(ctx: Ctx, clockId: string | null): Promise<number> {
  if (!clockId) return unixNow();
  const clock = await find(ctx, clockId, 'test_helpers.test_clock', { anyAccount: true });
  return (clock?.frozen_time as number | undefined) ?? unixNow();
}

const DAY = 86400;

/**
 * The k-th billing boundary after `anchor` for an interval: calendar months and years
 * keep the anchor's day of month (clamped to the month's last day, as Stripe does).
 */
export function boundary(anchor: number, interval: Stripe.Price.Recurring.Interval, count: number, k: number): number {
  const steps = count * k;
  if (interval === 'day') return anchor + steps * DAY;
  if (interval === 'week') return anchor + steps * 7 * DAY;
  const months = interval === 'year' ? steps * 12 : steps;
  const d = new Date(anchor * 1000);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = Math.min(d.getUTCDate(), lastDay);
  return Math.floor(Date.UTC(y, m, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()) / 1000);
}

export const days = (n: number) => n * DAY;
