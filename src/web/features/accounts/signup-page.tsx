import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { birthdateProblem, EMAIL_RE, MESSAGES, passwordWeaknesses, type SignUpBody } from '@shared/accounts';
import { ApiError } from '@web/lib/api';
import { paths } from '@web/lib/paths';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Field } from '@web/components/ui/field';
import { signUp } from './api/sign-in';
import { AuthCard } from './auth-card';
import { GoogleOption } from './google-button';
import { LearnerInviteSignUp } from './learner-invite-signup';

type Values = Required<SignUpBody>;
const LABELS: Record<keyof Values, string> = {
  email: 'Email',
  firstName: 'First name',
  lastName: 'Last name',
  password: 'Password',
  birthdate: 'Birthdate',
};

/** The same checks the server makes, so most mistakes are shown before a round trip. */
function check(v: Values): ApiError | null {
  const missing = (Object.keys(LABELS) as (keyof Values)[]).filter((k) => !v[k]);
  if (missing.length) {
    return new ApiError(400, MESSAGES.emptyFields, 'empty_fields', Object.fromEntries(missing.map((k) => [k, `${LABELS[k]} is required`])));
  }
  const fields: Record<string, string> = {};
  if (!EMAIL_RE.test(v.email)) fields.email = 'Enter a valid email address';
  const date = birthdateProblem(v.birthdate);
  if (date) fields.birthdate = date;
  const reasons = passwordWeaknesses(v.password, v.email);
  if (reasons.length) fields.password = reasons.join('. ');
  if (Object.keys(fields).length) {
    return new ApiError(
      400,
      reasons.length && Object.keys(fields).length === 1 ? 'This password is too weak' : 'Check the highlighted fields',
      'invalid',
      fields,
      reasons,
    );
  }
  return null;
}

/** Sign-up; with `?invite=` (a learner invited by their account holder, ADR 0074), the invitation's own form. */
export default function SignUpPage() {
  const [params] = useSearchParams();
  const invite = params.get('invite');
  return invite ? <LearnerInviteSignUp token={invite} /> : <PlainSignUp />;
}

function PlainSignUp() {
  const navigate = useNavigate();
  const { register, handleSubmit, formState } = useForm<Values>();
  const [error, setError] = useState<ApiError | null>(null);

  const onSubmit = handleSubmit(async (raw) => {
    const values = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, String(v ?? '').trim()])) as Values;
    const problem = check(values);
    setError(problem);
    if (problem) return;
    try {
      const { email } = await signUp(values);
      navigate(paths.verifyEmail(email));
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(500, MESSAGES.userSaveError, 'error'));
    }
  });

  return (
    <AuthCard
      title="Create your Agora account"
      subtitle={
        <>
          Already have one?{' '}
          <Link className="font-semibold text-brand-700 hover:underline" to={paths.login()}>
            Log in
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {error && (
          <Alert tone="error" title={error.message}>
            {error.reasons.length > 0 && (
              <ul className="list-disc pl-4">
                {error.reasons.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ul>
            )}
          </Alert>
        )}
        <Field label="Email" type="email" autoComplete="email" error={error?.fields.email} {...register('email')} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="First name" autoComplete="given-name" error={error?.fields.firstName} {...register('firstName')} />
          <Field label="Last name" autoComplete="family-name" error={error?.fields.lastName} {...register('lastName')} />
        </div>
        <Field
          label="Password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters, mixing letters with numbers or symbols."
          error={error?.fields.password}
          {...register('password')}
        />
        <Field
          label="Birthdate"
          type="date"
          autoComplete="bday"
          max={new Date().toISOString().slice(0, 10)}
          error={error?.fields.birthdate}
          {...register('birthdate')}
        />
        <Button type="submit" className="w-full" loading={formState.isSubmitting}>
          Sign up
        </Button>
        <p className="text-center text-xs text-slate-600">By signing up you agree to learn kindly and teach honestly.</p>
      </form>
      <GoogleOption />
    </AuthCard>
  );
}
