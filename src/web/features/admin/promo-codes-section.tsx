import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CURRENCIES } from '@shared/courses';
import type { PromoCodeView } from '@shared/promo-codes';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { LoadError } from '@web/components/ui/load-error';
import { PromoCodeList, PromoTermsFields, defaultTerms, termsBody, termsErrors, type PromoTermsValues } from '@web/components/promo-codes';
import { adminPromoCodesQuery, createPlatformCode, endPlatformCode } from './api/promo-codes';

/**
 * Platform promo codes: for any course (an amount off: courses in its currency), one payment;
 * the platform bears the discount out of its fee (ADR 0070), so a code is refused where the
 * discount would exceed the fee.
 */
export function PromoCodesSection() {
  const qc = useQueryClient();
  const codes = useQuery(adminPromoCodesQuery);
  const [terms, setTerms] = useState<PromoTermsValues>(defaultTerms);
  const [currency, setCurrency] = useState<string>('usd');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<PromoCodeView | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: adminPromoCodesQuery.queryKey });
  const create = useMutation({
    mutationFn: () => createPlatformCode({ ...termsBody(terms), ...(terms.kind === 'amount' ? { currency } : {}) }),
    onSuccess: async (code) => {
      setCreated(code);
      setTerms(defaultTerms());
      setErrors({});
      await refresh();
    },
    onError: (err) => setErrors(err instanceof ApiError ? err.fields : {}),
  });
  const end = useMutation({ mutationFn: (c: PromoCodeView) => endPlatformCode(c.id), onSuccess: refresh });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = termsErrors(terms);
    setErrors(found);
    if (Object.keys(found).length === 0) create.mutate();
  };
  return (
    <div className="space-y-6">
      <Card>
        <h2 className="mb-1 text-lg font-semibold text-slate-900">New platform code</h2>
        <p className="mb-4 text-sm text-slate-600">
          For any course, paid in one payment. The platform bears the discount out of its fee; a code is refused on a course where the
          discount would be more than the fee.
        </p>
        <form onSubmit={submit} noValidate className="space-y-4" aria-label="New platform code">
          {created && (
            <Alert tone="success" title={`Code ${created.code} created`}>
              {created.label}, on every course{created.currency ? ` priced in ${created.currency.toUpperCase()}` : ''}, paid in one payment.
            </Alert>
          )}
          <PromoTermsFields
            values={terms}
            onChange={setTerms}
            errors={errors}
            currency={terms.kind === 'amount' ? currency.toUpperCase() : null}
          />
          {terms.kind === 'amount' && (
            <div className="max-w-xs">
              <label htmlFor="platform-code-currency" className="mb-1.5 block text-sm font-medium text-slate-800">
                Currency (courses priced in it)
              </label>
              <select
                id="platform-code-currency"
                value={currency}
                onChange={(e) => setCurrency(e.target.value)}
                className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 pr-8 text-sm text-slate-900 shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-500"
              >
                {CURRENCIES.map((c) => (
                  <option key={c} value={c}>
                    {c.toUpperCase()}
                  </option>
                ))}
              </select>
            </div>
          )}
          {create.error && !(create.error instanceof ApiError && Object.keys(create.error.fields).length) && (
            <Alert tone="error" title="The code could not be created">
              {create.error instanceof ApiError ? create.error.message : 'Please try again.'}
            </Alert>
          )}
          <Button type="submit" loading={create.isPending}>
            Create platform code
          </Button>
        </form>
      </Card>
      <Card>
        <h2 className="mb-3 text-lg font-semibold text-slate-900">Platform codes</h2>
        {codes.isError ? (
          <LoadError
            title="Could not load platform codes"
            error={codes.error}
            onRetry={() => codes.refetch()}
            retrying={codes.isFetching}
          />
        ) : (
          <PromoCodeList
            codes={codes.data?.codes}
            loading={codes.isPending}
            empty="No platform codes yet."
            onEnd={(c) => end.mutate(c)}
            ending={end.isPending ? (end.variables?.id ?? null) : null}
            scope={(c) => (c.currency ? `Every course priced in ${c.currency.toUpperCase()}, one payment` : 'Every course, one payment')}
          />
        )}
      </Card>
    </div>
  );
}
