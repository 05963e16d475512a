import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { MESSAGES } from '@shared/accounts';
import { ApiError } from '@web/lib/api';
import { paths } from '@web/lib/paths';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Field } from '@web/components/ui/field';
import { requestPasswordReset } from './api/sign-in';
import { AuthCard } from './auth-card';

export default function SendPasswordResetPage() {
  const { register, handleSubmit, formState } = useForm<{ email: string }>();
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const onSubmit = handleSubmit(async ({ email }) => {
    setError(null);
    if (!email.trim()) return setError(MESSAGES.emptyFields);
    try {
      setSent((await requestPasswordReset(email.trim())).message);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Could not send the link');
    }
  });
  return (
    <AuthCard title="Reset your password" subtitle="Enter the email of your account and we will send you a link to choose a new password.">
      {sent ? (
        <Alert tone="success" title="Check your email">
          {sent}
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {error && <Alert tone="error">{error}</Alert>}
          <Field label="Email" type="email" autoComplete="email" {...register('email')} />
          <Button type="submit" className="w-full" loading={formState.isSubmitting}>
            Send reset link
          </Button>
        </form>
      )}
      <Link to={paths.login()} className="mt-4 block text-center text-sm font-semibold text-brand-700 hover:underline">
        Back to log in
      </Link>
    </AuthCard>
  );
}
