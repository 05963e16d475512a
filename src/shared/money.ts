/**
 * One money format for every screen, email and CSV (decision 0017): amounts are integers
 * in the smallest unit of their currency, never added across currencies, and a negative
 * amount is written with the minus sign U+2212 before the symbol: "−$12.00".
 */

/** The minus sign of every negative amount (not the hyphen "-"). */
export const MINUS = '\u2212';

const formats = new Map<string, Intl.NumberFormat>();
function formatFor(currency: string): Intl.NumberFormat {
  const code = currency.toUpperCase();
  let f = formats.get(code);
  if (!f) {
    f = new Intl.NumberFormat('en', { style: 'currency', currency: code });
    formats.set(code, f);
  }
  return f;
}

/** "$100.00", "£50.00", "€70.00", "−$12.00" for cents (zero is "$0.00", never "−$0.00"). */
export function formatMoney(cents: number, currency: string): string {
  const text = formatFor(currency).format(Math.abs(cents) / 100);
  return cents < 0 ? `${MINUS}${text}` : text;
}

/** A deduction shown as such: "−$12.00" for 1200 (zero stays "$0.00"). */
export const formatDeduction = (cents: number, currency: string) => formatMoney(-cents, currency);

/** The educator's share of a payment: paid - platform fee - refunded + fee given back with refunds. */
export function netOf(p: { amountCents: number; feeCents: number; refundedCents: number; feeRefundedCents: number }): number {
  return p.amountCents - p.feeCents - p.refundedCents + p.feeRefundedCents;
}

export interface CurrencyTotal {
  currency: string;
  grossCents: number;
  feeCents: number;
  refundedCents: number;
  feeRefundedCents: number;
  netCents: number;
  sales: number;
}

/** Totals of payments, one per currency (sorted by currency code), never summed across currencies. */
export function totalsByCurrency(
  rows: { amountCents: number; feeCents: number; refundedCents: number; feeRefundedCents: number; currency: string }[],
): CurrencyTotal[] {
  const by = new Map<string, CurrencyTotal>();
  for (const r of rows) {
    const c = r.currency.toLowerCase();
    const t = by.get(c) ?? { currency: c, grossCents: 0, feeCents: 0, refundedCents: 0, feeRefundedCents: 0, netCents: 0, sales: 0 };
    t.grossCents += r.amountCents;
    t.feeCents += r.feeCents;
    t.refundedCents += r.refundedCents;
    t.feeRefundedCents += r.feeRefundedCents;
    t.netCents += netOf(r);
    t.sales += 1;
    by.set(c, t);
  }
  return [...by.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}
