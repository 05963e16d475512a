import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { CalendarClock, CreditCard } from 'lucide-react';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { LoadError } from '@web/components/ui/load-error';
import { formatDate, money } from '@web/lib/format';
import { paths } from '@web/lib/paths';
import { myInstallmentsQuery, startCardUpdate } from './api/installments';

const BRANDS: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', discover: 'Discover' };
const brandName = (brand: string) => BRANDS[brand] ?? `${brand.charAt(0).toUpperCase()}${brand.slice(1)} card`;

/**
 * Settings: the installment plans still running, each with what is paid, what is left and
 * the next due date, and one button to change the card that pays them (the provider's
 * customer portal; the sandbox's card-update page). Nothing shows without a plan.
 */
export function InstallmentsCard() {
  const { data, error, refetch, isFetching } = useQuery(myInstallmentsQuery);
  const [params, setParams] = useSearchParams();
  const updated = params.get('card') === 'updated';
  const change = useMutation({
    mutationFn: startCardUpdate,
    onSuccess: ({ url }) => window.location.assign(url),
  });
  useEffect(() => {
    if (updated && data) document.getElementById('installments')?.scrollIntoView({ block: 'start' });
  }, [updated, data]);
  if (error && !data)
    return (
      <Card>
        <LoadError title="Your installments could not be loaded" error={error} onRetry={() => void refetch()} retrying={isFetching} />
      </Card>
    );
  if (!data || data.plans.length === 0) return null;
  return (
    <Card>
      <section id="installments" aria-labelledby="installments-heading" className="scroll-mt-24">
        <h2 id="installments-heading" className="text-lg font-semibold text-slate-900">
          Installments
        </h2>
        <p className="text-sm text-slate-600">Courses you pay monthly: what is paid, what is left, and when the next payment is taken.</p>
        {updated && (
          <div className="mt-3">
            <Alert tone="success" title="Your card is changed">
              Your next installments are paid with it.{' '}
              <button
                type="button"
                className="font-semibold underline"
                onClick={() => {
                  const next = new URLSearchParams(params);
                  next.delete('card');
                  setParams(next, { replace: true });
                }}
              >
                Dismiss
              </button>
            </Alert>
          </div>
        )}
        <ul className="mt-4 space-y-3">
          {data.plans.map((p) => (
            <li key={p.purchaseId} className="rounded-xl border border-slate-200 p-4">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <p className="min-w-0 break-words font-medium text-slate-900">
                  {p.courseId ? (
                    <Link to={paths.course(p.courseId)} className="hover:text-brand-700 hover:underline">
                      {p.courseTitle}
                    </Link>
                  ) : (
                    p.courseTitle
                  )}
                </p>
                {p.pastDue ? (
                  <Badge tone="red">Payment failed</Badge>
                ) : (
                  <Badge tone="brand">{`${p.paidInstallments} of ${p.installments} paid`}</Badge>
                )}
              </div>
              <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-3">
                <div>
                  <dt className="text-slate-600">Next payment</dt>
                  <dd className="font-semibold text-slate-900">
                    {p.nextDueOn ? (
                      <>
                        {money(p.nextAmountCents, p.currency)} on {formatDate(p.nextDueOn)}
                      </>
                    ) : (
                      'None due'
                    )}
                  </dd>
                </div>
                <div>
                  <dt className="text-slate-600">Left to pay</dt>
                  <dd className="font-semibold tabular-nums text-slate-900">{money(p.leftCents, p.currency)}</dd>
                </div>
                <div>
                  <dt className="text-slate-600">Paid so far</dt>
                  <dd className="tabular-nums text-slate-900">
                    {money(p.paidCents, p.currency)} of {money(p.totalCents, p.currency)}
                  </dd>
                </div>
              </dl>
              {p.pastDue && (
                <p className="mt-3 flex items-center gap-2 text-sm text-red-800">
                  <CalendarClock className="h-4 w-4 shrink-0" aria-hidden="true" /> The last payment failed. Change your card so the next
                  attempt goes through and you keep your seat.
                </p>
              )}
            </li>
          ))}
        </ul>
        <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
          <p className="flex items-center gap-2 text-sm text-slate-700">
            <CreditCard className="h-4 w-4 text-slate-500" aria-hidden="true" />
            {data.card
              ? `Paid with your ${brandName(data.card.brand)} ending in ${data.card.last4}`
              : 'Paid with the card you used at checkout'}
          </p>
          <Button variant="secondary" onClick={() => change.mutate()} loading={change.isPending}>
            Change card
          </Button>
        </div>
        {change.error && (
          <div className="mt-3">
            <Alert tone="error" title="The card page could not be opened">
              {change.error instanceof ApiError ? change.error.message : 'Please try again.'}
            </Alert>
          </div>
        )}
      </section>
    </Card>
  );
}
