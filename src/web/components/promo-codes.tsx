import { useId, type ReactNode } from 'react';
import type { PromoCodeView } from '@shared/promo-codes';
import { Badge, type BadgeTone } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Skeleton } from '@web/components/ui/skeleton';
import { formatDateTime, money } from '@web/lib/format';

/**
 * Promo codes as their owners see them (the educator's page, the admin console's platform
 * codes): each code with its terms, uses, the revenue it brought per currency, and "End now".
 */
const STATUS: Record<PromoCodeView['status'], [string, BadgeTone]> = {
  active: ['Active', 'green'],
  scheduled: ['Not started', 'brand'],
  used_up: ['Used up', 'amber'],
  ended: ['Ended', 'slate'],
};

const perCurrency = (list: { currency: string; cents: number }[]) =>
  list.length ? list.map((x) => money(x.cents, x.currency)).join(' · ') : '—';

export function PromoCodeList({
  codes,
  loading,
  empty,
  onEnd,
  ending,
  scope,
}: {
  codes: PromoCodeView[] | undefined;
  loading: boolean;
  empty: ReactNode;
  onEnd: (code: PromoCodeView) => void;
  /** The id of the code being ended. */
  ending: string | null;
  /** What a code applies to, in words (its course and sessions, or every course). */
  scope: (code: PromoCodeView) => string;
}) {
  if (loading)
    return (
      <div className="space-y-3" aria-busy="true" aria-label="Loading codes">
        <Skeleton className="h-20" />
        <Skeleton className="h-20" />
      </div>
    );
  if (!codes?.length)
    return <div className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">{empty}</div>;
  return (
    <ul className="divide-y divide-slate-100" aria-label="Promo codes">
      {codes.map((c) => (
        <PromoCodeRow key={c.id} code={c} onEnd={onEnd} ending={ending === c.id} scope={scope(c)} />
      ))}
    </ul>
  );
}

function PromoCodeRow({
  code: c,
  onEnd,
  ending,
  scope,
}: {
  code: PromoCodeView;
  onEnd: (c: PromoCodeView) => void;
  ending: boolean;
  scope: string;
}) {
  const id = useId();
  const [label, tone] = STATUS[c.status];
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-start sm:justify-between" aria-labelledby={`${id}-code`}>
      <div className="min-w-0 space-y-1">
        <p className="flex flex-wrap items-center gap-2">
          <span id={`${id}-code`} className="font-mono text-base font-semibold tracking-wide text-slate-900">
            {c.code}
          </span>
          <Badge tone={tone}>{label}</Badge>
          <span className="text-sm font-medium text-slate-700">{c.label}</span>
        </p>
        <p className="break-words text-sm text-slate-600">{scope}</p>
        <p className="text-xs text-slate-600">
          {formatDateTime(c.startsAt)} to {formatDateTime(c.endedAt ?? c.endsAt)}
          {c.endedAt ? ' (ended early)' : ''}
        </p>
      </div>
      <dl className="grid shrink-0 grid-cols-3 gap-x-4 gap-y-1 text-sm sm:text-right">
        <div>
          <dt className="text-xs text-slate-600">Used</dt>
          <dd className="font-semibold text-slate-900" data-testid="promo-used">
            {c.used} of {c.maxUses}
          </dd>
          {c.held > 0 && <dd className="text-xs text-slate-600">{c.held} in checkout</dd>}
        </div>
        <div>
          <dt className="text-xs text-slate-600">Revenue</dt>
          <dd className="font-semibold text-slate-900" data-testid="promo-revenue">
            {perCurrency(c.revenue)}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">Discounts</dt>
          <dd className="text-slate-700">{perCurrency(c.discounted)}</dd>
        </div>
      </dl>
      {c.status !== 'ended' && (
        <div className="shrink-0">
          <Button variant="secondary" onClick={() => onEnd(c)} loading={ending} aria-label={`End code ${c.code} now`}>
            End now
          </Button>
        </div>
      )}
    </li>
  );
}

