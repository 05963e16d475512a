import { useId, type ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

/** A radio input styled as a card (the input stays a real, labelled radio). */
export function RadioCard({
  value,
  label,
  text,
  icon,
  ...field
}: { value: string; label: string; text: string; icon?: ReactNode } & UseFormRegisterReturn) {
  const id = useId();
  return (
    <label
      htmlFor={id}
      className="flex cursor-pointer gap-3 rounded-xl border border-slate-300 bg-white p-3 text-sm shadow-sm hover:border-brand-500 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:checked]:ring-1 has-[:checked]:ring-brand-600 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500"
    >
      <input
        id={id}
        type="radio"
        value={value}
        className="mt-0.5 h-4 w-4 shrink-0 accent-brand-700"
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-text`}
        {...field}
      />
      <span className="min-w-0">
        <span id={`${id}-label`} className="flex items-center gap-1.5 font-semibold text-slate-900">
          {icon}
          {label}
        </span>
        <span id={`${id}-text`} className="mt-0.5 block text-slate-600">
          {text}
        </span>
      </span>
    </label>
  );
}
