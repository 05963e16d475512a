import { useEffect, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import { Camera } from 'lucide-react';
import { AVATAR_MAX_BYTES, MESSAGES, type CurrentUser } from '@shared/accounts';
import { ApiError } from '@web/lib/api';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { Field } from '@web/components/ui/field';
import { Spinner } from '@web/components/ui/spinner';
import { TimeZoneSelect } from '@web/components/ui/time-zone-select';
import { viewerTimeZone } from '@web/lib/format';
import { meQuery } from '@web/lib/viewer';
import { updateProfile, uploadAvatar } from './api/profile';

const ACCEPTED = ['image/png', 'image/jpeg', 'image/webp'];

export function AvatarEditor({ user }: { user: CurrentUser }) {
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  useEffect(() => {
    if (message?.tone !== 'success') return;
    const t = setTimeout(() => setMessage((m) => (m?.tone === 'success' ? null : m)), 6000);
    return () => clearTimeout(t);
  }, [message]);

  async function onFile(file: File | undefined) {
    if (!file) return;
    setMessage(null);
    if (!ACCEPTED.includes(file.type)) return setMessage({ tone: 'error', text: 'The picture must be a PNG, JPEG or WebP image' });
    if (file.size > AVATAR_MAX_BYTES) return setMessage({ tone: 'error', text: 'The picture is larger than 5 MB' });
    setBusy(true);
    try {
      const me = await uploadAvatar(user.id, file);
      queryClient.setQueryData(meQuery.queryKey, me);
      setMessage({ tone: 'success', text: 'Your picture has been updated' });
    } catch (err) {
      setMessage({ tone: 'error', text: err instanceof ApiError ? err.message : 'Upload failed' });
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-5">
      <div className="relative">
        <img
          src={user.profileImage}
          alt="Your avatar"
          className="h-24 w-24 rounded-full border border-slate-200 object-cover"
          width={96}
          height={96}
        />
        {busy && (
          <div className="absolute inset-0 flex items-center justify-center rounded-full bg-white/70 text-brand-700">
            <Spinner className="h-6 w-6" label="Uploading…" />
          </div>
        )}
      </div>
      <div className="space-y-2">
        <label className="inline-flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 hover:bg-slate-50 focus-within:ring-2 focus-within:ring-brand-500">
          <Camera className="h-4 w-4" aria-hidden="true" />
          Change picture
          <input
            ref={input}
            type="file"
            accept={ACCEPTED.join(',')}
            className="sr-only"
            disabled={busy}
            onChange={(e) => onFile(e.target.files?.[0])}
          />
        </label>
        <p className="text-xs text-slate-600">PNG, JPEG or WebP, up to 5 MB.</p>
        {message && <Alert tone={message.tone}>{message.text}</Alert>}
      </div>
    </div>
  );
}

export function ProfileForm({ user }: { user: CurrentUser }) {
  const queryClient = useQueryClient();
  const zone = user.timeZone ?? viewerTimeZone();
  const { register, handleSubmit, formState, reset, control } = useForm({
    defaultValues: { firstName: user.firstName, lastName: user.lastName, city: user.city ?? '', timeZone: zone },
  });
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; text: string; fields?: Record<string, string> } | null>(null);
  // "Saved" describes the last save: it goes once the form is edited again, or after a while.
  const [wasDirty, setWasDirty] = useState(formState.isDirty);
  if (formState.isDirty !== wasDirty) {
    setWasDirty(formState.isDirty);
    if (formState.isDirty && status?.tone === 'success') setStatus(null);
  }
  useEffect(() => {
    if (status?.tone !== 'success') return;
    const t = setTimeout(() => setStatus((s) => (s?.tone === 'success' ? null : s)), 6000);
    return () => clearTimeout(t);
  }, [status]);

  const onSubmit = handleSubmit(async (values) => {
    setStatus(null);
    const body = {
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      city: values.city.trim(),
      timeZone: values.timeZone,
    };
    if (!body.firstName || !body.lastName) {
      return setStatus({
        tone: 'error',
        text: MESSAGES.emptyFields,
        fields: {
          ...(body.firstName ? {} : { firstName: 'First name is required' }),
          ...(body.lastName ? {} : { lastName: 'Last name is required' }),
        },
      });
    }
    try {
      const me = await updateProfile(user.id, body);
      queryClient.setQueryData(meQuery.queryKey, me);
      reset({ firstName: me.firstName, lastName: me.lastName, city: me.city ?? '', timeZone: me.timeZone ?? values.timeZone });
      setStatus({ tone: 'success', text: 'Your profile has been saved' });
    } catch (err) {
      setStatus({
        tone: 'error',
        text: err instanceof ApiError ? err.message : MESSAGES.locationError,
        fields: err instanceof ApiError ? err.fields : undefined,
      });
    }
  });

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Profile</h2>
      <p className="mb-5 text-sm text-slate-600">How other learners and educators see you.</p>
      <AvatarEditor user={user} />
      <form onSubmit={onSubmit} noValidate className="mt-6 space-y-4">
        {status && <Alert tone={status.tone}>{status.text}</Alert>}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="First name" autoComplete="given-name" error={status?.fields?.firstName} {...register('firstName')} />
          <Field label="Last name" autoComplete="family-name" error={status?.fields?.lastName} {...register('lastName')} />
        </div>
        <Field
          label="City"
          autoComplete="address-level2"
          hint="Used to show courses and clubs near you."
          error={status?.fields?.city}
          {...register('city')}
        />
        <Controller
          control={control}
          name="timeZone"
          render={({ field }) => (
            <TimeZoneSelect
              label="Time zone"
              name={field.name}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              hint="Your daily digest goes at the end of your day in this zone."
              error={status?.fields?.timeZone}
            />
          )}
        />
        <Field label="Email" value={user.email} readOnly disabled />
        <div className="flex justify-end">
          <Button type="submit" loading={formState.isSubmitting} disabled={!formState.isDirty}>
            Save changes
          </Button>
        </div>
      </form>
    </Card>
  );
}
