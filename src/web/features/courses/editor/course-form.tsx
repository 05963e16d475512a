import { useDeferredValue, useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useBlocker, useNavigate } from 'react-router';
import { useForm, useWatch, type FieldErrors, type Resolver, type UseFormSetValue } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Bold, Heading2, ImagePlus, Italic, Link2, List, ListOrdered, MapPin, Monitor } from 'lucide-react';
import { CATEGORIES, CURRENCIES, LEVELS, REFUND_POLICIES, formatPrice } from '@shared/courses';
import { courseInput, type CourseInput, type CourseView } from '@shared/courses-schemas';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Field } from '@web/components/ui/field';
import { Markdown } from '@web/components/markdown';
import { useViewer } from '@web/lib/viewer';
import { coverUploadUrl, createCourse, publishCourse, updateCourse } from '../api/courses';
import { ConfirmDialog } from '@web/components/ui/dialog';
import { FieldGroup, FormSection, Select, TextArea } from '@web/components/ui/inputs';
import { ProgressBar, imageProblem, IMAGE_TYPES, uploadWithProgress } from '@web/components/ui/upload';
import { useNotEducatorRedirect } from '@web/components/educator-only';
import { type Flash } from '@web/components/ui/toast';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';
import { useFormStatus } from '@web/lib/form-status';
import { MIN_INSTALLMENT_CENTS, installmentTerms, maxInstallmentsFor } from '@shared/payments';

export interface CourseFormValues {
  title: string;
  summary: string;
  description: string;
  category: string;
  level: string;
  language: string;
  audience: string;
  format: 'online' | 'in_person';
  city: string;
  address: string;
  price: string;
  currency: (typeof CURRENCIES)[number];
  plan: 'once' | 'installments';
  installments: string;
  refundPolicy: (typeof REFUND_POLICIES)[number]['id'];
}

const LANGUAGES = [
  'English',
  'Spanish',
  'French',
  'German',
  'Italian',
  'Portuguese',
  'Dutch',
  'Polish',
  'Arabic',
  'Chinese',
  'Japanese',
  'Korean',
  'Hindi',
];
const CURRENCY_SYMBOL: Record<string, string> = { usd: '$', eur: '€', gbp: '£' };
const PRICE_RE = /^\d{1,6}(?:[.,]\d{1,2})?$/;

function defaults(course?: CourseView, city?: string | null): CourseFormValues {
  if (!course) {
    return {
      title: '',
      summary: '',
      description: '',
      category: '',
      level: 'all',
      language: 'English',
      audience: '',
      format: 'online',
      city: city ?? '',
      address: '',
      price: '0',
      currency: 'usd',
      plan: 'once',
      installments: '3',
      refundPolicy: 'moderate',
    };
  }
  return {
    title: course.title,
    summary: course.summary,
    description: course.description,
    category: course.category,
    level: course.level,
    language: course.language,
    audience: course.audience ?? '',
    format: course.format,
    city: course.city ?? '',
    address: course.address ?? '',
    price: course.priceCents % 100 === 0 ? String(course.priceCents / 100) : (course.priceCents / 100).toFixed(2),
    currency: (CURRENCIES as readonly string[]).includes(course.currency) ? (course.currency as CourseFormValues['currency']) : 'usd',
    plan: course.installments ? 'installments' : 'once',
    installments: String(course.installments ?? 3),
    refundPolicy: REFUND_POLICIES.find((r) => r.id === course.refundPolicy)?.id ?? 'moderate',
  };
}

const priceCents = (price: string) => {
  const t = price.trim();
  if (!t) return 0;
  return PRICE_RE.test(t) ? Math.round(Number(t.replace(',', '.')) * 100) : Number.NaN;
};

/** The form's values as the API's course input (price in cents, installments only when paid). */
export function toCourseInput(v: CourseFormValues): CourseInput {
  const cents = priceCents(v.price);
  return {
    title: v.title,
    summary: v.summary,
    description: v.description,
    category: v.category as CourseInput['category'],
    level: v.level as CourseInput['level'],
    language: v.language,
    audience: v.audience.trim() || null,
    format: v.format,
    city: v.city.trim() || null,
    address: v.format === 'in_person' ? v.address.trim() || null : null,
    priceCents: Number.isNaN(cents) ? 0 : cents,
    currency: v.currency,
    installments: v.plan === 'installments' && cents > 0 ? Number(v.installments) : null,
    refundPolicy: v.refundPolicy,
  };
}

