import { z } from 'zod';
import { CURRENCIES } from './courses.js';
import { INT32_MAX, str } from './input-schemas.js';
import { formatMoney } from './money.js';

/**
 * Promo codes (ADR 0070): the arithmetic both sides use, and the API's schemas. A code takes
 * a percent (rounded to the nearest cent, as the card provider rounds a percent coupon) or an
 * amount off the list price; what is left is never under MIN_PRICE_AFTER_CODE_CENTS (the
 * provider's smallest card charge).
 */
export const MIN_PRICE_AFTER_CODE_CENTS = 50;
export const MAX_PERCENT_OFF = 90;
export const CODE_PATTERN = /^[A-Z0-9][A-Z0-9-]{2,23}$/;

export interface PromoTerms {
  percentOff: number | null;
  amountOffCents: number | null;
}

/** What a code takes off a price, in cents (percent rounded to the nearest cent; an amount at most the price). */
export function discountOf(terms: PromoTerms, priceCents: number): number {
  if (terms.percentOff !== null) return Math.min(priceCents, Math.round((priceCents * terms.percentOff) / 100));
  return Math.min(priceCents, terms.amountOffCents ?? 0);
}

/** "15% off", "$10.00 off". */
export function promoLabel(terms: PromoTerms & { currency: string | null }): string {
  return terms.percentOff !== null ? `${terms.percentOff}% off` : `${formatMoney(terms.amountOffCents ?? 0, terms.currency ?? 'usd')} off`;
}

/** Codes are case-insensitive: spaces dropped, capitals. */
export const normalizeCode = (code: string) => code.replace(/\s+/g, '').toUpperCase();

const uuid = (label: string) => z.string({ error: `${label} is required` }).uuid(`${label} is not valid`);
const when = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .datetime({ offset: true, error: `${label} is not a valid date and time` })
    .transform((s) => new Date(s));

const codeField = str()
  .transform(normalizeCode)
  .refine((c) => CODE_PATTERN.test(c), 'A code is 3 to 24 letters, digits or dashes, starting with a letter or digit');

const termsFields = {
  /** Leave empty to have one made up (10 characters, hard to guess). */
  code: codeField.optional(),
  kind: z.enum(['percent', 'amount'], { error: 'Choose percent off or an amount off' }),
  percentOff: z
    .number()
    .int('Percent off must be a whole number')
    .min(1, 'Percent off must be between 1 and 90')
    .max(MAX_PERCENT_OFF, 'Percent off must be between 1 and 90')
    .optional(),
  amountOffCents: z
    .number()
    .int('The amount off must be a whole number of cents')
    .min(1, 'The amount off must be positive')
    .max(INT32_MAX, 'The amount off is too high')
    .optional(),
  startsAt: when('The start'),
  endsAt: when('The end'),
  maxUses: z
    .number({ error: 'The number of uses is required' })
    .int('The number of uses must be a whole number')
    .min(1, 'Allow at least one use')
    .max(100000, 'At most 100,000 uses'),
};

function termsRefined<T extends z.ZodRawShape>(shape: T) {
  return z.object(shape).superRefine((v: Record<string, unknown>, ctx) => {
    if (v.kind === 'percent' && v.percentOff === undefined)
      ctx.addIssue({ code: 'custom', path: ['percentOff'], message: 'Percent off is required' });
    if (v.kind === 'amount' && v.amountOffCents === undefined)
      ctx.addIssue({ code: 'custom', path: ['amountOffCents'], message: 'The amount off is required' });
    if (v.startsAt instanceof Date && v.endsAt instanceof Date && v.endsAt <= v.startsAt)
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'The end must be after the start' });
  });
}

export const educatorPromoCodeInput = termsRefined({
  ...termsFields,
  courseId: uuid('Course'),
  /** Some sessions of the course; empty or absent: all of them. */
  sessionIds: z.array(uuid('Session')).max(100, 'At most 100 sessions').optional(),
});
export type EducatorPromoCodeInput = z.infer<typeof educatorPromoCodeInput>;

export const platformPromoCodeInput = termsRefined({
  ...termsFields,
  /** The currency of an amount off (a platform code then applies to courses in it). */
  currency: z.enum(CURRENCIES, { error: 'Choose USD, EUR or GBP' }).optional(),
});
export type PlatformPromoCodeInput = z.infer<typeof platformPromoCodeInput>;

const perCurrency = z.array(z.object({ currency: z.string(), cents: z.number() }));

export const promoCodeView = z.object({
  id: z.string(),
  code: z.string(),
  label: z.string(),
  courseId: z.string().nullable(),
  courseTitle: z.string().nullable(),
  sessionIds: z.array(z.string()).nullable(),
  percentOff: z.number().nullable(),
  amountOffCents: z.number().nullable(),
  currency: z.string().nullable(),
  startsAt: z.string(),
  endsAt: z.string(),
  endedAt: z.string().nullable(),
  maxUses: z.number(),
  /** Paid uses. */
  used: z.number(),
  /** Checkouts open with the code (their use held until they are paid or expire). */
  held: z.number(),
  status: z.enum(['scheduled', 'active', 'used_up', 'ended']),
  /** What the paid checkouts with this code brought, less refunds, per currency. */
  revenue: perCurrency,
  /** What the code took off, per currency. */
  discounted: perCurrency,
});
export type PromoCodeView = z.infer<typeof promoCodeView>;
export const promoCodeList = z.object({ codes: z.array(promoCodeView) });
/** The educator's page: their codes, and the paid courses (with sessions to come) a code can be for. */
export const educatorPromoCodes = promoCodeList.extend({
  courses: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      priceCents: z.number(),
      currency: z.string(),
      sessions: z.array(z.object({ id: z.string(), startsOn: z.string(), endsOn: z.string() })),
    }),
  ),
});
export type EducatorPromoCodes = z.infer<typeof educatorPromoCodes>;
export const promoCodeParams = z.object({ codeId: uuid('Code') });

export const promoQuoteInput = z.object({
  session: uuid('Session'),
  /** How many learners the checkout is for (ADR 0074): the code applies to the price times them. */
  seats: z
    .number({ error: 'Seats must be a number' })
    .int('Seats must be a whole number')
    .min(1, 'At least 1 seat')
    .max(10, 'At most 10 seats')
    .optional(),
  code: str({ error: 'Enter a code' }).trim().min(1, 'Enter a code').max(64, 'This code does not exist'),
});
export const promoQuote = z.object({
  code: z.string(),
  label: z.string(),
  currency: z.string(),
  listPriceCents: z.number(),
  discountCents: z.number(),
  /** What is paid with the code. */
  priceCents: z.number(),
  /** Installments with the code: the number offered and each payment (adding up to priceCents), or null. */
  installments: z.number().nullable(),
  installmentAmounts: z.array(z.number()).nullable(),
  /** A platform code is for one payment only. */
  onePaymentOnly: z.boolean(),
});
export type PromoQuote = z.infer<typeof promoQuote>;
