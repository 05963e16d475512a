import type { PurchaseRecordView } from '@shared/admin-schemas';
import type { BadgeTone } from '@web/components/ui/badge';
import { ApiError } from '@web/lib/api';

/** How the admin console writes a moment, an amount and a failed call. */
export const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';
export const money = (cents: number, currency: string) =>
  new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
export const errorText = (err: unknown) => (err instanceof ApiError ? err.message : 'Something went wrong');

/** A purchase's state as the user panel names it, with the badge's tone (issue 23: from its payments, never the raw status). */
export function purchaseLabel(p: PurchaseRecordView): { text: string; tone: BadgeTone } {
  const back = money(p.refundedCents, p.currency);
  switch (p.state) {
    case 'paid':
      return { text: 'Paid', tone: 'green' };
    case 'installments':
      return { text: `Installments: ${p.installmentsPaid} of ${p.installments ?? '?'} paid`, tone: 'brand' };
    case 'refund_pending':
      return { text: `Refund of ${money(p.refundPendingCents, p.currency)} pending`, tone: 'amber' };
    case 'partially_refunded':
      return { text: `Partly refunded (${back} of ${money(p.paidCents, p.currency)})`, tone: 'amber' };
    case 'refunded':
      return { text: `Refunded (${back})`, tone: 'slate' };
    case 'installment_failed':
      return { text: `Installment failed (${p.installmentsPaid} of ${p.installments ?? '?'} paid)`, tone: 'red' };
    case 'failed':
      return { text: 'Failed', tone: 'red' };
    case 'checkout_open':
      return { text: 'Checkout in progress', tone: 'slate' };
    case 'checkout_abandoned':
      return { text: 'Abandoned checkout', tone: 'slate' };
    case 'checkout_expired':
      return { text: 'Checkout expired', tone: 'slate' };
  }
}

const ENROLMENT_LABELS: Record<string, { text: string; tone: BadgeTone }> = {
  active: { text: 'Enrolled', tone: 'green' },
  waitlisted: { text: 'On the waitlist', tone: 'amber' },
  pending_payment: { text: 'Awaiting payment', tone: 'amber' },
  dropped: { text: 'Dropped', tone: 'slate' },
  completed: { text: 'Completed', tone: 'brand' },
};
export const enrolmentLabel = (status: string) => ENROLMENT_LABELS[status] ?? { text: status.replace(/_/g, ' '), tone: 'slate' as const };

/** A session's dates, as "12 Jan 2027 – 3 Feb 2027" (date-only values, read as calendar days). */
export function sessionDates(startsOn: string, endsOn: string) {
  const day = (d: string) => new Date(`${d}T12:00:00Z`).toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
  return startsOn === endsOn ? day(startsOn) : `${day(startsOn)} – ${day(endsOn)}`;
}
