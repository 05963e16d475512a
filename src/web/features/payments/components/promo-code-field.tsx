import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Tag, X } from 'lucide-react';
import type { PromoQuote } from '@shared/promo-codes';
import { ApiError } from '@web/lib/api';
import { Button } from '@web/components/ui/button';
import { money } from '@web/lib/format';
import { quotePromoCode } from '../api/checkout';

/**
 * The checkout's promo code: typed, checked by the server for this course, session and
 * person, and shown as the new price before paying; a refusal says why (the server's words).
 */
export function PromoCodeField({
  courseId,
  sessionId,
  seats,
  applied,
  onApplied,
}: {
  courseId: string;
  sessionId: string;
  /** Learners in the checkout: the code applies to the price times them. */
  seats?: number;
  applied: PromoQuote | null;
  onApplied: (quote: PromoQuote | null) => void;
}) {
  const id = useId();
  const [code, setCode] = useState('');
  const [open, setOpen] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // Opened by the viewer's click: the field takes the focus then (not on page load).
  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);
  const quote = useMutation({
    mutationFn: (typed: string) => quotePromoCode(courseId, { session: sessionId, code: typed, ...(seats && seats > 1 ? { seats } : {}) }),
    onSuccess: (q) => {
      onApplied(q);
      setCode('');
      setOpen(false);
    },
  });
  const error =
    quote.error instanceof ApiError
      ? (quote.error.fields.code ?? quote.error.message)
      : quote.error
        ? 'The code could not be checked. Please try again.'
        : null;

  if (applied)
    return (
      <div
        className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm"
        role="status"
      >
        <span className="flex items-center gap-2 font-medium text-emerald-900">
          <Tag className="h-4 w-4" aria-hidden="true" />
          Code {applied.code} applied: {applied.label}, you pay {money(applied.priceCents, applied.currency)}
          {applied.onePaymentOnly ? ' (one payment only)' : ''}
        </span>
        <button
          type="button"
          className="inline-flex items-center gap-1 rounded font-semibold text-emerald-900 underline focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
          onClick={() => {
            quote.reset();
            onApplied(null);
          }}
        >
          <X className="h-4 w-4" aria-hidden="true" /> Remove code
        </button>
      </div>
    );

  if (!open)
    return (
      <button
        type="button"
        className="text-sm font-semibold text-brand-700 underline-offset-2 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        onClick={() => setOpen(true)}
      >
        Have a promo code?
      </button>
    );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (code.trim()) quote.mutate(code.trim());
  };
  return (
    <form onSubmit={submit} className="space-y-1">
      <label htmlFor={`${id}-code`} className="block text-sm font-medium text-slate-800">
        Promo code
      </label>
      <div className="flex gap-2">
        <input
          id={`${id}-code`}
          name="code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          ref={input}
          maxLength={64}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={`block w-full min-w-0 rounded-lg border bg-white px-3 py-2.5 text-sm uppercase text-slate-900 shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-500 ${error ? 'border-red-500' : 'border-slate-300'}`}
        />
        <Button type="submit" variant="secondary" loading={quote.isPending} disabled={!code.trim()}>
          Apply
        </Button>
      </div>
      {error && (
        <p id={`${id}-error`} className="text-xs font-medium text-red-700" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
