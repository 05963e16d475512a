import { cardError, StripeError } from './errors.js';
import type { Card } from './shapes.js';

/**
 * Stripe's test cards, as the sandbox understands them (the same numbers behave alike on
 * real Stripe test mode). Messages and codes are Stripe's.
 */
export const SANDBOX_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  /** Attaches and pays at checkout; every later charge of the customer fails. */
  failsLater: '4000000000000341',
  incorrectCvc: '4000000000000127',
  expired: '4000000000000069',
} as const;

/** Other numbers of Stripe's test-card list that simply succeed. */
const OTHER_SUCCESS = new Set([
  '4000056655665556',
  '5555555555554444',
  '2223003122003222',
  '5200828282828210',
  '378282246310005',
  '371449635398431',
  '6011111111111117',
]);

export const DECLINED = () => cardError('card_declined', 'Your card was declined.', { decline_code: 'generic_decline' });
export const INSUFFICIENT = () => cardError('card_declined', 'Your card has insufficient funds.', { decline_code: 'insufficient_funds' });

export function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let d = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function brandOf(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^6(011|5)/.test(number)) return 'discover';
  return 'unknown';
}

export interface CardInput {
  number: string;
  /** "MM/YY" or "MM / YY" or "MM/YYYY" */
  exp: string;
  cvc: string;
}

/**
 * Checks a card as Stripe would when it is first used (number, expiry, CVC, then the
 * test card's outcome at checkout). `now` is the customer's time (test clock aware).
 * Throws a 402 card_error; returns the card otherwise.
 */
export function checkCard(input: CardInput, now: number): Card {
  const number = input.number.replace(/[\s-]/g, '');
  if (!number) throw cardError('incomplete_number', 'Your card number is incomplete.', { param: 'number' });
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) throw cardError('invalid_number', 'Your card number is invalid.', { param: 'number' });
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input.exp);
  if (!m) throw cardError('incomplete_expiry', "Your card's expiration date is incomplete.", { param: 'exp_month' });
  const month = Number(m[1]);
  const year = m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  const today = new Date(now * 1000);
  const thisYear = today.getUTCFullYear();
  if (month < 1 || month > 12) throw cardError('invalid_expiry_month', "Your card's expiration month is invalid.", { param: 'exp_month' });
  if (year < thisYear || year > thisYear + 50)
    throw cardError('invalid_expiry_year', "Your card's expiration year is invalid.", { param: 'exp_year' });
  if (year === thisYear && month < today.getUTCMonth() + 1)
    throw cardError('invalid_expiry_month', "Your card's expiration month is invalid.", { param: 'exp_month' });
  const brand = brandOf(number);
  const cvcLength = brand === 'amex' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(input.cvc.trim()))
    throw cardError('invalid_cvc', "Your card's security code is invalid.", { param: 'cvc' });
  const card: Card = { number, brand, last4: number.slice(-4), exp_month: month, exp_year: year };
  const failure = chargeOutcome(number, 'first');
  if (failure) throw failure;
  return card;
}

/**
 * The outcome of charging a card: null when it succeeds, or the card error. `first` is
 * the charge made when the card is entered (checkout); `later` are off-session charges
 * (subscription renewals), where 4000 0000 0000 0341 fails.
 */
export function chargeOutcome(number: string, when: 'first' | 'later'): StripeError | null {
  switch (number) {
    case SANDBOX_CARDS.declined:
      return DECLINED();
    case SANDBOX_CARDS.insufficientFunds:
      return INSUFFICIENT();
    case SANDBOX_CARDS.incorrectCvc:
      return cardError('incorrect_cvc', "Your card's security code is incorrect.", { param: 'cvc' });
    case SANDBOX_CARDS.expired:
      return cardError('expired_card', 'Your card has expired.', { decline_code: 'expired_card' });
    case SANDBOX_CARDS.failsLater:
      return when === 'later' ? DECLINED() : null;
    case SANDBOX_CARDS.success:
      return null;
    default:
      if (OTHER_SUCCESS.has(number)) return null;
      return cardError(
        'card_declined',
        'Your card was declined. Your request was in test mode, but used a non test card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
        { decline_code: 'test_mode_live_card' },
      );
  }
}
