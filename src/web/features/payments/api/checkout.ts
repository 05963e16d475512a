import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CheckoutResult, CheckoutSummary, VerifySessionResult, paymentsConfigResult } from '@shared/payments-schemas';
import type { PlanId } from '@shared/payments';
import type { PromoQuote } from '@shared/promo-codes';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** A checkout (Stripe's checkout session): what it sells, starting one, and verifying how it ended. */
export type PaymentsConfig = z.infer<typeof paymentsConfigResult>;

export const getPaymentsConfig = () => api<PaymentsConfig>('/api/stripe/config');
export const paymentsConfigQuery = queryOptions({ queryKey: queryKeys.paymentsConfig, queryFn: getPaymentsConfig, staleTime: 5 * 60_000 });

/** `learners`: whom the seats are for, `me` and learner profile ids, comma-separated (empty: one seat for you). */
export const getCheckoutSummary = (courseId: string, sessionId: string, learners = '') =>
  api<CheckoutSummary>(
    `/api/course/${encodeURIComponent(courseId)}/checkout?session=${encodeURIComponent(sessionId)}${learners ? `&learners=${encodeURIComponent(learners)}` : ''}`,
  );
export const checkoutSummaryQuery = (courseId: string, sessionId: string, learners = '') =>
  queryOptions({
    queryKey: queryKeys.checkoutSummary(courseId, sessionId, learners),
    queryFn: () => getCheckoutSummary(courseId, sessionId, learners),
  });

/** A new key per attempt: the client may retry the same attempt, the server treats it as one. */
const attemptKey = () => crypto.randomUUID();

export interface CourseCheckoutInput {
  customer: string;
  course: string;
  session: string;
  price: number;
  installments?: number;
  /** A promo code (its price was shown first: POST .../checkout/promo-code). */
  code?: string;
  /** Whom the seats are for (`me`, learner profile ids); absent: one seat for you. */
  learnerIds?: string[];
}

/** One payment, or N monthly installments when `installments` is set. */
export function startCourseCheckout({ installments, ...body }: CourseCheckoutInput) {
  return installments
    ? api<CheckoutResult>('/api/stripe/course-embedded-subscription', {
        method: 'POST',
        body: { ...body, installments },
        idempotencyKey: attemptKey(),
      })
    : api<CheckoutResult>('/api/stripe/course-embedded-checkout', { method: 'POST', body, idempotencyKey: attemptKey() });
}

export const startPlanCheckout = (body: { customer: string; product: PlanId; price: number }) =>
  api<CheckoutResult>('/api/stripe/create-embedded-checkout-session', { method: 'POST', body, idempotencyKey: attemptKey() });

/** How a checkout ended (the API's verify-session; its id is Stripe's checkout session id). */
export const verifyCheckout = (checkoutId: string) =>
  api<VerifySessionResult>(`/api/stripe/verify-session?session_id=${encodeURIComponent(checkoutId)}`);

/** The price with a promo code, before paying (refused codes: ApiError with fields.code). */
export const quotePromoCode = (courseId: string, body: { session: string; code: string; seats?: number }) =>
  api<PromoQuote>(`/api/course/${encodeURIComponent(courseId)}/checkout/promo-code`, { method: 'POST', body });
