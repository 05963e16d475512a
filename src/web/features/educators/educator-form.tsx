import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Controller, useForm, useWatch, type FieldErrors, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Camera, Link2, Plus, X } from 'lucide-react';
import { CATEGORIES } from '@shared/courses';
import { educatorInput, type EducatorInput } from '@shared/educators-schemas';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Field } from '@web/components/ui/field';
import { Spinner } from '@web/components/ui/spinner';
import { Markdown } from '@web/components/markdown';
import { FormSection, TextArea } from '@web/components/ui/inputs';
import { imageProblem, IMAGE_TYPES, ProgressBar } from '@web/components/ui/upload';
import { useFormStatus } from '@web/lib/form-status';

export interface EducatorValues {
  headline: string;
  bio: string;
  subjects: string[];
  links: string[];
}

const zod = zodResolver(educatorInput);

/** The shared `educatorInput` rules, with empty link fields ignored (errors kept at their field). */
const resolver: Resolver<EducatorValues> = async (values, context, options) => {
  const kept = values.links.map((l, i) => [l.trim(), i] as const).filter(([l]) => l);
  const result = await zod({ ...values, links: kept.map(([l]) => l) }, context, options as unknown as Parameters<typeof zod>[2]);
  const errors = { ...result.errors } as FieldErrors<EducatorValues>;
  if (Array.isArray(result.errors.links)) {
    const mapped: { message?: string; type: string }[] = [];
    result.errors.links.forEach((err, k) => {
      if (err) mapped[kept[k][1]] = { type: 'validate', message: err.message };
    });
    errors.links = mapped as never;
  }
  return Object.keys(errors).length ? { values: {}, errors } : { values, errors: {} };
};

const MAX_SUBJECTS = 10;
const MAX_LINKS = 5;
const FIELDS = new Set(['headline', 'bio', 'subjects', 'links']);

/**
 * The educator profile fields (onboarding step 1 and the edit page): headline, bio
 * (Markdown, with a preview), subjects as chips, up to 5 links. `photo` is rendered above
 * the fields; `onSubmit` throws ApiErrors whose field errors land under the fields.
 */
