import { ApiError } from '@web/lib/api';

/** How the admin console writes a moment, an amount and a failed call. */
export const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';
export const money = (cents: number, currency: string) =>
  new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
export const errorText = (err: unknown) => (err instanceof ApiError ? err.message : 'Something went wrong');
