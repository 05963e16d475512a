import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { passwordWeaknesses } from '@shared/accounts';
import { ApiError } from '@web/lib/api';
import { paths } from '@web/lib/paths';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Field } from '@web/components/ui/field';
import { resetPassword } from './api/sign-in';
import { AuthCard } from './auth-card';

export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const { register, handleSubmit, formState } = useForm<{ password: string; confirm: string }>();
  const [error, setError] = useState<{ message: string; fields: Record<string, string> } | null>(null);

  if (!token || params.get('error')) {
    return (
      <AuthCard title="This link did not work">
        <Alert tone="error">This reset link is invalid or has expired. Ask for a new one.</Alert>
        <Link to={paths.sendPasswordReset} className="mt-4 block text-center text-sm font-semibold text-brand-700 hover:underline">
          Send a new link
        </Link>
      </AuthCard>
    );
  }

  const onSubmit = handleSubmit(async ({ password, confirm }) => {
    const pw = password.trim();
    const reasons = passwordWeaknesses(pw);
    if (reasons.length) return setError({ message: 'This password is too weak', fields: { password: reasons.join('. ') } });
    if (pw !== confirm.trim())
      return setError({ message: 'The passwords do not match', fields: { confirm: 'Type the same password twice' } });
    try {
      await resetPassword(token, pw);
      navigate(paths.login(undefined, 'password-reset'), { replace: true });
    } catch (err) {
      setError(
        err instanceof ApiError ? { message: err.message, fields: err.fields } : { message: 'Could not change the password', fields: {} },
      );
    }
  });

  return (
    <AuthCard title="Choose a new password" subtitle="Every other device signed in to your account will be signed out.">
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {error && <Alert tone="error">{error.message}</Alert>}
        <Field label="New password" type="password" autoComplete="new-password" error={error?.fields.password} {...register('password')} />
        <Field
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          error={error?.fields.confirm}
          {...register('confirm')}
        />
        <Button type="submit" className="w-full" loading={formState.isSubmitting}>
          Change password
        </Button>
      </form>
    </AuthCard>
  );
}
