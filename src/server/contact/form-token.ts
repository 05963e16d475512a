import { createHmac, timingSafeEqual } from 'node:crypto';
import { CONTACT_FORM_MAX_AGE_MS, CONTACT_MESSAGES, CONTACT_MIN_FILL_MS } from '../../shared/contact.js';
import { AppError } from '../http/errors.js';

const mac = (secret: string, issuedAt: number) => createHmac('sha256', secret).update(`contact-form:${issuedAt}`).digest('base64url');

/** The signed time a contact form was loaded: "<ms>.<hmac>" (no state kept on the server). */
export function contactFormToken(secret: string, now = Date.now()): string {
  return `${now}.${mac(secret, now)}`;
}

/**
 * Checks a form's token: signed by us, at least CONTACT_MIN_FILL_MS old (a person takes
 * longer to write a message than a bot), and at most CONTACT_FORM_MAX_AGE_MS.
 */
export function checkContactFormToken(secret: string, token: string, now = Date.now()): void {
  const [at, sig] = token.split('.');
  const issuedAt = Number(at);
  const expected = Number.isSafeInteger(issuedAt) ? mac(secret, issuedAt) : '';
  const valid = Boolean(sig) && sig.length === expected.length && timingSafeEqual(Buffer.from(sig), Buffer.from(expected));
  if (!valid || now - issuedAt > CONTACT_FORM_MAX_AGE_MS) {
    throw new AppError(400, 'form_expired', CONTACT_MESSAGES.expired, { fields: { formToken: CONTACT_MESSAGES.expired } });
  }
  if (now - issuedAt < CONTACT_MIN_FILL_MS) {
    throw new AppError(400, 'too_fast', CONTACT_MESSAGES.tooFast, { fields: { formToken: CONTACT_MESSAGES.tooFast } });
  }
}
