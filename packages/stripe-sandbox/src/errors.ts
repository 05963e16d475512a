/**
 * Errors in Stripe's format: `{ error: { type, code, message, param, decline_code } }`
 * with Stripe's HTTP statuses (400 invalid request, 401 authentication, 402 card error,
 * 404 missing resource, 409 idempotency conflict).
 */
export type StripeErrorType = 'invalid_request_error' | 'card_error' | 'idempotency_error' | 'api_error' | 'authentication_error';

export interface StripeErrorBody {
  type: StripeErrorType;
  message: string;
  code?: string;
  param?: string;
  decline_code?: string;
  doc_url?: string;
  payment_intent?: unknown;
}

export class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
  }

  toJSON() {
    return { error: this.body };
  }
}

const doc = (code: string) => `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`;

export const missingParam = (param: string) =>
  new StripeError(400, {
    type: 'invalid_request_error',
    code: 'parameter_missing',
    param,
    message: `Missing required param: ${param}.`,
    doc_url: doc('parameter_missing'),
  });

export const invalidParam = (param: string, message: string, code = 'parameter_invalid') =>
  new StripeError(400, { type: 'invalid_request_error', code, param, message });

export const invalidInteger = (param: string, value: unknown) =>
  new StripeError(400, {
    type: 'invalid_request_error',
    code: 'parameter_invalid_integer',
    param,
    message: `Invalid integer: ${String(value)}`,
    doc_url: doc('parameter_invalid_integer'),
  });

/** `No such customer: 'cus_x'` (404, resource_missing). */
export const noSuch = (what: string, id: string, param = 'id') =>
  new StripeError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    param,
    message: `No such ${what}: '${id}'`,
    doc_url: doc('resource_missing'),
  });

export const invalidRequest = (message: string, extra: Partial<StripeErrorBody> = {}, status = 400) =>
  new StripeError(status, { type: 'invalid_request_error', message, ...extra });

/** A declined or invalid card (402, card_error). */
export const cardError = (code: string, message: string, extra: { decline_code?: string; param?: string } = {}) =>
  new StripeError(402, { type: 'card_error', code, message, ...extra, doc_url: doc(code) });
