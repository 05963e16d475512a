import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { birthdateProblem, passwordWeaknesses } from '@shared/accounts';
import { ApiError } from '@web/lib/api';
import { paths } from '@web/lib/paths';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Field } from '@web/components/ui/field';
import { Skeleton } from '@web/components/ui/skeleton';
import { acceptLearnerInvite, learnerInviteQuery } from './api/learner-profiles';
import { AuthCard } from './auth-card';

/**
 * The sign-up of a learner invited by their account holder (family accounts, ADR 0074): the
 * address and first name come from the invitation; the classes the holder enrolled them in
 * move to the new account. Then log in.
 */
export function LearnerInviteSignUp({ token }: { token: string }) {
  const navigate = useNavigate();
  const { data, error } = useQuery(learnerInviteQuery(token));
  const [fields, setFields] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (error) {
    return (
      <AuthCard title="This invitation did not work">
        <Alert tone="error">{error instanceof ApiError ? error.message : 'Please try again.'}</Alert>
        <Link to={paths.signup} className="mt-4 block text-center text-sm font-semibold text-brand-700 hover:underline">
          Sign up without an invitation
        </Link>
      </AuthCard>
    );
  }
  if (!data) {
    return (
      <AuthCard title="Create your Agora account">
        <Skeleton className="h-40 w-full" />
      </AuthCard>
    );
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const values = {
      lastName: String(form.get('lastName') ?? '').trim(),
      password: String(form.get('password') ?? ''),
      birthdate: String(form.get('birthdate') ?? ''),
    };
    const found: Record<string, string> = {};
    if (!values.lastName) found.lastName = 'Last name is required';
    const reasons = passwordWeaknesses(values.password, data!.email);
    if (reasons.length) found.password = reasons.join('. ');
    const date = birthdateProblem(values.birthdate);
    if (date) found.birthdate = values.birthdate ? date : 'Birthdate is required';
    setFields(found);
    setFailure(Object.keys(found).length ? 'Check the highlighted fields' : null);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await acceptLearnerInvite({ token, ...values });
      navigate(paths.login(undefined, 'learner-invite'), { replace: true });
    } catch (err) {
      setFields(err instanceof ApiError ? err.fields : {});
      setFailure(err instanceof ApiError ? err.message : 'Could not create the account. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard
      title={`Welcome, ${data.firstName}`}
      subtitle={`${data.holderName} invited you to your own account. Your classes move to it.`}
    >
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4" aria-label="Create your account">
        {failure && <Alert tone="error" title={failure} />}
        <Field label="Email" type="email" value={data.email} readOnly hint="The address the invitation was sent to." />
        <Field label="Last name" name="lastName" autoComplete="family-name" error={fields.lastName} />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters, mixing letters with numbers or symbols."
          error={fields.password}
        />
        <Field
          label="Birthdate"
          name="birthdate"
          type="date"
          autoComplete="bday"
          max={new Date().toISOString().slice(0, 10)}
          error={fields.birthdate}
        />
        <Button type="submit" className="w-full" loading={busy}>
          Create my account
        </Button>
      </form>
    </AuthCard>
  );
}
