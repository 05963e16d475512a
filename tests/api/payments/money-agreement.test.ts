import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TestApp } from '../../support/app.js';
import type { AnalyticsResult } from '../../../src/shared/analytics-schemas.js';
import { dayFromNow, drop, queryRows } from '../../support/courses.js';
import { get } from '../../support/http.js';
import { buildPaymentsApp, makePayoutEducator, paidSeat, waitFor } from '../../support/payments.js';

/**
 * Money that is right everywhere (issue 13): one educator sells in USD and GBP through the
 * real checkout in the payments sandbox; one sale is refunded in full and one in part through
 * the drop path. Per currency, to the cent, four readings agree: the analytics revenue (gross,
 * fee net of the fee given back, refunds, net), the payouts dashboard's totals, sums over our
 * payment table, and sums over the provider's objects (charges, refunds, application fees and
 * their refunds, read through the Stripe SDK). The analytics sales CSV's Net column too.
 *
 *   USD: $120.00 (moderate policy, dropped before the start: refunded in full, fee back in full);
 *        $49.99 (kept).
 *   GBP: £77.77 (flexible policy, dropped after the first class: half refunded, fee back in
 *        proportion, an odd amount so rounding shows); £25.00 (kept).
 */
let app: TestApp;

beforeAll(async () => {
  app = await buildPaymentsApp();
});
afterAll(async () => {
  await app?.close();
});

interface Money {
  gross: number;
  fee: number;
  refunds: number;
  net: number;
}
type PerCurrency = Record<string, Money>;

const cents = (decimal: string) => Math.round(Number(decimal) * 100);
const add = (into: PerCurrency, currency: string, m: Money) => {
  const t = (into[currency] ??= { gross: 0, fee: 0, refunds: 0, net: 0 });
  t.gross += m.gross;
  t.fee += m.fee;
  t.refunds += m.refunds;
  t.net += m.net;
};

