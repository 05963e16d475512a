import { useState, type FormEvent } from 'react';
import {
  AGE_HINT,
  LEARNER_NAME_MAX,
  LEARNER_NOTES_MAX,
  learnerProfileBody,
  type LearnerProfileBody,
  type LearnerProfileView,
} from '@shared/learner-profile-schemas';
import { ApiError } from '@web/lib/api';
import { Button } from '@web/components/ui/button';
import { Field } from '@web/components/ui/field';
import { TextArea } from '@web/components/ui/inputs';

type Fields = Partial<Record<keyof LearnerProfileBody, string>>;

/**
 * A learner's first name, age ("8" or "8-10") and notes for the educators: adding one, or
 * editing one (`learner`). Checked with the server's own schema before it is sent; the
 * server's field errors show under the same fields.
 */
export function LearnerForm({
  learner,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  learner?: LearnerProfileView;
  submitLabel: string;
  onSubmit: (body: LearnerProfileBody) => Promise<void>;
  onCancel: () => void;
}) {
  const [values, setValues] = useState({ firstName: learner?.firstName ?? '', age: learner?.age ?? '', notes: learner?.notes ?? '' });
  const [errors, setErrors] = useState<Fields>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (name: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFailure(null);
    const checked = learnerProfileBody.safeParse(values);
    if (!checked.success) {
      const found: Fields = {};
      for (const issue of checked.error.issues) {
        const name = issue.path[0] as keyof Fields;
        found[name] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await onSubmit({ firstName: values.firstName, age: values.age, notes: values.notes });
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fields).length) setErrors(err.fields as Fields);
      setFailure(err instanceof ApiError ? err.message : 'Could not save. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      noValidate
      onSubmit={(e) => void submit(e)}
      className="space-y-4"
      aria-label={learner ? `Edit ${learner.firstName}` : 'New learner'}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="First name"
          autoComplete="off"
          maxLength={LEARNER_NAME_MAX}
          value={values.firstName}
          onChange={set('firstName')}
          error={errors.firstName}
        />
        <Field
          label="Age"
          inputMode="numeric"
          autoComplete="off"
          placeholder="e.g. 8 or 8-10"
          hint={`${AGE_HINT}. It grows by a year every year.`}
          value={values.age}
          onChange={set('age')}
          error={errors.age}
        />
      </div>
      <TextArea
        label="Notes for the educator (optional)"
        rows={3}
        maxLength={LEARNER_NOTES_MAX}
        count={values.notes.length}
        hint="Allergies, how they learn best… Only the educators of their classes see it."
        value={values.notes}
        onChange={set('notes')}
        error={errors.notes}
      />
      {failure && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {failure}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={busy}>
          {submitLabel}
        </Button>
        <Button type="button" variant="secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
