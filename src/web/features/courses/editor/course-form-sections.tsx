import { useEffect, type MouseEvent } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { MapPin, Monitor } from 'lucide-react';
import { CATEGORIES, CURRENCIES, LEVELS, REFUND_POLICIES, formatPrice } from '@shared/courses';
import type { CourseView } from '@shared/courses-schemas';
import { MIN_INSTALLMENT_CENTS, installmentTerms, maxInstallmentsFor } from '@shared/payments';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Field } from '@web/components/ui/field';
import { FieldGroup, FormSection, Select, TextArea } from '@web/components/ui/inputs';
import { ProgressBar } from '@web/components/ui/upload';
import { useViewer } from '@web/lib/viewer';
import { CURRENCY_SYMBOL, LANGUAGES, WAITLIST_HOLDS, priceCents, type CourseFormValues } from './course-form-values';
import { holdWords } from '@web/lib/format';
import { DescriptionEditor } from './description-editor';
import { RadioCard } from './radio-card';

/**
 * The sections of the course editor (course-form.tsx), one component each: a section reads
 * the fields it shows and re-checks the fields whose rules depend on them.
 */
type Form = UseFormReturn<CourseFormValues>;

export function BasicsSection({ form }: { form: Form }) {
  const { register, control } = form;
  const e = form.formState.errors;
  const [title, summary] = useWatch({ control, name: ['title', 'summary'] });
  return (
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
          placeholder="e.g. Adults new to coding"
          hint="Optional: who it is for."
          error={e.audience?.message}
          {...register('audience')}
        />
      </div>
      <AgesFields form={form} />
    </FormSection>
  );
}

/** Ages from / to (optional): parents see "Ages 8-12", and a learner outside it is not enrolled (ADR 0074). */
function AgesFields({ form }: { form: Form }) {
  const { register, control, trigger } = form;
  const e = form.formState.errors;
  const minAge = useWatch({ control, name: 'minAge' });
  // "To" is checked against "from": an error shown there is checked again when "from" changes.
  const hasMaxError = !!e.maxAge;
  useEffect(() => {
    if (hasMaxError) void trigger('maxAge');
  }, [minAge]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <FieldGroup legend="Ages (optional)" hint="For courses meant for an age group, in whole years. Leave empty for everyone.">
      <div className="grid max-w-sm grid-cols-2 gap-3">
        <Field label="From" inputMode="numeric" placeholder="e.g. 8" error={e.minAge?.message} {...register('minAge')} />
        <Field label="To" inputMode="numeric" placeholder="e.g. 12" error={e.maxAge?.message} {...register('maxAge')} />
      </div>
    </FieldGroup>
  );
}

export function DescriptionSection({ form }: { form: Form }) {
  const { register, control, setValue, getValues } = form;
  const e = form.formState.errors;
  const description = useWatch({ control, name: 'description' });
  return (
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
  );
}

export function FormatSection({ form }: { form: Form }) {
  const { register, control, trigger } = form;
  const e = form.formState.errors;
  const format = useWatch({ control, name: 'format' });
  // The city's rule depends on the format: an error shown is checked again when it changes.
  const hasCityError = !!e.city;
  useEffect(() => {
    if (hasCityError) void trigger('city');
  }, [format]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
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
  );
}

export function PriceSection({ form }: { form: Form }) {
  const me = useViewer();
  const { register, control, trigger } = form;
  const e = form.formState.errors;
  const [price, currency, plan, installments, hold] = useWatch({
    control,
    name: ['price', 'currency', 'plan', 'installments', 'waitlistHold'],
  });
  const cents = priceCents(price);
  const paid = cents > 0;
  // Each monthly payment is at least the minimum: a $45 course offers 2, not 24 (decision 0017).
  const maxInstallments = Number.isNaN(cents) ? 0 : maxInstallmentsFor(cents);
  // The installments' rule depends on the price and the plan: an error shown is checked again.
  const hasInstallmentsError = !!e.installments;
  useEffect(() => {
    if (hasInstallmentsError) void trigger('installments');
  }, [price, plan]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
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
          Learners can pay for this course once your payouts are set up (the next onboarding step, coming soon). You can prepare and save it
          now.
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
                  : maxInstallments > 2
                    ? `Spread the price over 2 to ${maxInstallments} months.`
                    : maxInstallments === 2
                      ? 'Spread the price over 2 months.'
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
          <Select
            label="When a seat frees in a full session, hold it for the first on the waitlist for"
            className="mt-4 max-w-md"
            error={e.waitlistHold?.message}
            {...register('waitlistHold')}
          >
            {[...new Set([...WAITLIST_HOLDS, Number(hold) || 1440])]
              .sort((a, b) => a - b)
              .map((m) => (
                <option key={m} value={m}>
                  {holdWords(m)}
                </option>
              ))}
          </Select>
          <p className="mt-1 text-xs text-slate-600">
            They are told at once and take the seat by paying; if they do not, it goes to the next.
          </p>
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
  );
}

/** The sticky bar: where the course stands, the cover's upload progress, save and publish. */
export function SaveBar({
  course,
  upload,
  submitting,
  intent,
  onPublish,
}: {
  course?: CourseView;
  upload: number | null;
  submitting: boolean;
  intent: 'draft' | 'publish' | null;
  onPublish: (ev: MouseEvent) => void;
}) {
  const published = course?.status === 'published';
  return (
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
            <Button type="button" loading={submitting && intent === 'publish'} disabled={submitting} onClick={onPublish}>
              {course?.status === 'archived' ? 'Publish again' : 'Publish course'}
            </Button>
          </>
        )}
      </div>
    </div>
  );
}
