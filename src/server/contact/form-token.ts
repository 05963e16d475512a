import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CONTACT_FORM_MAX_AGE_MS, CONTACT_MESSAGES, CONTACT_MIN_FILL_MS } from '../../shared/contact.js';
import type { AttemptCounter } from '../accounts/attempts.js';
import { AppError } from '../http/errors.js';

const mac = (secret: string, issuedAt: number, nonce: string) =>
  createHmac('sha256', secret).update(`contact-form:${issuedAt}:${nonce}`).digest('base64url');

/**
 * The signed time a contact form was loaded, with a nonce so that two forms loaded in the
 * same millisecond differ: "<ms>.<nonce>.<hmac>". Nothing is kept when it is given out; its
 * one use is recorded when a message is sent with it (useContactFormToken).
 */
export function contactFormToken(secret: string, now = Date.now()): string {
  const nonce = randomBytes(9).toString('base64url');
  return `${now}.${nonce}.${mac(secret, now, nonce)}`;
}

/**
 * Checks a form's token: signed by us, at least CONTACT_MIN_FILL_MS old (a person takes
 * longer to write a message than a bot), and at most CONTACT_FORM_MAX_AGE_MS. Answers its
 * time of issue.
 */
export function checkContactFormToken(secret: string, token: string, now = Date.now()): number {
  const [at, nonce, sig, ...rest] = token.split('.');
  const issuedAt = Number(at);
  const expected = Number.isSafeInteger(issuedAt) && nonce && !rest.length ? mac(secret, issuedAt, nonce) : '';
  const valid = Boolean(sig) && sig.length === expected.length && timingSafeEqual(Buffer.from(sig), Buffer.from(expected));
  if (!valid || now - issuedAt > CONTACT_FORM_MAX_AGE_MS) {
    throw new AppError(400, 'form_expired', CONTACT_MESSAGES.expired, { fields: { formToken: CONTACT_MESSAGES.expired } });
  }
  if (now - issuedAt < CONTACT_MIN_FILL_MS) {
    throw new AppError(400, 'too_fast', CONTACT_MESSAGES.tooFast, { fields: { formToken: CONTACT_MESSAGES.tooFast } });
  }
  return issuedAt;
}

/**
 * A token sends one message (docs/decisions/0053): its use is counted in the database (the
 * attempt counters every app instance shares, one atomic upsert), kept until the token would
 * have expired anyway; a second use answers 400 form_used. Answers a function that gives
 * the use back (the message was refused for another reason: the same form may be sent again).
 */
export async function useContactFormToken(
  attempts: AttemptCounter,
  token: string,
  issuedAt: number,
  now = Date.now(),
): Promise<() => Promise<void>> {
  const secondsLeft = Math.max(1, Math.ceil((issuedAt + CONTACT_FORM_MAX_AGE_MS - now) / 1000) + 60);
  const key = `contact:form:${token.slice(token.lastIndexOf('.') + 1)}`;
  try {
    const giveBack = await attempts.take([key], 1, secondsLeft, CONTACT_MESSAGES.used);
    return () => giveBack([key]);
  } catch (err) {
    if (err instanceof AppError && err.status === 429) {
      throw new AppError(400, 'form_used', CONTACT_MESSAGES.used, { fields: { formToken: CONTACT_MESSAGES.used } });
    }
    throw err;
  }
}
