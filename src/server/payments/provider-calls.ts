import { createHash } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { PAYMENT_MESSAGES } from '../../shared/payments.js';
import { AppError } from '../http/errors.js';

/**
 * Calls to the payment provider and what they answer. Every provider call a client waits on goes through
 * `provider()`: a failure is logged with the provider's own text and answered with the
 * spec's message only (the provider's text never reaches the client).
 */
export async function provider<T>(
  log: FastifyBaseLogger,
  failure: { status?: number; code: string; message: string },
  what: string,
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) throw err;
    log.error({ err: describe(err) }, `payments: ${what} failed`);
    throw new AppError(failure.status ?? 500, failure.code, failure.message);
  }
}

/** What the log keeps of a provider error (type, code, message, request id). */
export function describe(err: unknown) {
  if (err && typeof err === 'object' && 'type' in err) {
    const e = err as Stripe.errors.StripeError;
    return { type: e.type, code: e.code, message: e.message, statusCode: e.statusCode, requestId: e.requestId };
  }
  return err instanceof Error ? { message: err.message, stack: err.stack } : { err };
}

/** The id of an expandable field (a string, or the object when expanded), or null. */
export function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/** A short stable hash for idempotency keys that depend on a request's parameters. */
export function shortHash(...parts: (string | number | null | undefined)[]): string {
  return createHash('sha256')
    .update(parts.map((p) => String(p ?? '')).join('\u0000'))
    .digest('hex')
    .slice(0, 12);
}

/** True when the SDK can reach the provider (the sandbox needs this server listening). */
export function providerReachable(app: FastifyInstance): boolean {
  return app.config.payments.mode === 'stripe' || app.server.listening;
}

/** A provider error that means "no such object" (404 resource_missing). */
export function isMissing(err: unknown): boolean {
  const e = err as { statusCode?: number; code?: string } | null;
  return !!e && (e.statusCode === 404 || e.code === 'resource_missing');
}

export const CHECKOUT_FAILURE = { code: 'checkout_error', message: PAYMENT_MESSAGES.checkoutError } as const;
export const ACCOUNT_FAILURE = { code: 'account_error', message: PAYMENT_MESSAGES.accountError } as const;
export const CUSTOMER_FAILURE = { code: 'customer_error', message: PAYMENT_MESSAGES.customerError } as const;
