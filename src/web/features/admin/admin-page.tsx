import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminUserRow } from '@shared/admin-schemas';
import { ApiError } from '@web/lib/api';
import NotFoundPage from '@web/components/not-found-page';
import { Alert } from '@web/components/ui/alert';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card, PageHeader } from '@web/components/ui/card';
import { ConfirmDialog } from '@web/components/ui/dialog';
import { Field } from '@web/components/ui/field';
import { Select } from '@web/components/ui/inputs';
import { LoadError } from '@web/components/ui/load-error';
import { Skeleton } from '@web/components/ui/skeleton';
import { Spinner } from '@web/components/ui/spinner';
import {
  adminMeQuery,
  auditQuery,
  messageReportsQuery,
  banUser,
  deleteUser,
  inviteUser,
  jobsQuery,
  PAGE_SIZE,
  refundsQuery,
  resetTwoFactor,
  retryJob,
  setRole,
  unbanUser,
  userQuery,
  usersQuery,
  type UserFilter,
} from './api';
import { ContactMessagesSection } from './contact-messages';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—');
const money = (cents: number, currency: string) =>
  new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
const errorText = (err: unknown) => (err instanceof ApiError ? err.message : 'Something went wrong');

type Tab = 'users' | 'jobs' | 'refunds' | 'contact' | 'reports' | 'audit';
const TABS: [Tab, string][] = [
  ['users', 'Users'],
  ['jobs', 'Failed jobs'],
  ['refunds', 'Refunds owed'],
  ['contact', 'Contact messages'],
  ['reports', 'Reported messages'],
  ['audit', 'Audit log'],
];

/** /admin: admins only; everyone else sees the not-found page (the route is not advertised). */
export default function AdminPage() {
  const me = useQuery(adminMeQuery);
  // ?section=contact (the link in a contact message's email) opens that section.
  const [search] = useSearchParams();
  const [tab, setTab] = useState<Tab>(() => TABS.find(([key]) => key === search.get('section'))?.[0] ?? 'users');
  if (me.isPending) return <Spinner label="Loading…" />;
  if (me.isError)
    return <LoadError title="Could not load the admin console" error={me.error} onRetry={() => me.refetch()} retrying={me.isFetching} />;
  if (!me.data.admin) return <NotFoundPage />;
  return (
    <div className="space-y-6">
      <PageHeader title="Admin" subtitle="Users, background jobs, refunds owed, contact messages and the audit log of admin actions." />
      <nav aria-label="Admin sections" className="flex flex-wrap gap-2">
        {TABS.map(([key, label]) => (
          <Button key={key} variant={tab === key ? 'primary' : 'secondary'} aria-pressed={tab === key} onClick={() => setTab(key)}>
            {label}
          </Button>
        ))}
      </nav>
      {tab === 'users' && <UsersSection />}
      {tab === 'jobs' && <JobsSection />}
      {tab === 'refunds' && <RefundsSection />}
      {tab === 'contact' && <ContactMessagesSection />}
      {tab === 'reports' && <ReportsSection />}
      {tab === 'audit' && <AuditSection />}
    </div>
  );
}

function TableSkeleton() {
  return (
    <div className="space-y-2" aria-label="Loading" role="status">
      {[0, 1, 2, 3].map((i) => (
        <Skeleton key={i} className="h-8 w-full" />
      ))}
    </div>
  );
}