/** The API's field names -> the form's. */
const FIELD_OF: Record<string, keyof CourseFormValues> = { priceCents: 'price' };
const FORM_FIELDS = new Set<string>(Object.keys(defaults()));

const zod = zodResolver(courseInput);

/** Client-side validation with the shared `courseInput` schema (the server's own rules). */
const courseResolver: Resolver<CourseFormValues> = async (values, context, options) => {
  const result = await zod(toCourseInput(values), context, options as unknown as Parameters<typeof zod>[2]);
  const errors: FieldErrors<CourseFormValues> = {};
  for (const [key, error] of Object.entries(result.errors)) {
    const name = FIELD_OF[key] ?? key;
    if (FORM_FIELDS.has(name) && error && 'message' in error)
      errors[name as keyof CourseFormValues] = { type: String(error.type ?? 'validate'), message: String(error.message) };
  }
  if (Number.isNaN(priceCents(values.price))) errors.price = { type: 'format', message: 'Enter the price as a number, like 49 or 49.50' };
  if (!values.category) errors.category = { type: 'required', message: 'Choose a category' };
  return Object.keys(errors).length ? { values: {}, errors } : { values, errors: {} };
};

type Intent = 'draft' | 'publish';

/**
 * The course editor: every field of a course, a live Markdown preview of the description,
 * the cover image. Creates the course (then goes to its edit page) or saves an existing one.
 */
