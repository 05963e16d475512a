import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { EducatorPayouts, createAccountResult, linkResult } from '@shared/payments-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

/** An educator's payout account (Stripe Connect) and sales. */
export const createPayoutAccount = (body: { email: string; user_id: string }) =>
  api<z.infer<typeof createAccountResult>>('/api/stripe/create-stripe-account', { method: 'POST', body });
export const createAccountLink = (accountId: string) =>
  api<z.infer<typeof linkResult>>('/api/stripe/create-educator-account-link', {
    method: 'POST',
    body: { stripe_connect_account_id: accountId },
  });
export const createLoginLink = (accountId: string) =>
  api<z.infer<typeof linkResult>>('/api/stripe/create-stripe-login-link', {
    method: 'POST',
    body: { stripe_connect_account_id: accountId },
  });

/** `refresh` re-reads the account from the provider. */
export const getPayouts = (refresh = false) => api<EducatorPayouts>(`/api/educator/payouts${refresh ? '?refresh=1' : ''}`);
export const payoutsQuery = (refresh = false) =>
  queryOptions({ queryKey: queryKeys.payoutsFrom(refresh ? 'fresh' : 'stored'), queryFn: () => getPayouts(refresh) });
