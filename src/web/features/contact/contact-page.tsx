import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2 } from 'lucide-react';
import { CONTACT_TOPICS } from '@shared/contact';
import { contactInput } from '@shared/contact-schemas';
import { ApiError } from '@web/lib/api';
import { useMe } from '@web/lib/viewer';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Field } from '@web/components/ui/field';
import { Select, TextArea } from '@web/components/ui/inputs';
import { LoadError } from '@web/components/ui/load-error';
import { Skeleton } from '@web/components/ui/skeleton';
import { contactFormQuery, sendContactMessage } from './api/contact';

type Values = { name: string; email: string; topic: string; message: string; website: string };
type Errors = Partial<Record<keyof Values | 'form', string>>;
const MAX_MESSAGE = 5000;

/** The fields' messages as the server gives them (the same shared schema, checked here first). */
function check(values: Values, formToken: string): Errors {
  const parsed = contactInput.safeParse({ ...values, formToken });
  if (parsed.success) return {};
  const errors: Errors = {};
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? 'form') as keyof Errors;
    errors[key] ??= issue.message;
  }
  return errors;
}

function ContactForm({ formToken, onSent }: { formToken: string; onSent: (email: string) => void }) {
  const { data: me } = useMe();
  const [values, setValues] = useState<Values>({
    name: me ? `${me.firstName} ${me.lastName}` : '',
    email: me?.email ?? '',
    topic: '',
    message: '',
    website: '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);
  const set = (key: keyof Values) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [key]: e.target.value }));
    setErrors((er) => ({ ...er, [key]: undefined }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = check(values, formToken);
    if (Object.keys(found).length) return setErrors(found);
    setSending(true);
    try {
      await sendContactMessage({ ...values, topic: values.topic as never, formToken });
      onSent(values.email.trim());
    } catch (err) {
      if (err instanceof ApiError) {
        const { formToken: tokenProblem, ...fields } = err.fields;
        setErrors({ ...fields, form: tokenProblem ?? (Object.keys(fields).length ? undefined : err.message) });
      } else setErrors({ form: 'Your message could not be sent. Check your connection and try again.' });
    } finally {
      setSending(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-label="Contact form">
      {errors.form && <Alert tone="error">{errors.form}</Alert>}
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Your name" autoComplete="name" value={values.name} onChange={set('name')} error={errors.name} maxLength={100} />
        <Field label="Email" type="email" autoComplete="email" value={values.email} onChange={set('email')} error={errors.email} />
      </div>
      <Select label="Topic" value={values.topic} onChange={set('topic')} error={errors.topic}>
        <option value="">Choose a topic…</option>
        {CONTACT_TOPICS.map((t) => (
          <option key={t.id} value={t.id}>
            {t.label}
          </option>
        ))}
      </Select>
      <TextArea
        label="Message"
        rows={7}
        value={values.message}
        onChange={set('message')}
        error={errors.message}
        maxLength={MAX_MESSAGE}
        count={values.message.length}
        hint="For a course or a payment, name the course and the date so we can find it quickly."
      />
      {/* A field people never see: bots fill it, and their message is dropped. */}
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label htmlFor="contact-website">Leave this field empty</label>
        <input
          id="contact-website"
          name="website"
          type="text"
          tabIndex={-1}
          autoComplete="off"
          value={values.website}
          onChange={set('website')}
        />
      </div>
      <Button type="submit" loading={sending}>
        Send message
      </Button>
    </form>
  );
}

/** /contact: a form that reaches the team, with or without a session. */
export default function ContactPage() {
  const form = useQuery(contactFormQuery);
  const [sentTo, setSentTo] = useState<string | null>(null);
  return (
    <div className="mx-auto max-w-3xl px-4 py-14">
      <h1 className="text-4xl font-extrabold tracking-tight text-slate-900">Contact us</h1>
      <p className="mt-3 text-lg text-slate-700">
        Questions, feedback or a problem with a course? A person reads every message and answers within one working day.
      </p>
      <div className="mt-10 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        {sentTo ? (
          <div role="status" className="text-center">
            <CheckCircle2 className="mx-auto h-12 w-12 text-green-600" aria-hidden="true" />
            <h2 className="mt-3 text-xl font-semibold text-slate-900">Thank you, your message is on its way</h2>
            <p className="mt-2 text-slate-700">We sent a confirmation to {sentTo}. We will answer you there.</p>
          </div>
        ) : form.isPending ? (
          <div className="space-y-4" role="status" aria-label="Loading the form">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-32 w-full" />
          </div>
        ) : form.isError ? (
          <LoadError title="Could not load the contact form" error={form.error} onRetry={() => form.refetch()} retrying={form.isFetching} />
        ) : (
          <ContactForm formToken={form.data.formToken} onSent={setSentTo} />
        )}
      </div>
    </div>
  );
}
