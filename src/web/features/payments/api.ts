import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  CheckoutResult,
  CheckoutSummary,
  EducatorPayouts,
  VerifySessionResult,
  createAccountResult,
  linkResult,
  paymentHistory,
  paymentsConfigResult,
} from '../../../shared/payments-schemas';
import type { PlanId } from '../../../shared/payments';
import { api } from '../../lib/api';

/** Every call of the payments API (src/shared/payments-schemas.ts), with its query options. */
export type PaymentsConfig = z.infer<typeof paymentsConfigResult>;
export type PaymentHistory = z.infer<typeof paymentHistory>;
export type PaymentHistoryRow = PaymentHistory['payments'][number];

export const paymentsConfigQuery = queryOptions({
  queryKey: ['payments', 'config'],
  queryFn: () => api<PaymentsConfig>('/api/stripe/config'),
  staleTime: 5 * 60_000,
});

export const checkoutSummaryQuery = (courseId: string, sessionId: string) =>
  queryOptions({
    queryKey: ['payments', 'checkout', courseId, sessionId],
    queryFn: () => api<CheckoutSummary>(`/api/course/${encodeURIComponent(courseId)}/checkout?session=${encodeURIComponent(sessionId)}`),
  });

/** A new key per attempt: the client may retry the same attempt, the server treats it as one. */
const attemptKey = () => crypto.randomUUID();

export interface CourseCheckoutInput { customer: string; course: string; session: string; price: number; installments?: number }

/** One payment, or N monthly installments when `installments` is set. */
export function startCourseCheckout({ installments, ...body }: CourseCheckoutInput) {
  return installments
    ? api<CheckoutResult>('/api/stripe/course-embedded-subscription', { method: 'POST', body: { ...body, installments }, idempotencyKey: attemptKey() })
    : api<CheckoutResult>('/api/stripe/course-embedded-checkout', { method: 'POST', body, idempotencyKey: attemptKey() });
}

export const startPlanCheckout = (body: { customer: string; product: PlanId; price: number }) =>
  api<CheckoutResult>('/api/stripe/create-embedded-checkout-session', { method: 'POST', body, idempotencyKey: attemptKey() });

export const verifySession = (sessionId: string) => api<VerifySessionResult>(`/api/stripe/verify-session?session_id=${encodeURIComponent(sessionId)}`);

export const createPayoutAccount = (body: { email: string; user_id: string }) =>
  api<z.infer<typeof createAccountResult>>('/api/stripe/create-stripe-account', { method: 'POST', body });
export const createAccountLink = (accountId: string) =>
  api<z.infer<typeof linkResult>>('/api/stripe/create-educator-account-link', { method: 'POST', body: { stripe_connect_account_id: accountId } });
export const createLoginLink = (accountId: string) =>
  api<z.infer<typeof linkResult>>('/api/stripe/create-stripe-login-link', { method: 'POST', body: { stripe_connect_account_id: accountId } });

/** The educator's payout account and sales; `refresh` re-reads the account from the provider. */
export const payoutsQuery = (refresh = false) =>
  queryOptions({
    queryKey: ['payments', 'payouts', refresh ? 'fresh' : 'stored'],
    queryFn: () => api<EducatorPayouts>(`/api/educator/payouts${refresh ? '?refresh=1' : ''}`),
  });

export const paymentHistoryQuery = queryOptions({
  queryKey: ['payments', 'history'],
  queryFn: () => api<PaymentHistory>('/api/payments'),
});