export function CourseForm({ course, onSaved }: { course?: CourseView; onSaved?: (flash: Flash) => void }) {
  const me = useViewer();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const notEducator = useNotEducatorRedirect();
  const { register, handleSubmit, control, formState, setError, setValue, reset, getValues, trigger } = useForm<CourseFormValues>({
    defaultValues: defaults(course, me.city),
    resolver: courseResolver,
    mode: 'onTouched',
  });
  const [status, setStatus] = useFormStatus<{ tone: 'error' | 'info'; text: ReactNode; validation?: boolean }>(
    Object.keys(formState.errors).length,
  );
  const [intent, setIntent] = useState<Intent | null>(null);
  const [coverFile, setCoverFile] = useState<File | null>(null);
  const [upload, setUpload] = useState<number | null>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const e = formState.errors;

  const [format, price, currency, plan, installments, title, summary, description] = useWatch({
    control,
    name: ['format', 'price', 'currency', 'plan', 'installments', 'title', 'summary', 'description'],
  });
  const cents = priceCents(price);
  const paid = cents > 0;
  // Each monthly payment is at least the minimum: a $45 course offers 2, not 24 (decision 0017).
  const maxInstallments = Number.isNaN(cents) ? 0 : maxInstallmentsFor(cents);

  // Leaving with unsaved changes asks first: a link in the app, or closing the tab.
  const dirty = formState.isDirty && !formState.isSubmitSuccessful;
  // The blocker reads the latest value when a navigation starts (the save navigates while its
  // submit is still running), so it is kept in a ref, synced after each commit.
  const dirtyRef = useRef(dirty);
  const blockLeaving = dirty && !formState.isSubmitting;
  useLayoutEffect(() => {
    dirtyRef.current = blockLeaving;
  }, [blockLeaving]);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirtyRef.current && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return;
    const warn = (ev: BeforeUnloadEvent) => ev.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  // Fields whose rules depend on others are checked again when those change.
  const hasCityError = !!e.city;
  const hasInstallmentsError = !!e.installments;
  useEffect(() => {
    if (hasCityError) void trigger('city');
  }, [format]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (hasInstallmentsError) void trigger('installments');
  }, [price, plan]); // eslint-disable-line react-hooks/exhaustive-deps
  // A server's answer scrolls into view (invalid fields get the focus themselves).
  useEffect(() => {
    if (status && !status.validation) errorRef.current?.focus();
  }, [status]);

  const showApiError = (err: unknown) => {
    if (notEducator(err)) return;
    if (err instanceof ApiError) {
      for (const [key, message] of Object.entries(err.fields)) {
        const name = FIELD_OF[key] ?? key;
        if (FORM_FIELDS.has(name)) setError(name as keyof CourseFormValues, { type: 'server', message });
      }
      setStatus({ tone: 'error', text: err.message });
    } else setStatus({ tone: 'error', text: 'The course could not be saved. Please try again.' });
  };

  const submit = (which: Intent) =>
    handleSubmit(
      async (values) => {
        setIntent(which);
        setStatus(null);
        const input = toCourseInput(values);
        try {
          if (!course) {
            const { id } = await createCourse(input);
            let coverFailed: string | null = null;
            if (coverFile) {
              setUpload(0);
              try {
                await uploadWithProgress(coverUploadUrl(id), coverFile, setUpload);
              } catch (err) {
                coverFailed = err instanceof ApiError ? err.message : 'The cover image could not be uploaded';
              }
            }
            reset(values);
            dirtyRef.current = false;
            void queryClient.invalidateQueries({ queryKey: queryKeys.educator(me.id) });
            void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
            const text =
              which === 'publish'
                ? 'Your course is saved as a draft. Add a session with its class times, then publish it.'
                : 'Draft saved. Next, add a session so learners can enrol.';
            navigate(paths.editCourse(id), {
              state: {
                flash: { text: coverFailed ? `${text} (${coverFailed}: try again below.)` : text, tone: 'success' },
                needsSession: which === 'publish',
              },
            });
            return;
          }
          await updateCourse(course.id, input);
          reset(values);
          if (which === 'publish') {
            try {
              await publishCourse(course.id);
            } catch (err) {
              await queryClient.invalidateQueries({ queryKey: queryKeys.course(course.id) });
              if (err instanceof ApiError && err.code === 'no_sessions') {
                setStatus({
                  tone: 'info',
                  text: (
                    <>
                      Your changes are saved. To publish, add a session first: learners enrol in a session.{' '}
                      <Link to={paths.newSession(course.id)} className="font-semibold underline">
                        Add a session
                      </Link>
                    </>
                  ),
                });
                return;
              }
              throw err;
            }
          }
          await queryClient.invalidateQueries({ queryKey: queryKeys.course(course.id) });
          void queryClient.invalidateQueries({ queryKey: queryKeys.educator(me.id) });
          onSaved?.({ tone: 'success', text: which === 'publish' ? 'Your course is published' : 'Changes saved' });
        } catch (err) {
          showApiError(err);
        } finally {
          setIntent(null);
          setUpload(null);
        }
      },
      () => setStatus({ tone: 'error', text: 'Please correct the fields marked below.', validation: true }),
    );

  const submitting = formState.isSubmitting;
  const published = course?.status === 'published';

  return (
    <form
      onSubmit={(ev) => void submit('draft')(ev)}
      noValidate
      className="space-y-6"
      aria-label={course ? 'Course details' : 'New course'}
    >
      {status && (
        <div ref={errorRef} tabIndex={-1} className="outline-none">
          <Alert tone={status.tone}>{status.text}</Alert>
        </div>
      )}

      <FormSection title="The basics" description="What learners see first in search results.">
        <Field
          label="Title"
          maxLength={120}
          placeholder="e.g. Watercolour for beginners"
          error={e.title?.message}
          hint={`${title.length} / 120 characters`}
          {...register('title')}
        />
        <TextArea
          label="Summary"
          rows={3}
          maxLength={280}
          count={summary.length}
          placeholder="One or two sentences: what learners will be able to do."
          error={e.summary?.message}
          {...register('summary')}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <Select label="Category" error={e.category?.message} {...register('category')}>
            <option value="">Choose a category…</option>
            {CATEGORIES.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </Select>
          <Select label="Level" error={e.level?.message} {...register('level')}>
            {LEVELS.map((l) => (
              <option key={l.id} value={l.id}>
                {l.label}
              </option>
            ))}
          </Select>
          <div>
            <Field label="Language" list="course-languages" autoComplete="off" error={e.language?.message} {...register('language')} />
            <datalist id="course-languages">
              {LANGUAGES.map((l) => (
                <option key={l} value={l} />
              ))}
            </datalist>
          </div>
          <Field
            label="Audience"
            placeholder="e.g. Ages 8–12, or adults new to coding"
            hint="Optional: age range or who it is for."
            error={e.audience?.message}
            {...register('audience')}
          />
        </div>
      </FormSection>

      <FormSection
        title="Description"
        description="Everything a learner needs to decide: what you will cover, what to bring, what they will make."
      >
        <DescriptionEditor
          value={description}
          error={e.description?.message}
          register={register('description')}
          setValue={setValue}
          getValues={getValues}
        />
      </FormSection>

      <FormSection title="Format" description="Where the classes take place.">
        <FieldGroup legend="How is it taught?" error={e.format?.message}>
          <div className="grid gap-3 sm:grid-cols-2">
            <RadioCard
              value="online"
              label="Online"
              text="Live video classes; you add the meeting link to each class time."
              icon={<Monitor className="h-5 w-5" aria-hidden="true" />}
              {...register('format')}
            />
            <RadioCard
              value="in_person"
              label="In person"
              text="Learners meet you at an address in your city."
              icon={<MapPin className="h-5 w-5" aria-hidden="true" />}
              {...register('format')}
            />
          </div>
        </FieldGroup>
        {format === 'in_person' ? (
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label="City" autoComplete="address-level2" error={e.city?.message} {...register('city')} />
            <Field
              label="Address"
              autoComplete="street-address"
              hint="Shown to learners on the course page."
              error={e.address?.message}
              {...register('address')}
            />
          </div>
        ) : (
          <Field
            label="City (optional)"
            autoComplete="address-level2"
            hint="Helps learners nearby find your online course."
            error={e.city?.message}
            {...register('city')}
          />
        )}
      </FormSection>

      <FormSection title="Price and payment" description="Set the price to 0 for a free course.">
        <div className="grid gap-5 sm:grid-cols-[1fr_10rem]">
          <div>
            <label htmlFor="course-price" className="mb-1.5 block text-sm font-medium text-slate-800">
              Price
            </label>
            <div className="relative">
              <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-slate-600" aria-hidden="true">
                {CURRENCY_SYMBOL[currency]}
              </span>
              <input
                id="course-price"
                inputMode="decimal"
                autoComplete="off"
                aria-invalid={e.price ? true : undefined}
                aria-describedby={e.price ? 'course-price-error' : 'course-price-hint'}
                className={`block w-full rounded-lg border bg-white py-2.5 pl-8 pr-3 text-sm text-slate-900 shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-500 ${e.price ? 'border-red-500' : 'border-slate-300'}`}
                {...register('price')}
              />
            </div>
            {e.price ? (
              <p id="course-price-error" className="mt-1 text-xs font-medium text-red-700">
                {e.price.message}
              </p>
            ) : (
              <p id="course-price-hint" className="mt-1 text-xs text-slate-600">
                {Number.isNaN(cents)
                  ? 'In whole units, like 49 or 49.50.'
                  : paid
                    ? `Learners pay ${formatPrice(cents, currency)} per session.`
                    : 'Free: learners enrol at once.'}
              </p>
            )}
          </div>
          <Select label="Currency" error={e.currency?.message} {...register('currency')}>
            {CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c.toUpperCase()}
              </option>
            ))}
          </Select>
        </div>
        {paid && !me.educator?.stripeConnectAccountId && (
          <Alert tone="info">
            Learners can pay for this course once your payouts are set up (the next onboarding step, coming soon). You can prepare and save
            it now.
          </Alert>
        )}
        {paid && (
          <FieldGroup
            legend="Payment options"
            error={e.installments?.message}
            hint={`Installments are charged monthly, the first one at enrolment; each is at least ${formatPrice(MIN_INSTALLMENT_CENTS, currency)}, and the last one falls before the session ends (a learner joining late pays in fewer).`}
          >
            <div className="grid gap-3 sm:grid-cols-2">
              <RadioCard value="once" label="One payment" text={`${formatPrice(cents, currency)} at enrolment.`} {...register('plan')} />
              <RadioCard
                value="installments"
                label="Monthly installments"
                text={
                  plan === 'installments' && Number(installments) >= 2
                    ? `${installmentTerms(cents, Number(installments), currency)}.`
                    : maxInstallments >= 2
                      ? `Spread the price over 2 to ${maxInstallments} months.`
                      : `From ${formatPrice(2 * MIN_INSTALLMENT_CENTS, currency)}: each payment is at least ${formatPrice(MIN_INSTALLMENT_CENTS, currency)}.`
                }
                {...register('plan')}
              />
            </div>
            {plan === 'installments' && (
              <Select label="Number of monthly installments" className="mt-4 max-w-xs" {...register('installments')}>
                {Array.from({ length: Math.max(1, maxInstallments - 1) }, (_, i) => i + 2).map((n) => (
                  <option key={n} value={n}>
                    {n} months
                  </option>
                ))}
              </Select>
            )}
          </FieldGroup>
        )}
        <FieldGroup legend="Refund policy" error={e.refundPolicy?.message}>
          <div className="grid gap-3 lg:grid-cols-3">
            {REFUND_POLICIES.map((r) => (
              <RadioCard key={r.id} value={r.id} label={r.label} text={r.text} {...register('refundPolicy')} />
            ))}
          </div>
        </FieldGroup>
      </FormSection>

      {course ? <CoverUploader course={course} /> : <CoverPicker file={coverFile} onFile={setCoverFile} />}

      <div className="sticky bottom-0 z-20 -mx-4 border-t border-slate-200 bg-white/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-2xl sm:border sm:shadow-sm">
        {upload !== null && (
          <div className="mb-3">
            <ProgressBar value={upload} label="Uploading the cover image" />
          </div>
        )}
        <div className="flex flex-wrap items-center justify-end gap-2">
          <p className="mr-auto hidden text-sm text-slate-600 sm:block">
            {course
              ? published
                ? 'Published: changes show to learners at once.'
                : course.status === 'archived'
                  ? 'Archived: hidden from search.'
                  : 'Draft: only you can see it.'
              : 'Saved as a draft until you publish.'}
          </p>
          {published ? (
            <Button type="submit" loading={submitting && intent === 'draft'} disabled={submitting}>
              Save changes
            </Button>
          ) : (
            <>
              <Button type="submit" variant="secondary" loading={submitting && intent === 'draft'} disabled={submitting}>
                Save draft
              </Button>
              <Button
                type="button"
                loading={submitting && intent === 'publish'}
                disabled={submitting}
                onClick={(ev) => void submit('publish')(ev)}
              >
                {course?.status === 'archived' ? 'Publish again' : 'Publish course'}
              </Button>
            </>
          )}
        </div>
      </div>

      <ConfirmDialog
        open={blocker.state === 'blocked'}
        title="Leave without saving?"
        confirmLabel="Leave"
        cancelLabel="Stay on this page"
        onConfirm={() => blocker.proceed?.()}
        onClose={() => blocker.reset?.()}
      >
        <p>Your changes to this course have not been saved yet.</p>
      </ConfirmDialog>
    </form>
  );
}

