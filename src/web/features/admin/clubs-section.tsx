import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert } from '@web/components/ui/alert';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { ConfirmDialog } from '@web/components/ui/dialog';
import { Field } from '@web/components/ui/field';
import { LoadError } from '@web/components/ui/load-error';
import { queryKeys } from '@web/lib/query-keys';
import { CLUBS_PAGE_SIZE, clubQuery, clubsQuery, deleteClub, type ClubFilter } from './api/clubs';
import { errorText, when } from './format';
import { adminHref } from './links';
import { Pager, PanelPending, TableSkeleton } from './parts';

/** Clubs: search by name or owner, the chosen club's panel (?club=<id>), and deleting one. */
export function ClubsSection() {
  const [draft, setDraft] = useState('');
  const [filter, setFilter] = useState<ClubFilter>({ q: '', page: 1 });
  const [params] = useSearchParams();
  const selected = params.get('club');
  const [done, setDone] = useState<string | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  // Below the list on a narrow screen: bring the chosen club's panel into view.
  useEffect(() => {
    if (selected && !window.matchMedia('(min-width: 1024px)').matches) panel.current?.scrollIntoView({ block: 'start' });
  }, [selected]);
  const clubs = useQuery({ ...clubsQuery(filter), placeholderData: keepPreviousData });
  const pages = clubs.data ? Math.max(1, Math.ceil(clubs.data.total / CLUBS_PAGE_SIZE)) : 1;

  function search(e: FormEvent) {
    e.preventDefault();
    setFilter({ q: draft, page: 1 });
  }

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <Card>
        <form onSubmit={search} className="mb-4 grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end" role="search" aria-label="Search clubs">
          <Field label="Club name, or the owner's name or email" value={draft} maxLength={200} onChange={(e) => setDraft(e.target.value)} />
          <Button type="submit">Search</Button>
        </form>
        {clubs.isPending && <TableSkeleton />}
        {clubs.isError && (
          <LoadError title="Could not load clubs" error={clubs.error} onRetry={() => clubs.refetch()} retrying={clubs.isFetching} />
        )}
        {clubs.data && clubs.data.clubs.length === 0 && (
          <p className="py-6 text-center text-sm text-slate-600">No club matches this search.</p>
        )}
        {clubs.data && clubs.data.clubs.length > 0 && (
          <>
            <ul className="divide-y divide-slate-100" aria-label={`Clubs (${clubs.data.total})`}>
              {clubs.data.clubs.map((c) => (
                <li key={c.id} className={`-mx-2 rounded-lg px-2 py-2 text-sm ${selected === c.id ? 'bg-brand-50' : ''}`}>
                  <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                    <Link
                      to={adminHref('clubs', c.id)}
                      className="font-medium text-brand-700 hover:underline"
                      aria-current={selected === c.id ? 'page' : undefined}
                    >
                      {c.name}
                    </Link>
                    <span className="text-slate-600">Created {when(c.createdAt)}</span>
                  </div>
                  <p className="text-slate-700">
                    {c.owner ? (
                      <>
                        Owner {c.owner.name} <span className="break-all">({c.owner.email})</span>
                      </>
                    ) : (
                      'No owner'
                    )}{' '}
                    · {c.memberCount} {c.memberCount === 1 ? 'member' : 'members'} · {c.eventCount}{' '}
                    {c.eventCount === 1 ? 'event' : 'events'} ({c.upcomingEventCount} to come)
                  </p>
                </li>
              ))}
            </ul>
            <Pager
              page={filter.page}
              pages={pages}
              summary={`${clubs.data.total} ${clubs.data.total === 1 ? 'club' : 'clubs'}`}
              onPage={(page) => setFilter({ ...filter, page })}
            />
          </>
        )}
      </Card>
      <div className="scroll-mt-4 space-y-6" ref={panel}>
        {done && <Alert tone="success">{done}</Alert>}
        {selected ? (
          <ClubPanel key={selected} id={selected} onDeleted={setDone} />
        ) : (
          <Card>
            <p className="text-sm text-slate-600">Choose a club to see its owner, organisers and events to come.</p>
          </Card>
        )}
      </div>
    </div>
  );
}

