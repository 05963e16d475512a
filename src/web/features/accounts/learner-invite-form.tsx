import { useState, type FormEvent } from 'react';
import { learnerInviteBody } from '@shared/learner-profile-schemas';
import { ApiError } from '@web/lib/api';
import { Button } from '@web/components/ui/button';
import { Field } from '@web/components/ui/field';
import { inviteLearner } from './api/learner-profiles';

/**
 * Settings, Learners: invite one learner to an account of their own (ADR 0074). A one-time
 * link goes to the address; when they sign up with it, their classes move to their account.
 */
export function LearnerInviteForm({
  learner,
  onDone,
  onCancel,
}: {
  learner: { id: string; firstName: string };
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const checked = learnerInviteBody.safeParse({ email: email.trim() });
    if (!checked.success) return setError(checked.error.issues[0]!.message);
    setBusy(true);
    setError(null);
    try {
      onDone((await inviteLearner(learner.id, { email: email.trim() })).message);
    } catch (err) {
      setError(err instanceof ApiError ? (err.fields.email ?? err.message) : 'Could not send the invitation. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      noValidate
      onSubmit={(e) => void submit(e)}
      className="mt-3 space-y-3 rounded-xl bg-slate-50 p-4"
      aria-label={`Own account for ${learner.firstName}`}
    >
      <p className="text-sm text-slate-700">
        Old enough to manage their own classes? We email {learner.firstName} a link to create an account; their classes and history move to
        it, and {learner.firstName} leaves your learners.
      </p>
      <Field
        label={`${learner.firstName}’s email`}
        type="email"
        autoComplete="off"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={error ?? undefined}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={busy}>
          Send invitation
        </Button>
        <Button type="button" variant="secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