export function EducatorForm({
  initial,
  photo,
  submitLabel,
  onSubmit,
  footer,
}: {
  initial?: Partial<EducatorValues>;
  photo: ReactNode;
  submitLabel: string;
  onSubmit: (values: EducatorInput) => Promise<void>;
  footer?: ReactNode;
}) {
  const { register, control, handleSubmit, formState, setError, reset } = useForm<EducatorValues>({
    resolver,
    mode: 'onTouched',
    defaultValues: {
      headline: initial?.headline ?? '',
      bio: initial?.bio ?? '',
      subjects: initial?.subjects ?? [],
      links: initial?.links ?? [],
    },
  });
  const [status, setStatus] = useFormStatus<{ text: string; validation?: boolean }>(Object.keys(formState.errors).length);
  const [previewBio, setPreviewBio] = useState(false);
  const e = formState.errors;
  const bio = useWatch({ control, name: 'bio' });

  const submit = handleSubmit(
    async (values) => {
      setStatus(null);
      const body = { ...values, links: values.links.map((l) => l.trim()).filter(Boolean) };
      try {
        await onSubmit(body);
        reset(body);
      } catch (err) {
        if (err instanceof ApiError) {
          for (const [k, message] of Object.entries(err.fields)) {
            const name = k.split('.')[0];
            if (FIELDS.has(name)) setError(k as 'headline', { type: 'server', message });
          }
          setStatus({ text: err.message });
        } else setStatus({ text: 'Your profile could not be saved. Please try again.' });
      }
    },
    () => setStatus({ text: 'Please correct the fields marked below.', validation: true }),
  );

  const linkErrors = Array.isArray(e.links) ? e.links : [];
  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      {status && <Alert tone="error">{status.text}</Alert>}
      <FormSection title="Your educator profile" description="Learners see this on your profile and on each of your courses.">
        {photo}
        <Field
          label="Headline"
          maxLength={120}
          placeholder="e.g. Watercolour painter and art teacher for 10 years"
          error={e.headline?.message}
          hint="One line under your name."
          {...register('headline')}
        />
        <div>
          <TextArea
            label="Bio"
            rows={7}
            maxLength={4000}
            count={bio.length}
            placeholder="Who you are, what you teach, how you teach it."
            hint="At least 20 characters. Markdown works: **bold**, *italic*, - lists, [links](https://…)."
            error={e.bio?.message}
            className={previewBio ? 'hidden' : ''}
            {...register('bio')}
          />
          {previewBio && (
            <div>
              <p className="mb-1.5 text-sm font-medium text-slate-800">Bio preview</p>
              <div className="min-h-40 rounded-lg border border-dashed border-slate-300 bg-slate-50/60 p-4 text-sm">
                {bio.trim() ? <Markdown source={bio} /> : <p className="text-slate-500">Nothing to preview yet.</p>}
              </div>
            </div>
          )}
          <button
            type="button"
            className="mt-1 text-sm font-semibold text-brand-700 hover:underline"
            aria-pressed={previewBio}
            onClick={() => setPreviewBio((p) => !p)}
          >
            {previewBio ? 'Back to editing' : 'Preview the bio'}
          </button>
        </div>
        <Controller
          control={control}
          name="subjects"
          render={({ field }) => (
            <SubjectsInput
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={
                (e.subjects as { message?: string } | undefined)?.message ??
                (Array.isArray(e.subjects) ? e.subjects.find(Boolean)?.message : undefined)
              }
            />
          )}
        />
        <Controller
          control={control}
          name="links"
          render={({ field }) => (
            <LinksInput
              value={field.value}
              onChange={field.onChange}
              errors={linkErrors.map((x) => x?.message)}
              error={(e.links as { message?: string } | undefined)?.message}
            />
          )}
        />
      </FormSection>
      <div className="flex flex-wrap items-center justify-end gap-2">
        {footer}
        <Button type="submit" loading={formState.isSubmitting}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** Subjects as removable chips; Enter or a comma adds what was typed. */
function SubjectsInput({
  value,
  onChange,
  onBlur,
  error,
}: {
  value: string[];
  onChange: (v: string[]) => void;
  onBlur: () => void;
  error?: string;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [note, setNote] = useState<string | null>(null);
  /** Adds one or more subjects (a pasted "a, b, c" too). */
  const add = (raw: string) => {
    const next = [...value];
    let problem: string | null = null;
    for (const part of raw.split(',')) {
      const s = part.trim().replace(/\s+/g, ' ').slice(0, 40);
      if (!s) continue;
      if (next.some((v) => v.toLowerCase() === s.toLowerCase())) problem = `“${s}” is already in your subjects`;
      else if (next.length >= MAX_SUBJECTS) problem = `At most ${MAX_SUBJECTS} subjects`;
      else next.push(s);
    }
    setNote(problem);
    if (next.length !== value.length) onChange(next);
  };
  const onKey = (ev: KeyboardEvent<HTMLInputElement>) => {
    if (ev.key === 'Enter') {
      ev.preventDefault();
      add(text);
      setText('');
    } else if (ev.key === 'Backspace' && !text && value.length) {
      onChange(value.slice(0, -1));
    }
  };
  const suggestions = CATEGORIES.filter((c) => c.id !== 'other' && !value.some((v) => v.toLowerCase() === c.label.toLowerCase())).slice(
    0,
    6,
  );
  const message = error ?? note;
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-800">
        Subjects
      </label>
      <div
        className={`flex flex-wrap items-center gap-1.5 rounded-lg border bg-white px-2 py-1.5 shadow-sm focus-within:ring-2 focus-within:ring-brand-500 ${error ? 'border-red-500' : 'border-slate-300'}`}
      >
        <ul className="contents" aria-label="Subject list">
          {value.map((s) => (
            <li
              key={s}
              className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-0.5 pl-2.5 pr-1 text-sm font-medium text-brand-800 ring-1 ring-inset ring-brand-100"
            >
              {s}
              <button
                type="button"
                className="rounded-full p-0.5 hover:bg-brand-100"
                aria-label={`Remove subject ${s}`}
                onClick={() => onChange(value.filter((v) => v !== s))}
              >
                <X className="h-3.5 w-3.5" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
        <input
          id={id}
          value={text}
          onChange={(ev) => {
            const t = ev.target.value;
            // A comma ends a subject (typed, or in pasted text).
            if (t.includes(',')) {
              add(t.slice(0, t.lastIndexOf(',')));
              setText(t.slice(t.lastIndexOf(',') + 1));
            } else setText(t);
          }}
          onKeyDown={onKey}
          onBlur={() => {
            if (text.trim()) {
              add(text);
              setText('');
            }
            onBlur();
          }}
          maxLength={40}
          placeholder={value.length ? '' : 'Type a subject and press Enter'}
          aria-describedby={`${id}-help`}
          aria-invalid={error ? true : undefined}
          className="min-w-[10rem] flex-1 border-0 bg-transparent px-1 py-1 text-sm text-slate-900 placeholder:text-slate-500 focus:outline-none"
        />
      </div>
      <p id={`${id}-help`} className={`mt-1 text-xs ${message ? 'font-medium text-red-700' : 'text-slate-600'}`}>
        {message ?? `What you teach, up to ${MAX_SUBJECTS}. Press Enter or a comma after each one.`}
      </p>
      {suggestions.length > 0 && value.length < MAX_SUBJECTS && (
        <div className="mt-2 flex flex-wrap items-center gap-1.5 text-xs">
          <span className="text-slate-600">Suggestions:</span>
          {suggestions.map((c) => (
            <button
              key={c.id}
              type="button"
              onClick={() => add(c.label)}
              className="inline-flex items-center gap-0.5 rounded-full border border-slate-300 px-2 py-0.5 text-slate-700 hover:border-brand-500 hover:text-brand-700"
              aria-label={`Add subject ${c.label}`}
            >
              <Plus className="h-3 w-3" aria-hidden="true" /> {c.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

/** Up to 5 links (website, portfolio, social), each its own labelled field. */
function LinksInput({
  value,
  onChange,
  errors,
  error,
}: {
  value: string[];
  onChange: (v: string[]) => void;
  errors: (string | undefined)[];
  error?: string;
}) {
  const list = value.length ? value : [''];
  const set = (i: number, v: string) => onChange(list.map((x, j) => (j === i ? v : x)));
  return (
    <fieldset>
      <legend className="mb-1.5 flex items-center gap-1.5 text-sm font-medium text-slate-800">
        <Link2 className="h-4 w-4 text-slate-500" aria-hidden="true" /> Links
      </legend>
      <p className="mb-2 text-xs text-slate-600">Your website, portfolio or social profiles, starting with https://.</p>
      <div className="space-y-2">
        {list.map((link, i) => (
          <div key={i} className="flex items-start gap-2">
            <Field
              label={`Link ${i + 1}`}
              type="url"
              inputMode="url"
              placeholder="https://"
              value={link}
              onChange={(ev) => set(i, ev.target.value)}
              error={errors[i]}
              className="flex-1 [&>label]:sr-only"
            />
            {(list.length > 1 || link) && (
              <button
                type="button"
                onClick={() => onChange(list.filter((_, j) => j !== i))}
                className="mt-1 rounded-lg p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
                aria-label={`Remove link number ${i + 1}`}
              >
                <X className="h-4 w-4" aria-hidden="true" />
              </button>
            )}
          </div>
        ))}
      </div>
      {error && <p className="mt-1 text-xs font-medium text-red-700">{error}</p>}
      {list.length < MAX_LINKS && (
        <button
          type="button"
          onClick={() => onChange([...list, ''])}
          className="mt-2 inline-flex items-center gap-1 text-sm font-semibold text-brand-700 hover:underline"
        >
          <Plus className="h-4 w-4" aria-hidden="true" /> Add a link
        </button>
      )}
    </fieldset>
  );
}

/**
 * The educator photo. With `upload`, a chosen file uploads at once (with progress);
 * without, it is only picked and previewed (onboarding uploads it after the profile exists).
 */
export function PhotoInput({
  current,
  file,
  onFile,
  upload,
}: {
  current: string;
  file?: File | null;
  onFile?: (f: File | null) => void;
  upload?: (f: File, progress: (p: number) => void) => Promise<string>;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [shown, setShown] = useState(current);
  // A new photo from the server (e.g. after a refetch) replaces the shown one: adjusted while rendering.
  const [prevCurrent, setPrevCurrent] = useState(current);
  if (current !== prevCurrent) {
    setPrevCurrent(current);
    setShown(current);
  }
  // The preview's object URL is made where the file is picked, and released when replaced or unmounted.
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );
  const pick = (f: File | null) => {
    setPreview(f && URL.createObjectURL(f));
    onFile?.(f);
  };

  async function choose(f: File | undefined) {
    if (input.current) input.current.value = '';
    if (!f) return;
    setMessage(null);
    const problem = imageProblem(f);
    if (problem) return setMessage({ tone: 'error', text: problem });
    if (!upload) return pick(f);
    setPreview(URL.createObjectURL(f));
    setProgress(0);
    try {
      const url = await upload(f, setProgress);
      setShown(url);
      setMessage({ tone: 'success', text: 'Your photo has been updated' });
    } catch (err) {
      setMessage({ tone: 'error', text: err instanceof ApiError ? err.message : 'The upload failed' });
    } finally {
      setProgress(null);
      setPreview(null);
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-5">
      <div className="relative">
        <img
          src={preview ?? shown}
          alt="Your educator portrait"
          className="h-24 w-24 rounded-full border border-slate-200 object-cover"
          width={96}
          height={96}
        />
        {progress !== null && (
          <div className="absolute inset-0 flex items-center justify-center rounded-full bg-white/70 text-brand-700">
            <Spinner className="h-6 w-6" />
          </div>
        )}
      </div>
      <div className="min-w-0 flex-1 space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <label
            className={`inline-flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 hover:bg-slate-50 focus-within:ring-2 focus-within:ring-brand-500 ${progress !== null ? 'pointer-events-none opacity-60' : ''}`}
          >
            <Camera className="h-4 w-4" aria-hidden="true" />
            {file || shown !== current || !current.endsWith('default-avatar.svg') ? 'Change photo' : 'Choose a photo'}
            <input
              ref={input}
              type="file"
              accept={IMAGE_TYPES.join(',')}
              className="sr-only"
              disabled={progress !== null}
              onChange={(ev) => void choose(ev.target.files?.[0])}
            />
          </label>
          {file && onFile && (
            <Button type="button" variant="ghost" onClick={() => pick(null)}>
              Remove
            </Button>
          )}
        </div>
        <p className="text-xs text-slate-600">
          {upload
            ? 'A clear, friendly photo of your face. PNG, JPEG or WebP, up to 5 MB.'
            : 'Optional now: uploaded with your profile. PNG, JPEG or WebP, up to 5 MB.'}
        </p>
        {progress !== null && (
          <div className="max-w-xs">
            <ProgressBar value={progress} label="Uploading your photo" />
          </div>
        )}
        {message && <Alert tone={message.tone}>{message.text}</Alert>}
      </div>
    </div>
  );
}
