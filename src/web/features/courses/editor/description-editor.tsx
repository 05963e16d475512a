import { useDeferredValue, useId, useRef, useState } from 'react';
import type { UseFormRegisterReturn, UseFormSetValue } from 'react-hook-form';
import { Bold, Heading2, Italic, Link2, List, ListOrdered } from 'lucide-react';
import { Markdown } from '@web/components/markdown';
import type { CourseFormValues } from './course-form-values';

/** The Markdown description with a small toolbar and a live preview (side by side, tabs on small screens). */
export function DescriptionEditor({
  value,
  error,
  register,
  setValue,
  getValues,
}: {
  value: string;
  error?: string;
  register: UseFormRegisterReturn<'description'>;
  setValue: UseFormSetValue<CourseFormValues>;
  getValues: () => CourseFormValues;
}) {
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const preview = useDeferredValue(value);
  const area = useRef<HTMLTextAreaElement | null>(null);
  const tabsId = useId();

  const wrap = (el: HTMLTextAreaElement, before: string, after = before, placeholder = 'text') => {
    const current = getValues().description;
    const { selectionStart: s, selectionEnd: t } = el;
    const picked = current.slice(s, t) || placeholder;
    const next = current.slice(0, s) + before + picked + after + current.slice(t);
    setValue('description', next, { shouldDirty: true, shouldValidate: !!error });
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(s + before.length, s + before.length + picked.length);
    });
  };
  const prefixLines = (el: HTMLTextAreaElement, prefix: (n: number) => string) => {
    const current = getValues().description;
    const start = current.lastIndexOf('\n', el.selectionStart - 1) + 1;
    const end = el.selectionEnd;
    const lines = current.slice(start, end).split('\n');
    const block = lines.map((l, i) => prefix(i) + l).join('\n');
    setValue('description', current.slice(0, start) + block + current.slice(end), { shouldDirty: true, shouldValidate: !!error });
    requestAnimationFrame(() => el.focus());
  };
  const tools = [
    { label: 'Bold', Icon: Bold, run: (el: HTMLTextAreaElement) => wrap(el, '**') },
    { label: 'Italic', Icon: Italic, run: (el: HTMLTextAreaElement) => wrap(el, '*') },
    { label: 'Heading', Icon: Heading2, run: (el: HTMLTextAreaElement) => prefixLines(el, () => '## ') },
    { label: 'Bulleted list', Icon: List, run: (el: HTMLTextAreaElement) => prefixLines(el, () => '- ') },
    { label: 'Numbered list', Icon: ListOrdered, run: (el: HTMLTextAreaElement) => prefixLines(el, (i) => `${i + 1}. `) },
    { label: 'Link', Icon: Link2, run: (el: HTMLTextAreaElement) => wrap(el, '[', '](https://)', 'link text') },
  ];
  const apply = (run: (el: HTMLTextAreaElement) => void) => {
    if (area.current) run(area.current);
  };

  const { ref, ...field } = register;
  const tabClass = (on: boolean) =>
    `flex-1 rounded-md px-3 py-1.5 text-sm font-medium ${on ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'}`;
  return (
    <div>
      <div role="tablist" aria-label="Description view" className="mb-3 flex rounded-lg bg-slate-100 p-1 lg:hidden">
        <button
          type="button"
          role="tab"
          id={`${tabsId}-write`}
          aria-selected={tab === 'write'}
          aria-controls={`${tabsId}-write-panel`}
          className={tabClass(tab === 'write')}
          onClick={() => setTab('write')}
        >
          Write
        </button>
        <button
          type="button"
          role="tab"
          id={`${tabsId}-preview`}
          aria-selected={tab === 'preview'}
          aria-controls={`${tabsId}-preview-panel`}
          className={tabClass(tab === 'preview')}
          onClick={() => setTab('preview')}
        >
          Preview
        </button>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <div id={`${tabsId}-write-panel`} className={tab === 'write' ? '' : 'hidden lg:block'}>
          <div className="mb-1.5 flex flex-wrap items-end justify-between gap-2">
            <label htmlFor={`${tabsId}-text`} className="block text-sm font-medium text-slate-800">
              Description
            </label>
            <div role="toolbar" aria-label="Formatting" className="flex gap-0.5">
              {tools.map(({ label, Icon, run }) => (
                <button
                  key={label}
                  type="button"
                  onClick={() => apply(run)}
                  title={label}
                  aria-label={label}
                  className="rounded-md p-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900"
                >
                  <Icon className="h-4 w-4" aria-hidden="true" />
                </button>
              ))}
            </div>
          </div>
          <textarea
            id={`${tabsId}-text`}
            rows={16}
            maxLength={20000}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${tabsId}-desc-help`}
            className={`block min-h-72 w-full rounded-lg border bg-white px-3 py-2.5 font-mono text-sm leading-relaxed text-slate-900 shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-500 ${error ? 'border-red-500' : 'border-slate-300'}`}
            placeholder={'## What you will learn\n\n- Mixing colours\n- Washes and glazes\n\n**Bring:** a brush and paper.'}
            ref={(el) => {
              ref(el);
              area.current = el;
            }}
            {...field}
          />
          <p id={`${tabsId}-desc-help`} className={`mt-1 text-xs ${error ? 'font-medium text-red-700' : 'text-slate-600'}`}>
            {error ?? (
              <>
                Markdown: <code>## Heading</code>, <code>**bold**</code>, <code>*italic*</code>, <code>- list</code>,{' '}
                <code>[link](https://…)</code>. {value.length} / 20000
              </>
            )}
          </p>
        </div>
        <div id={`${tabsId}-preview-panel`} className={tab === 'preview' ? '' : 'hidden lg:block'}>
          <p className="mb-1.5 text-sm font-medium text-slate-800" id={`${tabsId}-preview-label`}>
            Preview
          </p>
          <div
            aria-labelledby={`${tabsId}-preview-label`}
            role="region"
            className="min-h-72 max-h-[32rem] overflow-y-auto rounded-lg border border-dashed border-slate-300 bg-slate-50/60 p-4 text-sm"
          >
            {preview.trim() ? (
              <Markdown source={preview} />
            ) : (
              <p className="text-slate-500">The formatted description appears here as you type.</p>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
