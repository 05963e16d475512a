import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { ExternalLink, Receipt } from 'lucide-react';
import { Card } from '@web/components/ui/card';
import { Badge } from '@web/components/ui/badge';
import { Skeleton } from '@web/components/ui/skeleton';
import { paymentHistoryQuery, type PaymentHistoryRow } from './api/payment-history';
import { formatDay, money, sequenceLabel } from '@web/lib/format';
import { paths } from '@web/lib/paths';
import { LoadError } from '@web/components/ui/load-error';

function Refund({ p }: { p: PaymentHistoryRow }) {
  if (p.refundPendingCents > 0) return <Badge tone="amber">{`Refund of ${money(p.refundPendingCents, p.currency)} pending`}</Badge>;
  if (p.refundedCents <= 0) return null;
  const all = p.refundedCents >= p.amountCents;
  return <Badge tone="amber">{all ? 'Refunded' : `${money(p.refundedCents, p.currency)} refunded`}</Badge>;
}

/** Settings: every payment the user made, newest first, with its receipt. */
export function PaymentHistoryCard() {
  const { data, error, refetch, isFetching } = useQuery(paymentHistoryQuery);
  const payments = data?.payments ?? [];
  return (
    <Card>
      <div className="mb-4">
        <h2 id="payments-heading" className="text-lg font-semibold text-slate-900">
          Payments
        </h2>
        <p className="text-sm text-slate-600">What you paid for courses and plans, with receipts.</p>
      </div>
      {error && !data ? (
        <LoadError title="Your payments could not be loaded" error={error} onRetry={() => void refetch()} retrying={isFetching} />
      ) : !data ? (
        <div className="space-y-2" aria-busy="true">
          <Skeleton className="h-14" />
          <Skeleton className="h-14" />
        </div>
      ) : payments.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 p-5 text-center text-sm text-slate-600">
          <Receipt className="mx-auto mb-2 h-6 w-6 text-slate-400" aria-hidden="true" />
          No payments yet. Paid courses you join will be listed here.{' '}
          <Link to={paths.courseSearch()} className="font-semibold text-brand-700 hover:underline">
            Find a course
          </Link>
        </div>
      ) : (
        <ul aria-labelledby="payments-heading" className="divide-y divide-slate-100">
          {payments.map((p) => {
            const seq = sequenceLabel(p.sequence, p.installments);
            return (
              <li key={p.id} className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 py-3">
                <div className="min-w-0 flex-1">
                  <p className="break-words text-sm font-medium text-slate-900">
                    {p.courseId ? (
                      <Link to={paths.course(p.courseId)} className="hover:text-brand-700 hover:underline">
                        {p.description}
                      </Link>
                    ) : (
                      p.description
                    )}
                  </p>
                  <p className="text-xs text-slate-600">
                    {formatDay(p.paidAt)}
                    {seq && ` · ${seq}`}
                  </p>
                </div>
                <div className="flex flex-wrap items-center justify-end gap-2 text-right">
                  <Refund p={p} />
                  <span
                    className={`text-sm font-semibold tabular-nums ${p.refundedCents >= p.amountCents ? 'text-slate-500 line-through' : 'text-slate-900'}`}
                  >
                    {money(p.amountCents, p.currency)}
                  </span>
                  {p.receiptUrl && (
                    <a
                      href={p.receiptUrl}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="inline-flex items-center gap-1 text-xs font-semibold text-brand-700 hover:underline"
                    >
                      Receipt
                      <span className="sr-only">
                        {' '}
                        for {p.description}, {formatDay(p.paidAt)}
                      </span>{' '}
                      <ExternalLink className="h-3.5 w-3.5" aria-hidden="true" />
                    </a>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