/** A radio input styled as a card (the input stays a real, labelled radio). */
function RadioCard({
  value,
  label,
  text,
  icon,
  ...field
}: { value: string; label: string; text: string; icon?: ReactNode } & ReturnType<
  ReturnType<typeof useForm<CourseFormValues>>['register']
>) {
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

type Register = ReturnType<ReturnType<typeof useForm<CourseFormValues>>['register']>;

/** The Markdown description with a small toolbar and a live preview (side by side, tabs on small screens). */
function DescriptionEditor({
  value,
  error,
  register,
  setValue,
  getValues,
}: {
  value: string;
  error?: string;
  register: Register;
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

/** New course: the cover is chosen now and uploaded right after the course is created. */
function CoverPicker({ file, onFile }: { file: File | null; onFile: (f: File | null) => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  // The preview's object URL is made where the file is picked, and released when replaced or unmounted.
  const [url, setUrl] = useState<string | null>(null);
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  const pick = (f: File | null) => {
    setUrl(f && URL.createObjectURL(f));
    onFile(f);
  };
  return (
    <FormSection title="Cover image" description="A 16:9 picture shown on the course page and in search. PNG, JPEG or WebP, up to 5 MB.">
      <CoverFrame src={url} />
      <div className="flex flex-wrap items-center gap-3">
        <FileButton
          label={file ? 'Choose another cover image' : 'Choose a cover image'}
          onFile={(f) => {
            const p = imageProblem(f);
            setProblem(p);
            if (!p) pick(f);
          }}
        />
        {file && (
          <Button type="button" variant="ghost" onClick={() => pick(null)}>
            Remove
          </Button>
        )}
        {file && <span className="text-sm text-slate-600">Uploaded when you save.</span>}
      </div>
      {problem && <Alert tone="error">{problem}</Alert>}
    </FormSection>
  );
}

/** Existing course: the cover uploads at once, with its progress. */
function CoverUploader({ course }: { course: CourseView }) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const [local, setLocal] = useState<string | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  useEffect(
    () => () => {
      if (local) URL.revokeObjectURL(local);
    },
    [local],
  );

  async function onFile(file: File) {
    setMessage(null);
    const p = imageProblem(file);
    if (p) return setMessage({ tone: 'error', text: p });
    setLocal(URL.createObjectURL(file));
    setProgress(0);
    try {
      const { coverImage } = await uploadWithProgress<{ coverImage: string }>(coverUploadUrl(course.id), file, setProgress);
      queryClient.setQueryData<CourseView>(queryKeys.course(course.id), (c) => (c ? { ...c, coverImage } : c));
      setLocal(null);
      setMessage({ tone: 'success', text: 'The cover image has been updated' });
    } catch (err) {
      setLocal(null);
      setMessage({ tone: 'error', text: err instanceof ApiError ? err.message : 'The upload failed' });
    } finally {
      setProgress(null);
    }
  }

  return (
    <FormSection title="Cover image" description="A 16:9 picture shown on the course page and in search. PNG, JPEG or WebP, up to 5 MB.">
      <CoverFrame src={local ?? course.coverImage} busy={progress !== null} />
      {progress !== null && <ProgressBar value={progress} label="Uploading the cover image" />}
      <FileButton
        label={course.coverImage ? 'Change the cover image' : 'Upload a cover image'}
        disabled={progress !== null}
        onFile={onFile}
      />
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
    </FormSection>
  );
}

function CoverFrame({ src, busy }: { src: string | null; busy?: boolean }) {
  return (
    <div className="relative aspect-[16/9] w-full max-w-xl overflow-hidden rounded-xl border border-slate-200 bg-gradient-to-br from-brand-50 to-slate-100">
      {src ? (
        <img src={src} alt="Cover preview" className={`h-full w-full object-cover ${busy ? 'opacity-60' : ''}`} />
      ) : (
        <div className="flex h-full flex-col items-center justify-center gap-2 text-brand-700">
          <ImagePlus className="h-10 w-10 opacity-70" aria-hidden="true" />
          <span className="text-sm text-slate-600">No cover image yet</span>
        </div>
      )}
    </div>
  );
}

function FileButton({ label, onFile, disabled }: { label: string; onFile: (f: File) => void; disabled?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <label
      className={`inline-flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 hover:bg-slate-50 focus-within:ring-2 focus-within:ring-brand-500 ${disabled ? 'pointer-events-none opacity-60' : ''}`}
    >
      <ImagePlus className="h-4 w-4" aria-hidden="true" />
      {label}
      <input
        ref={input}
        type="file"
        accept={IMAGE_TYPES.join(',')}
        className="sr-only"
        disabled={disabled}
        onChange={(ev) => {
          const f = ev.target.files?.[0];
          if (f) onFile(f);
          if (input.current) input.current.value = '';
        }}
      />
    </label>
  );
}
