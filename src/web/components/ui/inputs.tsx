import { forwardRef, useId, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

/** Form controls beside Field: text areas, selects, grouped inputs and form sections. */

const controlClass = (error?: string) =>
  `block w-full rounded-lg border bg-white px-3 py-2.5 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 focus:outline-none focus:ring-2 focus:ring-brand-500 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-600 ${
    error ? 'border-red-500' : 'border-slate-300'
  }`;

function Described({ id, hint, error }: { id: string; hint?: ReactNode; error?: string }) {
  return (
    <>
      {hint && !error && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-xs font-medium text-red-700">
          {error}
        </p>
      )}
    </>
  );
}

const describedBy = (id: string, hint?: ReactNode, error?: string) =>
  [hint && !error && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;

interface TextAreaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: string;
  hint?: ReactNode;
  /** Shows "n / max" under the field. */
  count?: number;
}

export const TextArea = forwardRef<HTMLTextAreaElement, TextAreaProps>(function TextArea(
  { label, error, hint, id, className = '', count, maxLength, ...props },
  ref,
) {
  const auto = useId();
  const inputId = id ?? auto;
  return (
    <div className={className}>
      <label htmlFor={inputId} className="mb-1.5 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea
        ref={ref}
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(inputId, hint, error)}
        className={controlClass(error)}
        maxLength={maxLength}
        {...props}
      />
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <Described id={inputId} hint={hint} error={error} />
        </div>
        {count !== undefined && maxLength && (
          <p className={`mt-1 shrink-0 text-xs ${count > maxLength ? 'text-red-700' : 'text-slate-500'}`} aria-hidden="true">
            {count} / {maxLength}
          </p>
        )}
      </div>
    </div>
  );
});

interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
}

export const Select = forwardRef<HTMLSelectElement, SelectProps>(function Select(
  { label, error, hint, id, className = '', children, ...props },
  ref,
) {
  const auto = useId();
  const inputId = id ?? auto;
  return (
    <div className={className}>
      <label htmlFor={inputId} className="mb-1.5 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        ref={ref}
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(inputId, hint, error)}
        className={`${controlClass(error)} pr-8`}
        {...props}
      >
        {children}
      </select>
      <Described id={inputId} hint={hint} error={error} />
    </div>
  );
});

/** A fieldset with a legend, for radio groups and grouped inputs. */
export function FieldGroup({
  legend,
  hint,
  error,
  children,
  className = '',
}: {
  legend: string;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
  className?: string;
}) {
  const id = useId();
  return (
    <fieldset className={className} aria-describedby={describedBy(id, hint, error)}>
      <legend className="mb-1.5 block text-sm font-medium text-slate-800">{legend}</legend>
      {children}
      <Described id={id} hint={hint} error={error} />
    </fieldset>
  );
}

/** A section of a long form: a title, a line of help, and its fields. */
export function FormSection({
  title,
  description,
  children,
  id,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  id?: string;
}) {
  // No aria-labelledby: the heading structures the page, and field labels stay unique.
  return (
    <section id={id} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      {description && <p className="mt-0.5 text-sm text-slate-600">{description}</p>}
      <div className="mt-5 space-y-5">{children}</div>
    </section>
  );
}