function UsersSection() {
  const [draft, setDraft] = useState({ q: '', role: '' as UserFilter['role'], banned: '' as UserFilter['banned'] });
  const [filter, setFilter] = useState<UserFilter>({ q: '', role: '', banned: '', page: 1 });
  const [selected, setSelected] = useState<string | null>(null);
  const users = useQuery({ ...usersQuery(filter), placeholderData: keepPreviousData });
  const pages = users.data ? Math.max(1, Math.ceil(users.data.total / PAGE_SIZE)) : 1;

  function search(e: FormEvent) {
    e.preventDefault();
    setFilter({ ...draft, page: 1 });
  }

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <Card>
        <form
          onSubmit={search}
          className="mb-4 grid gap-3 sm:grid-cols-[1fr_auto_auto_auto] sm:items-end"
          role="search"
          aria-label="Search users"
        >
          <Field label="Name or email" value={draft.q} maxLength={200} onChange={(e) => setDraft({ ...draft, q: e.target.value })} />
          <Select label="Role" value={draft.role} onChange={(e) => setDraft({ ...draft, role: e.target.value as UserFilter['role'] })}>
            <option value="">Any</option>
            <option value="user">User</option>
            <option value="admin">Admin</option>
          </Select>
          <Select
            label="Status"
            value={draft.banned}
            onChange={(e) => setDraft({ ...draft, banned: e.target.value as UserFilter['banned'] })}
          >
            <option value="">Any</option>
            <option value="false">Active</option>
            <option value="true">Banned</option>
          </Select>
          <Button type="submit">Search</Button>
        </form>
        {users.isPending && <TableSkeleton />}
        {users.isError && (
          <LoadError title="Could not load users" error={users.error} onRetry={() => users.refetch()} retrying={users.isFetching} />
        )}
        {users.data && users.data.users.length === 0 && (
          <p className="py-6 text-center text-sm text-slate-600">No user matches this search.</p>
        )}
        {users.data && users.data.users.length > 0 && (
          <>
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Users ({users.data.total})</caption>
              <thead className="text-xs uppercase text-slate-600">
                <tr>
                  <th scope="col" className="py-2">
                    Name
                  </th>
                  <th scope="col" className="py-2">
                    Email
                  </th>
                  <th scope="col" className="py-2">
                    Status
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {users.data.users.map((u) => (
                  <tr key={u.id} className={selected === u.id ? 'bg-brand-50' : ''}>
                    <td className="py-2">
                      <button type="button" className="font-medium text-brand-700 hover:underline" onClick={() => setSelected(u.id)}>
                        {u.firstName} {u.lastName}
                      </button>
                    </td>
                    <td className="py-2 break-all text-slate-700">{u.email}</td>
                    <td className="py-2">
                      <UserBadges u={u} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <div className="mt-4 flex items-center justify-between text-sm text-slate-700">
              <span>
                Page {filter.page} of {pages} · {users.data.total} users
              </span>
              <div className="flex gap-2">
                <Button variant="secondary" disabled={filter.page <= 1} onClick={() => setFilter({ ...filter, page: filter.page - 1 })}>
                  Previous
                </Button>
                <Button variant="secondary" disabled={filter.page >= pages} onClick={() => setFilter({ ...filter, page: filter.page + 1 })}>
                  Next
                </Button>
              </div>
            </div>
          </>
        )}
      </Card>
      <div className="space-y-6">
        {selected ? (
          <UserPanel key={selected} id={selected} />
        ) : (
          <Card>
            <p className="text-sm text-slate-600">Choose a user to see their profile, sign-in sessions, enrolments and payments.</p>
          </Card>
        )}
        <InviteForm />
      </div>
    </div>
  );
}

function InviteForm() {
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ email: '', firstName: '', lastName: '' });
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      await inviteUser(form);
      setMessage({ tone: 'success', text: `Invited ${form.email}: they got an email with a link to set their password.` });
      setForm({ email: '', firstName: '', lastName: '' });
      await queryClient.invalidateQueries({ queryKey: ['admin'] });
    } catch (err) {
      setMessage({ tone: 'error', text: errorText(err) });
    } finally {
      setBusy(false);
    }
  }
  return (
    <Card>
      <h2 className="mb-3 text-lg font-semibold text-slate-900">Invite someone</h2>
      <form onSubmit={submit} className="space-y-3" aria-label="Invite someone">
        <Field
          label="Email"
          type="email"
          required
          maxLength={320}
          value={form.email}
          onChange={(e) => setForm({ ...form, email: e.target.value })}
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label="First name"
            required
            maxLength={50}
            value={form.firstName}
            onChange={(e) => setForm({ ...form, firstName: e.target.value })}
          />
          <Field label="Last name" maxLength={50} value={form.lastName} onChange={(e) => setForm({ ...form, lastName: e.target.value })} />
        </div>
        {message && <Alert tone={message.tone}>{message.text}</Alert>}
        <Button type="submit" loading={busy}>
          Send invitation
        </Button>
      </form>
    </Card>
  );
}

