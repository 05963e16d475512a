import { useState, type FormEvent, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { CurrentUser } from '@shared/accounts';
import { ApiError } from '@web/lib/api';
import { meQuery } from '@web/lib/viewer';
import { paths } from '@web/lib/paths';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { Field } from '@web/components/ui/field';
import { changeEmail, changePassword, deleteAccount } from './api/account-settings';
import { confirmWithCode } from './api/two-factor';
import { StepUpForm } from './two-factor-card';

/**
 * Settings: the password, the email address and deleting the account. Each asks for the
 * current password; with two-factor on, a code too when the session's last one is old.
 */
type Outcome = { tone: 'success' | 'error'; text: string } | null;

/** Runs a change; a "second factor required" answer asks for a code, then runs it again. */
function useGuardedAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [retry, setRetry] = useState<(() => Promise<void>) | null>(null);
  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await action();
      setRetry(null);
    } catch (err) {
      const e = err instanceof ApiError ? err : new ApiError(500, 'Something went wrong. Please try again.', 'error');
      if (e.code === 'second_factor_required') setRetry(() => action);
      setError(e);
    } finally {
      setBusy(false);
    }
  }
  const stepUp = retry && (
    <div className="mb-4">
      <StepUpForm
        busy={busy}
        error={error}
        onCancel={() => {
          setRetry(null);
          setError(null);
        }}
        onCode={(code) =>
          void run(async () => {
            await confirmWithCode(code);
            await retry();
          })
        }
      />
    </div>
  );
  return { busy, error: retry ? null : error, run, stepUp, clear: () => setError(null) };
}

function Section({ title, text, children }: { title: string; text: ReactNode; children: ReactNode }) {
  const id = title.toLowerCase().replace(/\W+/g, '-');
  return (
    <Card>
      <section aria-labelledby={id}>
        <h2 id={id} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        <div className="mb-4 text-sm text-slate-600">{text}</div>
        {children}
      </section>
    </Card>
  );
}

const field = (form: HTMLFormElement, name: string) => String(new FormData(form).get(name) ?? '');

export function PasswordCard() {
  const { busy, error, run, stepUp } = useGuardedAction();
  const [done, setDone] = useState<Outcome>(null);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    setDone(null);
    void run(async () => {
      const { message } = await changePassword({
        currentPassword: field(form, 'currentPassword'),
        newPassword: field(form, 'newPassword'),
      });
      form.reset();
      setDone({ tone: 'success', text: message });
    });
  };
  return (
    <Section title="Password" text="Change the password you log in with. Your other devices are signed out.">
      {stepUp}
      <form noValidate onSubmit={onSubmit} onInput={() => setDone(null)} className="space-y-4">
        {error && !error.fields.currentPassword && !error.fields.newPassword && <Alert tone="error">{error.message}</Alert>}
        {done && <Alert tone={done.tone}>{done.text}</Alert>}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Current password"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            error={error?.fields.currentPassword}
          />
          <Field
            label="New password"
            name="newPassword"
            type="password"
            autoComplete="new-password"
            hint="At least 8 characters, not a common one."
            error={error?.fields.newPassword}
          />
        </div>
        <div className="flex justify-end">
          <Button type="submit" loading={busy}>
            Change password
          </Button>
        </div>
      </form>
    </Section>
  );
}