/** A `datetime-local` value (the viewer's time) for a date. */
export function localInputValue(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** "12.50" in the currency's units to cents (NaN when not a number). */
export function centsOf(units: string): number {
  const n = Number(units.replace(',', '.'));
  return Number.isFinite(n) ? Math.round(n * 100) : NaN;
}

export interface PromoTermsValues {
  code: string;
  kind: 'percent' | 'amount';
  /** Percent, or the amount in the currency's units ("10.00"). */
  value: string;
  startsAt: string;
  endsAt: string;
  maxUses: string;
}

export const defaultTerms = (): PromoTermsValues => ({
  code: '',
  kind: 'percent',
  value: '',
  startsAt: localInputValue(new Date()),
  endsAt: localInputValue(new Date(Date.now() + 30 * 86400_000)),
  maxUses: '50',
});

/** The request body's terms from the form (dates in the viewer's time, sent as instants). */
export function termsBody(v: PromoTermsValues) {
  const when = (s: string) => (s ? new Date(s).toISOString() : '');
  return {
    ...(v.code.trim() ? { code: v.code.trim() } : {}),
    kind: v.kind,
    ...(v.kind === 'percent' ? { percentOff: Number(v.value) } : { amountOffCents: centsOf(v.value) }),
    startsAt: when(v.startsAt),
    endsAt: when(v.endsAt),
    maxUses: Number(v.maxUses),
  };
}

/** The terms every code has: the code (optional), percent or amount off, dates, number of uses. */
export function PromoTermsFields({
  values,
  onChange,
  errors,
  currency,
}: {
  values: PromoTermsValues;
  onChange: (v: PromoTermsValues) => void;
  errors: Record<string, string>;
  /** The currency of an amount off, in words ("USD"); null: chosen beside. */
  currency: string | null;
}) {
  const id = useId();
  const set = (patch: Partial<PromoTermsValues>) => onChange({ ...values, ...patch });
  const inputClass = (error?: string) =>
    `block w-full rounded-lg border bg-white px-3 py-2.5 text-sm text-slate-900 shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-500 ${error ? 'border-red-500' : 'border-slate-300'}`;
  const field = (name: string, label: string, input: ReactNode, hint?: string) => (
    <div>
      <label htmlFor={`${id}-${name}`} className="mb-1.5 block text-sm font-medium text-slate-800">
        {label}
      </label>
      {input}
      {hint && !errors[name] && (
        <p id={`${id}-${name}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      )}
      {errors[name] && (
        <p id={`${id}-${name}-error`} className="mt-1 text-xs font-medium text-red-700">
          {errors[name]}
        </p>
      )}
    </div>
  );
  const aria = (name: string, hint?: boolean) => ({
    id: `${id}-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : hint ? `${id}-${name}-hint` : undefined,
  });
  const valueName = values.kind === 'percent' ? 'percentOff' : 'amountOffCents';
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <fieldset className="sm:col-span-2">
        <legend className="mb-1.5 block text-sm font-medium text-slate-800">Discount</legend>
        <div className="flex flex-wrap gap-4 text-sm">
          {(
            [
              ['percent', 'Percent off'],
              ['amount', `Amount off${currency ? ` (${currency})` : ''}`],
            ] as const
          ).map(([kind, label]) => (
            <label key={kind} className="flex items-center gap-2">
              <input
                type="radio"
                name={`${id}-kind`}
                value={kind}
                checked={values.kind === kind}
                onChange={() => set({ kind, value: '' })}
                className="h-4 w-4 accent-brand-700"
              />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      {field(
        valueName,
        values.kind === 'percent' ? 'Percent off (1 to 90)' : `Amount off${currency ? ` in ${currency}` : ''}`,
        <input
          {...aria(valueName)}
          inputMode="decimal"
          value={values.value}
          onChange={(e) => set({ value: e.target.value })}
          className={inputClass(errors[valueName])}
          placeholder={values.kind === 'percent' ? '15' : '10.00'}
        />,
      )}
      {field(
        'maxUses',
        'Number of uses in all',
        <input
          {...aria('maxUses', true)}
          type="number"
          min={1}
          value={values.maxUses}
          onChange={(e) => set({ maxUses: e.target.value })}
          className={inputClass(errors.maxUses)}
        />,
        'Each person can use a code once.',
      )}
      {field(
        'startsAt',
        'Starts',
        <input
          {...aria('startsAt')}
          type="datetime-local"
          value={values.startsAt}
          onChange={(e) => set({ startsAt: e.target.value })}
          className={inputClass(errors.startsAt)}
        />,
      )}
      {field(
        'endsAt',
        'Ends',
        <input
          {...aria('endsAt')}
          type="datetime-local"
          value={values.endsAt}
          onChange={(e) => set({ endsAt: e.target.value })}
          className={inputClass(errors.endsAt)}
        />,
      )}
      {field(
        'code',
        'Code (optional)',
        <input
          {...aria('code', true)}
          value={values.code}
          onChange={(e) => set({ code: e.target.value.toUpperCase() })}
          autoComplete="off"
          spellCheck={false}
          maxLength={24}
          className={`${inputClass(errors.code)} font-mono uppercase`}
          placeholder="SPRING15"
        />,
        'Leave empty for a code made up for you (hard to guess).',
      )}
    </div>
  );
}

/** Client-side checks before sending (the server checks again and answers the same fields). */
export function termsErrors(v: PromoTermsValues): Record<string, string> {
  const e: Record<string, string> = {};
  if (v.kind === 'percent') {
    const n = Number(v.value);
    if (!v.value.trim()) e.percentOff = 'Percent off is required';
    else if (!Number.isInteger(n) || n < 1 || n > 90) e.percentOff = 'Percent off must be a whole number between 1 and 90';
  } else {
    const c = centsOf(v.value);
    if (!v.value.trim()) e.amountOffCents = 'The amount off is required';
    else if (!Number.isFinite(c) || c < 1) e.amountOffCents = 'Enter an amount such as 10.00';
  }
  const uses = Number(v.maxUses);
  if (!Number.isInteger(uses) || uses < 1) e.maxUses = 'Allow at least one use';
  if (!v.startsAt) e.startsAt = 'The start is required';
  if (!v.endsAt) e.endsAt = 'The end is required';
  else if (v.startsAt && new Date(v.endsAt) <= new Date(v.startsAt)) e.endsAt = 'The end must be after the start';
  if (v.code.trim() && !/^[A-Z0-9][A-Z0-9-]{2,23}$/.test(v.code.trim())) e.code = 'Use 3 to 24 letters, digits or dashes';
  return e;
}
