import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { Field } from '@web/components/ui/field';
import { Select } from '@web/components/ui/inputs';
import { LoadError } from '@web/components/ui/load-error';
import { queryKeys } from '@web/lib/query-keys';
import { inviteUser, PAGE_SIZE, usersQuery, type UserFilter } from './api/users';
import { errorText } from './format';
import { Pager, TableSkeleton, UserBadges } from './parts';
import { UserPanel } from './user-panel';
import { adminHref } from './links';

/** Users: search and filter, the selected user's panel, and inviting someone. */
export function UsersSection() {
  const [draft, setDraft] = useState({ q: '', role: '' as UserFilter['role'], banned: '' as UserFilter['banned'] });
  const [filter, setFilter] = useState<UserFilter>({ q: '', role: '', banned: '', page: 1 });
  // The user open in the panel is in the URL (?user=<id>): a link to them, and back returns to the one before.
  const [params] = useSearchParams();
  const selected = params.get('user');
  const panel = useRef<HTMLDivElement>(null);
  // Below the list on a narrow screen: bring the chosen user's panel into view.
  useEffect(() => {
    if (selected && !window.matchMedia('(min-width: 1024px)').matches) panel.current?.scrollIntoView({ block: 'start' });
  }, [selected]);
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
                      <Link
                        to={adminHref('users', u.id)}
                        className="font-medium text-brand-700 hover:underline"
                        aria-current={selected === u.id ? 'page' : undefined}
                      >
                        {u.firstName} {u.lastName}
                      </Link>
                    </td>
                    <td className="py-2 break-all text-slate-700">{u.email}</td>
                    <td className="py-2">
                      <UserBadges u={u} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager
              page={filter.page}
              pages={pages}
              summary={`${users.data.total} users`}
              onPage={(page) => setFilter({ ...filter, page })}
            />
          </>
        )}
      </Card>
      <div className="scroll-mt-4 space-y-6" ref={panel}>
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
      await queryClient.invalidateQueries({ queryKey: queryKeys.admin });
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
