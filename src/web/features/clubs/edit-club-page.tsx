import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MessageSquare } from 'lucide-react';
import type { ClubView } from '@shared/clubs-schemas';
import NotFoundPage from '@web/components/not-found-page';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card, PageHeader } from '@web/components/ui/card';
import { ConfirmDialog } from '@web/components/ui/dialog';
import { Field } from '@web/components/ui/field';
import { LoadError } from '@web/components/ui/load-error';
import { EditorSkeleton, Skeleton } from '@web/components/ui/skeleton';
import { Toast, useFlash } from '@web/components/ui/toast';
import { ApiError, isNotFound } from '@web/lib/api';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';
import { useViewer } from '@web/lib/viewer';
import { clubMembersQuery, clubQuery, deleteClub, memberAction } from './api/clubs';
import { Avatar } from './components/club-bits';
import { ClubForm } from './components/club-form';

type Tab = 'settings' | 'members' | 'danger';

function Members({ club, onFlash }: { club: ClubView; onFlash: (text: string) => void }) {
  const queryClient = useQueryClient();
  const me = useViewer();
  const q = useQuery(clubMembersQuery(club.id));
  const [transferTo, setTransferTo] = useState<{ id: string; name: string } | null>(null);
  const act = useMutation({
    mutationFn: ({ userId, action }: { userId: string; action: string }) => memberAction(club.id, userId, action),
    onSuccess: async (r) => {
      setTransferTo(null);
      onFlash(r.message);
      await queryClient.invalidateQueries({ queryKey: queryKeys.club(club.id) });
    },
  });
  if (q.isPending)
    return (
      <div role="status" aria-label="Loading the members" className="space-y-2">
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-12 w-full" />
      </div>
    );
  if (q.isError)
    return <LoadError title="The members could not be loaded" error={q.error} onRetry={() => q.refetch()} retrying={q.isFetching} />;
  const busy = (userId: string, action: string) => act.isPending && act.variables?.userId === userId && act.variables.action === action;
  return (
    <div className="space-y-8">
      {act.error instanceof ApiError && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {act.error.message}
        </p>
      )}
      <section aria-labelledby="requests-title">
        <h2 id="requests-title" className="mb-3 text-lg font-semibold text-slate-900">
          Requests to join ({q.data.requests.length})
        </h2>
        {q.data.requests.length === 0 ? (
          <p className="text-slate-600">No requests waiting.</p>
        ) : (
          <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200">
            {q.data.requests.map((r) => (
              <li key={r.id} className="flex flex-wrap items-center justify-between gap-3 p-3">
                <div className="flex min-w-0 items-center gap-2">
                  <Avatar person={r} />
                  <div className="min-w-0">
                    <p className="font-medium text-slate-900">{r.name}</p>
                    {r.answer && <p className="break-words text-sm text-slate-600">“{r.answer}”</p>}
                  </div>
                </div>
                <div className="flex gap-2">
                  <Button onClick={() => act.mutate({ userId: r.id, action: 'approve' })} loading={busy(r.id, 'approve')}>
                    Approve<span className="sr-only"> {r.name}</span>
                  </Button>
                  <Button
                    variant="secondary"
                    onClick={() => act.mutate({ userId: r.id, action: 'decline' })}
                    loading={busy(r.id, 'decline')}
                  >
                    Decline<span className="sr-only"> {r.name}</span>
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="members-title">
        <h2 id="members-title" className="mb-3 text-lg font-semibold text-slate-900">
          Members ({q.data.members.length})
        </h2>
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200">
          {q.data.members.map((m) => (
            <li key={m.id} className="flex flex-wrap items-center justify-between gap-3 p-3">
              <div className="flex min-w-0 items-center gap-2">
                <Avatar person={m} />
                <span className="truncate font-medium text-slate-900">{m.name}</span>
                {m.role !== 'member' && (
                  <Badge tone={m.role === 'owner' ? 'brand' : 'green'}>{m.role === 'owner' ? 'Owner' : 'Organiser'}</Badge>
                )}
              </div>
              <div className="flex flex-wrap gap-2">
                {m.id !== me.id && (
                  <Link
                    to={paths.mailboxConversation(m.id)}
                    className="inline-flex items-center gap-1 rounded-lg px-3 py-2 text-sm font-medium text-brand-700 hover:bg-slate-100"
                  >
                    <MessageSquare className="h-4 w-4" aria-hidden="true" />
                    Message<span className="sr-only"> {m.name}</span>
                  </Link>
                )}
                {club.isOwner && m.role === 'member' && (
                  <Button variant="ghost" onClick={() => act.mutate({ userId: m.id, action: 'promote' })} loading={busy(m.id, 'promote')}>
                    Make organiser<span className="sr-only"> ({m.name})</span>
                  </Button>
                )}
                {club.isOwner && m.role === 'organiser' && (
                  <Button variant="ghost" onClick={() => act.mutate({ userId: m.id, action: 'demote' })} loading={busy(m.id, 'demote')}>
                    Make member<span className="sr-only"> ({m.name})</span>
                  </Button>
                )}
                {club.isOwner && m.role !== 'owner' && (
                  <Button variant="ghost" onClick={() => setTransferTo(m)}>
                    Transfer ownership<span className="sr-only"> to {m.name}</span>
                  </Button>
                )}
                {m.role !== 'owner' && (club.isOwner || m.role === 'member') && (
                  <>
                    <Button variant="ghost" onClick={() => act.mutate({ userId: m.id, action: 'remove' })} loading={busy(m.id, 'remove')}>
                      Remove<span className="sr-only"> {m.name}</span>
                    </Button>
                    <Button variant="ghost" onClick={() => act.mutate({ userId: m.id, action: 'ban' })} loading={busy(m.id, 'ban')}>
                      Ban<span className="sr-only"> {m.name}</span>
                    </Button>
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      </section>
      <ConfirmDialog
        open={!!transferTo}
        title={`Make ${transferTo?.name ?? ''} the owner?`}
        confirmLabel="Transfer ownership"
        busy={act.isPending}
        onConfirm={() => transferTo && act.mutate({ userId: transferTo.id, action: 'transfer' })}
        onClose={() => setTransferTo(null)}
      >
        You stay an organiser. Only the owner can delete the club or change organisers.
      </ConfirmDialog>
    </div>
  );
}

function DangerZone({ club }: { club: ClubView }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const del = useMutation({
    mutationFn: () => deleteClub(club.id, name),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: queryKeys.club(club.id) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.clubLists });
      navigate(paths.clubSearch(), { state: { flash: { text: `${club.name} was deleted` } } });
    },
  });
  if (!club.isOwner) return <p className="text-slate-600">Only the owner can delete the club.</p>;
  return (
    <div className="space-y-3">
      <p className="text-slate-700">
        Deleting the club cancels its upcoming events (everyone going is told) and removes its members and events for good.
      </p>
      <Button variant="danger" onClick={() => setOpen(true)}>
        Delete the club
      </Button>
      <ConfirmDialog
        open={open}
        title={`Delete ${club.name}?`}
        confirmLabel="Delete for good"
        busy={del.isPending}
        error={del.error instanceof ApiError ? del.error.message : null}
        onConfirm={() => del.mutate()}
        onClose={() => setOpen(false)}
      >
        <Field label="Type the club name to confirm" value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
      </ConfirmDialog>
    </div>
  );
}

/** /club/:clubID/edit: settings, members and requests, ownership and deletion (organisers; others: not found). */
export default function EditClubPage() {
  const { clubID = '' } = useParams();
  const q = useQuery(clubQuery(clubID));
  const [tab, setTab] = useState<Tab>(() => (window.location.hash === '#members' ? 'members' : 'settings'));
  const [flash, setFlash] = useFlash();
  if (q.isPending) return <EditorSkeleton label="Loading the club" />;
  if (q.isError) {
    if (isNotFound(q.error)) return <NotFoundPage />;
    return <LoadError title="The club could not be loaded" error={q.error} onRetry={() => q.refetch()} retrying={q.isFetching} />;
  }
  const club = q.data;
  if (!club.canManage) return <NotFoundPage />;
  const tabs: [Tab, string][] = [
    ['settings', 'Settings'],
    ['members', 'Members'],
    ['danger', 'Delete'],
  ];
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title="Manage the club"
        subtitle={
          <Link to={paths.club(club.id)} className="font-medium text-brand-700 hover:underline">
            {club.name}
          </Link>
        }
      />
      <div role="tablist" aria-label="Club management" className="mb-4 flex gap-1 border-b border-slate-200">
        {tabs.map(([id, label]) => (
          <button
            key={id}
            role="tab"
            id={`tab-${id}`}
            aria-selected={tab === id}
            aria-controls={`panel-${id}`}
            onClick={() => setTab(id)}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold ${tab === id ? 'border-brand-700 text-brand-800' : 'border-transparent text-slate-700 hover:text-slate-900'}`}
          >
            {label}
          </button>
        ))}
      </div>
      <Card>
        <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
          {tab === 'settings' && <ClubForm club={club} />}
          {tab === 'members' && <Members club={club} onFlash={(text) => setFlash({ text })} />}
          {tab === 'danger' && <DangerZone club={club} />}
        </div>
      </Card>
      <Toast flash={flash} onClose={() => setFlash(null)} />
    </div>
  );
}