/** One club: what it is, who runs it, its events to come, and deleting it (its name typed, a reason for the audit log). */
function ClubPanel({ id, onDeleted }: { id: string; onDeleted: (message: string) => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const detail = useQuery(clubQuery(id));
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState({ confirmName: '', reason: '' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function remove() {
    setBusy(true);
    setError(null);
    try {
      const name = detail.data?.name ?? 'The club';
      await deleteClub(id, form);
      setOpen(false);
      onDeleted(`${name} is deleted; attendees of its events to come are told.`);
      queryClient.removeQueries({ queryKey: queryKeys.adminClub(id) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.admin });
      navigate(adminHref('clubs'));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  if (detail.isPending || detail.isError) return <PanelPending query={detail} errorTitle="Could not load this club" />;
  const c = detail.data;
  return (
    <Card className="space-y-5">
      <section aria-labelledby="admin-club-name">
        <h2 id="admin-club-name" className="text-lg font-semibold text-slate-900">
          <Link className="hover:underline" to={`/club/${c.id}`}>
            {c.name}
          </Link>
        </h2>
        <div className="mt-2 flex flex-wrap gap-1">
          <Badge tone={c.visibility === 'public' ? 'green' : 'amber'}>{c.visibility === 'public' ? 'Public' : 'Approval to join'}</Badge>
          <Badge>{c.category}</Badge>
        </div>
        <dl className="mt-3 grid grid-cols-2 gap-1 text-sm text-slate-700">
          <dt className="text-slate-600">Owner</dt>
          <dd className="break-all">
            {c.owner ? (
              <Link className="font-medium text-brand-700 hover:underline" to={adminHref('users', c.owner.id)}>
                {c.owner.name}
              </Link>
            ) : (
              '—'
            )}
          </dd>
          <dt className="text-slate-600">Where</dt>
          <dd>{[c.city, c.online ? 'Online' : null].filter(Boolean).join(' · ') || '—'}</dd>
          <dt className="text-slate-600">Members</dt>
          <dd>{c.memberCount}</dd>
          <dt className="text-slate-600">Events</dt>
          <dd>
            {c.eventCount} ({c.upcomingEventCount} to come)
          </dd>
          <dt className="text-slate-600">Created</dt>
          <dd>{when(c.createdAt)}</dd>
        </dl>
        <p className="mt-3 break-words text-sm text-slate-700">{c.summary}</p>
      </section>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          className="text-red-700"
          onClick={() => {
            setForm({ confirmName: '', reason: '' });
            setError(null);
            setOpen(true);
          }}
        >
          Delete club…
        </Button>
      </div>
      <section aria-labelledby="admin-club-organisers">
        <h3 id="admin-club-organisers" className="text-sm font-semibold text-slate-900">
          Organisers ({c.organisers.length})
        </h3>
        {c.organisers.length === 0 ? (
          <p className="text-sm text-slate-600">Only the owner organises.</p>
        ) : (
          <ul className="text-sm text-slate-700">
            {c.organisers.map((o) => (
              <li key={o.id} className="break-all">
                <Link className="font-medium text-brand-700 hover:underline" to={adminHref('users', o.id)}>
                  {o.name}
                </Link>{' '}
                ({o.email})
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="admin-club-events">
        <h3 id="admin-club-events" className="text-sm font-semibold text-slate-900">
          Events to come ({c.upcomingEventCount})
        </h3>
        {c.upcomingEvents.length === 0 ? (
          <p className="text-sm text-slate-600">None scheduled.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm text-slate-700">
            {c.upcomingEvents.map((e) => (
              <li key={e.id} className="py-2">
                <Link className="font-medium text-brand-700 hover:underline" to={`/club/${c.id}/event/${e.id}`}>
                  {e.title}
                </Link>
                <p className="text-slate-600">
                  {when(e.startsAt)} · {e.goingCount} going{e.capacity !== null ? ` of ${e.capacity}` : ''}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <ConfirmDialog
        open={open}
        title={`Delete ${c.name}?`}
        confirmLabel="Delete for good"
        busy={busy}
        error={error}
        onClose={() => setOpen(false)}
        onConfirm={remove}
      >
        <p className="mb-3">
          Its members, events and answers go with it; attendees of its events to come are told they are cancelled. This cannot be undone.
          Type <strong className="break-words">{c.name}</strong> to confirm.
        </p>
        <div className="space-y-3">
          <Field
            label="Name of the club"
            value={form.confirmName}
            autoComplete="off"
            onChange={(e) => setForm({ ...form, confirmName: e.target.value })}
          />
          <Field
            label="Reason (for the audit log)"
            value={form.reason}
            maxLength={500}
            required
            onChange={(e) => setForm({ ...form, reason: e.target.value })}
          />
        </div>
      </ConfirmDialog>
    </Card>
  );
}