describe('analytics, dashboard, payment table and provider agree to the cent', () => {
  let educator: Awaited<ReturnType<typeof makePayoutEducator>>;
  const purchases: string[] = [];

  beforeAll(async () => {
    educator = await makePayoutEducator(app);
    const full = await paidSeat(app, educator, { priceCents: 12000, refundPolicy: 'moderate', title: 'Full refund' });
    const keptUsd = await paidSeat(app, educator, { priceCents: 4999, title: 'Kept USD' });
    const part = await paidSeat(app, educator, { priceCents: 7777, currency: 'gbp', refundPolicy: 'flexible', title: 'Part refund' });
    const keptGbp = await paidSeat(app, educator, { priceCents: 2500, currency: 'gbp', title: 'Kept GBP' });
    purchases.push(full.purchase.id, keptUsd.purchase.id, part.purchase.id, keptGbp.purchase.id);

    // The first class of the partly refunded session took place: the flexible policy gives half back.
    await app.database.db.execute(
      sql`update class_time set starts_at = now() - interval '1 day', ends_at = now() - interval '23 hours' where session_id = ${part.sessionId}`,
    );
    const fullDrop = await drop(app, full.learner, full.courseId, full.sessionId);
    expect(fullDrop.statusCode, fullDrop.body).toBe(200);
    expect(fullDrop.json().refund).toMatchObject({ amountCents: 12000, full: true });
    const partDrop = await drop(app, part.learner, part.courseId, part.sessionId);
    expect(partDrop.statusCode, partDrop.body).toBe(200);
    expect(partDrop.json().refund).toMatchObject({ full: false });
    expect(partDrop.json().refund.amountCents).toBeGreaterThan(0);
    expect(partDrop.json().refund.amountCents).toBeLessThan(7777);

    // Both refunds recorded with the fee the provider gave back.
    await waitFor(async () => {
      const rows = await queryRows<{ n: number }>(
        app,
        sql`select count(*)::int as n from payment where purchase_id in (${full.purchase.id}, ${part.purchase.id})
              and refunded_cents > 0 and fee_refunded_cents > 0`,
      );
      return rows[0].n === 2;
    }, 'refunds and fee refunds recorded');
  });

  /** Analytics over a range that covers the sales (a day either side: a run may cross midnight UTC). */
  const range = () => `from=${dayFromNow(-1)}&to=${dayFromNow(1)}`;

  async function analyticsRevenue(): Promise<{ result: AnalyticsResult; money: PerCurrency }> {
    const res = await get(app, `/api/educator/${educator.id}/analytics?${range()}`, { cookie: educator.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const result: AnalyticsResult = res.json();
    return { result, money: Object.fromEntries(result.revenue.map((r) => [r.currency, r.current])) };
  }

  async function dashboard(): Promise<PerCurrency> {
    const res = await get(app, '/api/educator/payouts', { cookie: educator.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const out: PerCurrency = {};
    for (const t of res.json().totals as {
      currency: string;
      grossCents: number;
      feeCents: number;
      refundedCents: number;
      feeRefundedCents: number;
      netCents: number;
    }[]) {
      add(out, t.currency, { gross: t.grossCents, fee: t.feeCents - t.feeRefundedCents, refunds: t.refundedCents, net: t.netCents });
    }
    return out;
  }

  async function table(): Promise<PerCurrency> {
    const rows = await queryRows<{ currency: string; gross: number; fee: number; refunds: number; net: number }>(
      app,
      sql`select currency, sum(amount_cents)::int as gross, sum(fee_cents - fee_refunded_cents)::int as fee,
                 sum(refunded_cents)::int as refunds, sum(amount_cents - fee_cents - refunded_cents + fee_refunded_cents)::int as net
          from payment where educator_id = ${educator.id} group by currency`,
    );
    return Object.fromEntries(rows.map(({ currency, ...m }) => [currency, m]));
  }

  /** The provider's figures, found from each purchase's payment intent (not from our payment rows). */
  async function provider(): Promise<PerCurrency> {
    const stripe = app.stripe();
    const out: PerCurrency = {};
    for (const id of purchases) {
      const [p] = await queryRows<{ payment_intent_id: string }>(app, sql`select payment_intent_id from purchase where id = ${id}`);
      expect(p.payment_intent_id).toMatch(/^pi_/);
      const charges = await stripe.charges.list({ payment_intent: p.payment_intent_id });
      for (const charge of charges.data.filter((c) => c.paid)) {
        const refunds = await stripe.refunds.list({ charge: charge.id, limit: 100 });
        const refunded = refunds.data.reduce((n, r) => n + r.amount, 0);
        expect(refunded).toBe(charge.amount_refunded);
        let fee = 0;
        if (charge.application_fee) {
          const appFee = await stripe.applicationFees.retrieve(charge.application_fee as string);
          const feeBack = appFee.refunds.data.reduce((n, r) => n + r.amount, 0);
          expect(feeBack).toBe(appFee.amount_refunded);
          expect(appFee.currency).toBe(charge.currency);
          fee = appFee.amount - feeBack;
        }
        add(out, charge.currency, { gross: charge.amount, fee, refunds: refunded, net: charge.amount - fee - refunded });
      }
    }
    return out;
  }

  it('revenue per currency: analytics == dashboard == payment table == provider', async () => {
    const { result, money: analytics } = await analyticsRevenue();
    const [dash, rows, stripe] = [await dashboard(), await table(), await provider()];
    expect(Object.keys(analytics).sort()).toEqual(['gbp', 'usd']);
    expect(dash).toEqual(analytics);
    expect(rows).toEqual(analytics);
    expect(stripe).toEqual(analytics);
    // The readings inside analytics add up too: net = gross - fee - refunds, the series and the per-course table.
    for (const [currency, m] of Object.entries(analytics)) {
      expect(m.net).toBe(m.gross - m.fee - m.refunds);
      const series = result.series.revenue.filter((p) => p.currency === currency);
      expect(series.reduce((n, p) => n + p.net, 0)).toBe(m.net);
      expect(series.reduce((n, p) => n + p.gross, 0)).toBe(m.gross);
      const courses = result.table.flatMap((r) => r.revenue.filter((x) => x.currency === currency));
      expect(courses.reduce((n, x) => n + x.net, 0)).toBe(m.net);
      expect(courses.reduce((n, x) => n + x.gross, 0)).toBe(m.gross);
      expect(courses.reduce((n, x) => n + x.refunds, 0)).toBe(m.refunds);
    }
    // Known values: USD 120.00 + 49.99 gross, 12.00 fee fully returned, 5.00 kept; 120.00 refunded.
    expect(analytics.usd).toEqual({ gross: 16999, fee: 500, refunds: 12000, net: 4499 });
    // GBP: 77.77 + 25.00 gross; fees 7.78 + 2.50, of which 3.89 given back with the 38.88 refunded
    // (half of 77.77, rounded down; the fee back is 7.78 x 38.88 / 77.77 = 3.8895, rounded).
    expect(analytics.gbp).toEqual({ gross: 10277, fee: 639, refunds: 3888, net: 5750 });
    expect(result.figures.refunds.current).toBe(2);
  });

  it('the sales CSV: one row per sale, and its Net (and Gross, Fee, Refund) columns sum to the same', async () => {
    const res = await get(app, `/api/educator/${educator.id}/analytics/sales.csv?${range()}`, { cookie: educator.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const [header, ...lines] = res.body.trim().split('\r\n');
    expect(header).toBe('"Date (UTC)","Course","Session","Learner","Gross","Fee","Refund","Net","Currency"');
    expect(lines).toHaveLength(4);
    const csv: PerCurrency = {};
    for (const line of lines) {
      // Amounts are plain numbers; the currency is the last cell.
      const cells = line.split(',');
      const [gross, fee, refund, net] = cells.slice(-5, -1).map(cents);
      expect(net).toBe(gross - fee - refund);
      add(csv, cells[cells.length - 1].replaceAll('"', '').toLowerCase(), { gross, fee, refunds: refund, net });
    }
    const { money: analytics } = await analyticsRevenue();
    expect(csv).toEqual(analytics);
    expect(csv).toEqual(await table());
  });
});