export function EmailCard({ user }: { user: CurrentUser }) {
  const { busy, error, run, stepUp } = useGuardedAction();
  const [sent, setSent] = useState<string | null>(null);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    setSent(null);
    void run(async () => {
      const { message } = await changeEmail({ newEmail: field(form, 'newEmail').trim(), password: field(form, 'password') });
      form.reset();
      setSent(message);
    });
  };
  return (
    <Section
      title="Email address"
      text={
        <>
          You log in with <strong className="font-semibold text-slate-800">{user.email}</strong>. A new address takes effect once you open
          the link we send to it; we tell your current address too.
        </>
      }
    >
      {stepUp}
      <form noValidate onSubmit={onSubmit} onInput={() => setSent(null)} className="space-y-4">
        {error && !error.fields.newEmail && !error.fields.password && <Alert tone="error">{error.message}</Alert>}
        {sent && (
          <Alert tone="success" title="Check your new inbox">
            {sent}
          </Alert>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="New email address" name="newEmail" type="email" autoComplete="email" error={error?.fields.newEmail} />
          <Field label="Current password" name="password" type="password" autoComplete="current-password" error={error?.fields.password} />
        </div>
        <div className="flex justify-end">
          <Button type="submit" loading={busy}>
            Send confirmation link
          </Button>
        </div>
      </form>
    </Section>
  );
}

export function DeleteAccountCard({ user }: { user: CurrentUser }) {
  const { busy, error, run, stepUp } = useGuardedAction();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    void run(async () => {
      await deleteAccount({ password: field(form, 'password'), confirmEmail: field(form, 'confirmEmail') });
      queryClient.clear();
      queryClient.setQueryData(meQuery.queryKey, null);
      window.location.assign(paths.home);
    });
  };
  return (
    <Section
      title="Delete your account"
      text={
        <>
          <p>Deleting your account cannot be undone. What happens:</p>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            <li>
              <strong className="font-semibold text-slate-800">Erased:</strong> your name, email, city, picture, password, linked Google
              account, two-factor keys, signed-in devices and, if you teach, your educator profile. Your published courses leave the
              catalogue. Your reviews stay, signed &ldquo;Deleted user&rdquo;.
            </li>
            <li>
              <strong className="font-semibold text-slate-800">Messages:</strong> the text of every message you sent is removed. The people
              you wrote to keep their conversations and their own messages; yours show as &ldquo;Message removed&rdquo; from &ldquo;Deleted
              user&rdquo;, who can no longer be messaged. Your blocks and the reports you filed are erased.
            </li>
            <li>
              <strong className="font-semibold text-slate-800">Clubs:</strong> you leave every club and your answers to events are removed
              (waitlisted members move up). A club you own goes to its longest-standing organiser; with no organiser it is deleted, its
              upcoming events cancelled and their attendees told.
            </li>
            <li>
              <strong className="font-semibold text-slate-800">Courses:</strong> you leave the sessions you are enrolled or waitlisted in
              that have not ended (a refund as the course&rsquo;s refund policy gives, your seat to the next learner), and your calendar
              feed link stops working.
            </li>
            <li>
              <strong className="font-semibold text-slate-800">Also erased:</strong> your notifications, your notification settings, emails
              waiting to be sent to you, and the messages you sent through the contact form.
            </li>
            <li>
              <strong className="font-semibold text-slate-800">Kept:</strong> the records of payments, refunds and payouts (amounts, dates,
              what was bought), as payments and tax law require us to keep them (up to 10 years), under a pseudonym instead of your name.
            </li>
            <li>Running installment plans or an Educator Pro plan must end first, so that no card is charged afterwards.</li>
          </ul>
        </>
      }
    >
      {!open ? (
        <Button type="button" variant="danger" onClick={() => setOpen(true)}>
          Delete my account…
        </Button>
      ) : (
        <>
          {stepUp}
          <form noValidate onSubmit={onSubmit} className="space-y-4 rounded-xl border border-red-200 bg-red-50/50 p-4">
            {error && !error.fields.confirmEmail && !error.fields.password && <Alert tone="error">{error.message}</Alert>}
            <div className="grid gap-4 sm:grid-cols-2">
              <Field
                label="Type your email to confirm"
                name="confirmEmail"
                type="email"
                autoComplete="off"
                hint={user.email}
                error={error?.fields.confirmEmail}
              />
              <Field
                label="Current password"
                name="password"
                type="password"
                autoComplete="current-password"
                error={error?.fields.password}
              />
            </div>
            <div className="flex flex-wrap justify-end gap-2">
              <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
                Keep my account
              </Button>
              <Button type="submit" variant="danger" loading={busy}>
                Delete my account for good
              </Button>
            </div>
          </form>
        </>
      )}
    </Section>
  );
}
