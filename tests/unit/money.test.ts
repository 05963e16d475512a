import { describe, expect, it } from 'vitest';
import { formatPrice } from '../../src/shared/courses.js';
import { formatDeduction, formatMoney, MINUS, netOf, totalsByCurrency } from '../../src/shared/money.js';
import {
  addMonths,
  installmentDates,
  installmentSchedule,
  installmentsOffered,
  installmentTerms,
  maxInstallmentsFor,
} from '../../src/shared/payments.js';
import { deduction, money } from '../../src/web/lib/format.js';
import { splitRefund } from '../../src/server/payments/refund-plans.js';

/** One money format everywhere (screens, emails, CSV), one minus sign, never a sum across currencies. */
describe('money format', () => {
  it('writes cents in their currency', () => {
    expect(formatMoney(12000, 'usd')).toBe('$120.00');
    expect(formatMoney(5000, 'GBP')).toBe('£50.00');
    expect(formatMoney(7000, 'eur')).toBe('€70.00');
    expect(formatMoney(0, 'usd')).toBe('$0.00');
    expect(formatMoney(3333, 'usd')).toBe('$33.33');
    expect(formatMoney(123456789, 'usd')).toBe('$1,234,567.89');
  });

  it('has one minus sign, U+2212, before the symbol; never a hyphen, never "−$0.00"', () => {
    expect(MINUS).toBe('\u2212');
    expect(formatMoney(-1200, 'usd')).toBe('\u2212$12.00');
    expect(formatMoney(-1200, 'usd')).not.toContain('-');
    expect(formatDeduction(1200, 'gbp')).toBe('\u2212£12.00');
    expect(formatDeduction(0, 'usd')).toBe('$0.00');
    expect(formatMoney(-0, 'usd')).toBe('$0.00');
  });

  it('the web, the course price and the server share the formatter', () => {
    expect(money).toBe(formatMoney);
    expect(deduction).toBe(formatDeduction);
    expect(formatPrice(4999, 'eur')).toBe(formatMoney(4999, 'eur'));
    expect(formatPrice(0, 'usd')).toBe('Free');
  });
});

describe('nets and totals', () => {
  it('a full refund gives the fee back: the net of a refunded $120 sale is $0.00, not −$12.00', () => {
    expect(netOf({ amountCents: 12000, feeCents: 1200, refundedCents: 12000, feeRefundedCents: 1200 })).toBe(0);
    expect(netOf({ amountCents: 12000, feeCents: 1200, refundedCents: 6000, feeRefundedCents: 600 })).toBe(5400);
  });

  it('totals are per currency, sorted by code, never added together', () => {
    const row = (amountCents: number, currency: string) => ({
      amountCents,
      feeCents: amountCents / 10,
      refundedCents: 0,
      feeRefundedCents: 0,
      currency,
    });
    expect(totalsByCurrency([row(4000, 'usd'), row(5000, 'gbp'), row(7000, 'eur'), row(1000, 'USD')])).toEqual([
      { currency: 'eur', grossCents: 7000, feeCents: 700, refundedCents: 0, feeRefundedCents: 0, netCents: 6300, sales: 1 },
      { currency: 'gbp', grossCents: 5000, feeCents: 500, refundedCents: 0, feeRefundedCents: 0, netCents: 4500, sales: 1 },
      { currency: 'usd', grossCents: 5000, feeCents: 500, refundedCents: 0, feeRefundedCents: 0, netCents: 4500, sales: 2 },
    ]);
  });
});

describe('installments that make sense', () => {
  it('each payment at least 20.00', () => {
    expect(maxInstallmentsFor(4500)).toBe(2);
    expect(maxInstallmentsFor(3999)).toBe(1);
    expect(maxInstallmentsFor(12000)).toBe(6);
    expect(maxInstallmentsFor(10_000_000)).toBe(24);
  });

  it('months add on calendar days, clamped to the month end', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2026-11-22', 2)).toBe('2027-01-22');
    expect(installmentDates('2026-11-22', 3)).toEqual(['2026-11-22', '2026-12-22', '2027-01-22']);
  });

  it('the last payment falls on or before the session ends', () => {
    const course = { priceCents: 12000, installments: 6 };
    expect(installmentsOffered(course, '2027-01-31', '2026-11-22')).toBe(3);
    expect(installmentsOffered(course, '2027-01-21', '2026-11-22')).toBe(2);
    expect(installmentsOffered(course, '2026-12-21', '2026-11-22')).toBeNull();
    expect(installmentsOffered({ priceCents: 4500, installments: 3 }, '2027-12-31', '2026-11-22')).toBe(2);
    expect(installmentsOffered({ priceCents: 4500, installments: null }, '2027-12-31', '2026-11-22')).toBeNull();
  });
});

describe('installments add up to the price (decision 0017)', () => {
  it('the first payment carries the cents the division leaves', () => {
    for (const [price, n] of [
      [10000, 3],
      [5, 2],
      [4500, 2],
      [99999, 7],
      [2001, 24],
    ]) {
      const s = installmentSchedule(price, n);
      expect(s).toHaveLength(n);
      expect(s.reduce((a, b) => a + b, 0)).toBe(price);
      expect(new Set(s.slice(1)).size).toBeLessThanOrEqual(1);
      expect(s[0] - s[n - 1]).toBeLessThan(n);
    }
    expect(installmentSchedule(10000, 3)).toEqual([3334, 3333, 3333]);
  });

  it('says the terms in one sentence', () => {
    expect(installmentTerms(12000, 3, 'usd', '2027-01-22')).toMatch(/^3 monthly payments of \$40\.00, last on Fri,? 22 Jan 2027$/);
    expect(installmentTerms(10000, 3, 'usd', '2027-01-22')).toMatch(
      /^3 monthly payments: \$33\.34 first, then \$33\.33 a month, last on Fri,? 22 Jan 2027$/,
    );
    expect(installmentTerms(4500, 2, 'gbp')).toBe('2 monthly payments of £22.50');
  });
});

describe('a refund share of installments paid', () => {
  it('is rounded once on the total, then split over the payments to the cent', () => {
    // Half of two $33.33 payments is $33.33 (3333 cents), not 2 × $16.66.
    expect(splitRefund([3333, 3333], Math.floor(6666 * 0.5))).toEqual([1667, 1666]);
    expect(splitRefund([3334, 3333, 3333], 10000)).toEqual([3334, 3333, 3333]);
    expect(splitRefund([3334, 3333], Math.floor(6667 * 0.5))).toEqual([1667, 1666]);
    expect(splitRefund([0, 500], 250)).toEqual([0, 250]);
    expect(splitRefund([], 0)).toEqual([]);
  });
});