function UserBadges({ u }: { u: Pick<AdminUserRow, 'role' | 'banned' | 'verified' | 'twoFactorEnabled'> }) {
  return (
    <span className="flex flex-wrap gap-1">
      {u.role === 'admin' && <Badge tone="brand">Admin</Badge>}
      {u.banned ? <Badge tone="red">Banned</Badge> : <Badge tone="green">Active</Badge>}
      {!u.verified && <Badge tone="amber">Unverified</Badge>}
      {u.twoFactorEnabled && <Badge>2FA</Badge>}
    </span>
  );
}

type Dialog = 'ban' | 'delete' | null;

function UserPanel({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const detail = useQuery(userQuery(id));
  const [dialog, setDialog] = useState<Dialog>(null);
  const [reason, setReason] = useState('');
  const [confirmEmail, setConfirmEmail] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);

  async function run(key: string, action: () => Promise<unknown>, done: string) {
    setBusy(key);
    setMessage(null);
    setDialogError(null);
    try {
      await action();
      setDialog(null);
      setMessage({ tone: 'success', text: done });
      await queryClient.invalidateQueries({ queryKey: ['admin'] });
    } catch (err) {
      if (dialog) setDialogError(errorText(err));
      else setMessage({ tone: 'error', text: errorText(err) });
    } finally {
      setBusy(null);
    }
  }

  if (detail.isPending)
    return (
      <Card>
        <TableSkeleton />
      </Card>
    );
  if (detail.isError)
    return (
      <Card>
        <LoadError title="Could not load this user" error={detail.error} onRetry={() => detail.refetch()} retrying={detail.isFetching} />
      </Card>
    );
  const { user: u, signInSessions, enrolments, payments } = detail.data;
  return (
    <Card className="space-y-5">
      <section aria-label="Profile">
        <h2 className="text-lg font-semibold text-slate-900">
          {u.firstName} {u.lastName}
        </h2>
        <p className="break-all text-sm text-slate-700">{u.email}</p>
        <div className="mt-2">
          <UserBadges u={u} />
        </div>
        <dl className="mt-3 grid grid-cols-2 gap-1 text-sm text-slate-700">
          <dt className="text-slate-600">City</dt>
          <dd>{u.city ?? '—'}</dd>
          <dt className="text-slate-600">Joined</dt>
          <dd>{when(u.createdAt)}</dd>
          <dt className="text-slate-600">Last sign-in</dt>
          <dd>{when(u.lastSignInAt)}</dd>
          {u.banned && (
            <>
              <dt className="text-slate-600">Ban reason</dt>
              <dd>{u.banReason ?? '—'}</dd>
            </>
          )}
        </dl>
      </section>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      <div className="flex flex-wrap gap-2">
        {u.banned ? (
          <Button variant="secondary" loading={busy === 'unban'} onClick={() => run('unban', () => unbanUser(id), 'The ban is lifted.')}>
            Unban
          </Button>
        ) : (
          <Button
            variant="secondary"
            className="text-red-700"
            onClick={() => {
              setReason('');
              setDialogError(null);
              setDialog('ban');
            }}
          >
            Ban…
          </Button>
        )}
        {u.twoFactorEnabled && (
          <Button
            variant="secondary"
            loading={busy === '2fa'}
            onClick={() => run('2fa', () => resetTwoFactor(id), 'Two-factor sign-in is off for this user.')}
          >
            Reset two-factor
          </Button>
        )}
        {u.role === 'admin' ? (
          <Button
            variant="secondary"
            loading={busy === 'role'}
            onClick={() => run('role', () => setRole(id, 'user'), 'No longer an admin.')}
          >
            Revoke admin
          </Button>
        ) : (
          <Button variant="secondary" loading={busy === 'role'} onClick={() => run('role', () => setRole(id, 'admin'), 'Now an admin.')}>
            Make admin
          </Button>
        )}
        <Button
          variant="secondary"
          className="text-red-700"
          onClick={() => {
            setConfirmEmail('');
            setDialogError(null);
            setDialog('delete');
          }}
        >
          Delete…
        </Button>
      </div>

      <section>
        <h3 className="text-sm font-semibold text-slate-900">Sign-in sessions ({signInSessions.length})</h3>
        {signInSessions.length === 0 ? (
          <p className="text-sm text-slate-600">Not signed in anywhere.</p>
        ) : (
          <ul className="text-sm text-slate-700">
            {signInSessions.map((s) => (
              <li key={s.id}>
                {when(s.updatedAt)} · {s.ipAddress ?? 'unknown IP'}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section>
        <h3 className="text-sm font-semibold text-slate-900">Enrolments ({enrolments.length})</h3>
        {enrolments.length === 0 ? (
          <p className="text-sm text-slate-600">No enrolments.</p>
        ) : (
          <ul className="text-sm text-slate-700">
            {enrolments.map((e) => (
              <li key={e.id}>
                <a className="text-brand-700 hover:underline" href={`/course/${e.courseId}`}>
                  Course
                </a>{' '}
                · {e.status} · {when(e.createdAt)}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section>
        <h3 className="text-sm font-semibold text-slate-900">Payments ({payments.length})</h3>
        {payments.length === 0 ? (
          <p className="text-sm text-slate-600">No payments.</p>
        ) : (
          <ul className="text-sm text-slate-700">
            {payments.map((p) => (
              <li key={p.id}>
                {money(p.amountCents, p.currency)} · {p.kind.replace(/_/g, ' ')} · {p.status} · {when(p.createdAt)}
              </li>
            ))}
          </ul>
        )}
      </section>

      <ConfirmDialog
        open={dialog === 'ban'}
        title={`Ban ${u.firstName} ${u.lastName}?`}
        confirmLabel="Ban"
        busy={busy === 'ban'}
        error={dialogError}
        onClose={() => setDialog(null)}
        onConfirm={() => run('ban', () => banUser(id, reason), 'Banned and signed out everywhere.')}
      >
        <p className="mb-3">They are signed out everywhere at once and see the reason when they try to log in.</p>
        <Field label="Reason" value={reason} maxLength={500} required onChange={(e) => setReason(e.target.value)} />
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === 'delete'}
        title={`Delete ${u.firstName} ${u.lastName}?`}
        confirmLabel="Delete for good"
        busy={busy === 'delete'}
        error={dialogError}
        onClose={() => setDialog(null)}
        onConfirm={() => run('delete', () => deleteUser(id, confirmEmail), 'The account is deleted; payment records stay, pseudonymised.')}
      >
        <p className="mb-3">
          Names, email, photo and sign-ins are erased; purchases and payments stay under a pseudonym. This cannot be undone. Type{' '}
          <strong className="break-all">{u.email}</strong> to confirm.
        </p>
        <Field label="Email of the account" value={confirmEmail} autoComplete="off" onChange={(e) => setConfirmEmail(e.target.value)} />
      </ConfirmDialog>
    </Card>
  );
}

function JobsSection() {
  const queryClient = useQueryClient();
  const jobs = useQuery(jobsQuery);
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  async function retry(id: string) {
    setBusy(id);
    try {
      await retryJob(id);
      setMessage({ tone: 'success', text: 'The job is queued again.' });
      await queryClient.invalidateQueries({ queryKey: ['admin'] });
    } catch (err) {
      setMessage({ tone: 'error', text: errorText(err) });
    } finally {
      setBusy(null);
    }
  }
  return (
    <Card>
      <h2 className="mb-3 text-lg font-semibold text-slate-900">Failed jobs</h2>
      {message && (
        <div className="mb-3">
          <Alert tone={message.tone}>{message.text}</Alert>
        </div>
      )}
      {jobs.isPending && <TableSkeleton />}
      {jobs.isError && (
        <LoadError title="Could not load failed jobs" error={jobs.error} onRetry={() => jobs.refetch()} retrying={jobs.isFetching} />
      )}
      {jobs.data?.jobs.length === 0 && <p className="text-sm text-slate-600">No failed jobs: every background job finished.</p>}
      <ul className="divide-y divide-slate-100">
        {jobs.data?.jobs.map((j) => (
          <li key={j.id} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
            <div>
              <p className="font-medium text-slate-900">{j.kind}</p>
              <p className="text-slate-600">
                {j.attempts} attempts · {when(j.createdAt)} · {j.lastError ?? 'no error recorded'}
              </p>
            </div>
            <Button variant="secondary" loading={busy === j.id} onClick={() => retry(j.id)}>
              Retry
            </Button>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function RefundsSection() {
  const refunds = useQuery(refundsQuery);
  return (
    <Card>
      <h2 className="mb-3 text-lg font-semibold text-slate-900">Refunds owed</h2>
      <p className="mb-3 text-sm text-slate-600">Refunds the payment provider has not made yet; they are retried automatically.</p>
      {refunds.isPending && <TableSkeleton />}
      {refunds.isError && (
        <LoadError
          title="Could not load refunds owed"
          error={refunds.error}
          onRetry={() => refunds.refetch()}
          retrying={refunds.isFetching}
        />
      )}
      {refunds.data?.refunds.length === 0 && <p className="text-sm text-slate-600">No refunds owed.</p>}
      <ul className="divide-y divide-slate-100">
        {refunds.data?.refunds.map((r) => (
          <li key={r.purchaseId} className="py-3 text-sm text-slate-700">
            {money(r.amountCents, r.currency)} to user {r.userId} · {r.attempts} attempts{r.lastError ? ` · ${r.lastError}` : ''}
          </li>
        ))}
      </ul>
    </Card>
  );
}

function AuditSection() {
  const audit = useQuery(auditQuery);
  return (
    <Card>
      <h2 className="mb-3 text-lg font-semibold text-slate-900">Audit log</h2>
      <p className="mb-3 text-sm text-slate-600">Every admin action, newest first. Nobody can edit or delete it.</p>
      {audit.isPending && <TableSkeleton />}
      {audit.isError && (
        <LoadError title="Could not load the audit log" error={audit.error} onRetry={() => audit.refetch()} retrying={audit.isFetching} />
      )}
      {audit.data?.entries.length === 0 && <p className="text-sm text-slate-600">No admin actions yet.</p>}
      <ul className="divide-y divide-slate-100">
        {audit.data?.entries.map((a) => (
          <li key={a.id} className="py-2 text-sm text-slate-700">
            <span className="font-medium text-slate-900">{a.action.replace(/_/g, ' ')}</span> by {a.adminEmail ?? a.adminId} ·{' '}
            {when(a.createdAt)}
            {a.targetId && <> · target {a.targetId}</>}
            {a.reason && <> · “{a.reason}”</>}
          </li>
        ))}
      </ul>
    </Card>
  );
}

function ReportsSection() {
  const reports = useQuery(messageReportsQuery);
  return (
    <Card>
      <h2 className="mb-3 text-lg font-semibold text-slate-900">Reported messages</h2>
      <p className="mb-3 text-sm text-slate-600">Mailbox messages members reported, newest first, with the reason they gave.</p>
      {reports.isPending && <TableSkeleton />}
      {reports.isError && (
        <LoadError
          title="Could not load the reports"
          error={reports.error}
          onRetry={() => reports.refetch()}
          retrying={reports.isFetching}
        />
      )}
      {reports.data?.reports.length === 0 && <p className="text-sm text-slate-600">No reported messages.</p>}
      <ul className="divide-y divide-slate-100">
        {reports.data?.reports.map((r) => (
          <li key={r.id} className="py-3 text-sm text-slate-700">
            <p className="whitespace-pre-wrap break-words rounded-lg bg-slate-100 px-3 py-2 text-slate-900">{r.body}</p>
            <p className="mt-1">
              <span className="font-medium text-slate-900">“{r.reason}”</span> · from {r.sender.name} ({r.sender.email}) · reported by{' '}
              {r.reporter.name} ({r.reporter.email}) · {when(r.reportedAt)}
            </p>
          </li>
        ))}
      </ul>
    </Card>
  );
}
