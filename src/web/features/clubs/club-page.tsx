import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarPlus, Lock, MessageSquare, Pencil, Users } from 'lucide-react';
import { clubCategoryLabel } from '@shared/clubs';
import type { ClubView } from '@shared/clubs-schemas';
import { Markdown } from '@web/components/markdown';
import NotFoundPage from '@web/components/not-found-page';
import { Alert } from '@web/components/ui/alert';
import { Badge } from '@web/components/ui/badge';
import { Button, ButtonLink } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { CourseCover } from '@web/components/ui/cover';
import { ConfirmDialog } from '@web/components/ui/dialog';
import { TextArea } from '@web/components/ui/inputs';
import { LoadError } from '@web/components/ui/load-error';
import { Skeleton } from '@web/components/ui/skeleton';
import { Toast, useFlash } from '@web/components/ui/toast';
import { ApiError, isNotFound } from '@web/lib/api';
import { plural } from '@web/lib/format';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';
import { clubQuery, joinClub, leaveClub } from './api/clubs';
import { Avatar, EventRow, Place } from './components/club-bits';

function ClubSkeleton() {
  return (
    <div role="status" aria-label="Loading the club">
      <Skeleton className="aspect-[4/1] w-full rounded-2xl" />
      <div className="mt-6 space-y-3">
        <Skeleton className="h-9 w-2/3" />
        <Skeleton className="h-5 w-1/3" />
        <Skeleton className="mt-6 h-40 w-full rounded-2xl" />
      </div>
    </div>
  );
}

/** Join / Request to join / Pending / Leave, with the join question for an approval club. */
function Membership({ club, onFlash }: { club: ClubView; onFlash: (text: string) => void }) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [answer, setAnswer] = useState('');
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.club(club.id) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.clubLists }),
    ]);
  const join = useMutation({
    mutationFn: () => joinClub(club.id, answer.trim() || undefined),
    onSuccess: async (r) => {
      setAsking(false);
      onFlash(r.message);
      await refresh();
    },
  });
  const leave = useMutation({
    mutationFn: () => leaveClub(club.id),
    onSuccess: async (r) => {
      setLeaving(false);
      onFlash(r.message);
      await refresh();
    },
  });
  const m = club.myMembership;
  const error = (join.error ?? leave.error) instanceof ApiError ? (join.error ?? leave.error)!.message : null;
  if (m?.role === 'owner') return <Badge tone="brand">You own this club</Badge>;
  return (
    <div className="flex flex-col items-start gap-2">
      {!m && club.visibility === 'public' && (
        <Button onClick={() => join.mutate()} loading={join.isPending}>
          Join
        </Button>
      )}
      {!m && club.visibility === 'approval' && (
        <Button onClick={() => (club.joinQuestion ? setAsking(true) : join.mutate())} loading={join.isPending}>
          Request to join
        </Button>
      )}
      {m?.state === 'pending' && (
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone="amber">Pending approval</Badge>
          <Button variant="ghost" onClick={() => leave.mutate()} loading={leave.isPending}>
            Withdraw request
          </Button>
        </div>
      )}
      {m?.state === 'active' && (
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone="green">{m.role === 'organiser' ? 'Organiser' : 'Member'}</Badge>
          <Button variant="secondary" onClick={() => setLeaving(true)}>
            Leave
          </Button>
        </div>
      )}
      {error && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
      <ConfirmDialog
        open={asking}
        title={`Request to join ${club.name}`}
        confirmLabel="Send request"
        cancelLabel="Cancel"
        tone="primary"
        busy={join.isPending}
        onConfirm={() => join.mutate()}
        onClose={() => setAsking(false)}
      >
        <TextArea
          label={club.joinQuestion ?? 'Your answer'}
          rows={3}
          value={answer}
          onChange={(e) => setAnswer(e.target.value)}
          maxLength={1000}
          hint="Optional: the organisers read it with your request"
        />
      </ConfirmDialog>
      <ConfirmDialog
        open={leaving}
        title={`Leave ${club.name}?`}
        confirmLabel="Leave the club"
        busy={leave.isPending}
        onConfirm={() => leave.mutate()}
        onClose={() => setLeaving(false)}
      >
        Your answers to its upcoming events are cancelled and your places go to the waitlist.
      </ConfirmDialog>
    </div>
  );
}

function ClubDetail({ club }: { club: ClubView }) {
  const [flash, setFlash] = useFlash();
  return (
    <div>
      <CourseCover
        src={club.coverImage}
        seed={club.id}
        title={club.name}
        category={club.category}
        className="aspect-[3/1] w-full rounded-2xl sm:aspect-[4/1]"
      />
      <div className="mt-6 grid gap-8 lg:grid-cols-[1fr_20rem]">
        <div className="min-w-0 space-y-8">
          <header>
            <div className="flex flex-wrap gap-1.5">
              <Badge tone="brand">{clubCategoryLabel(club.category)}</Badge>
              {club.visibility === 'approval' && <Badge>Members approved by organisers</Badge>}
            </div>
            <h1 className="mt-2 break-words text-3xl font-bold tracking-tight text-slate-900">{club.name}</h1>
            <p className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-slate-700">
              <Place online={club.online} city={club.city} />
              <span className="inline-flex items-center gap-1.5">
                <Users className="h-4 w-4 text-slate-500" aria-hidden="true" />
                {plural(club.memberCount, 'member')}
              </span>
            </p>
            {club.memberPreview.length > 0 && (
              <ul className="mt-3 flex -space-x-2" aria-label="Some members">
                {club.memberPreview.map((p) => (
                  <li key={p.id} title={p.name}>
                    <Avatar person={p} size="h-9 w-9 ring-2 ring-white" />
                    <span className="sr-only">{p.name}</span>
                  </li>
                ))}
              </ul>
            )}
          </header>
          <section aria-labelledby="about-title">
            <h2 id="about-title" className="mb-3 text-xl font-bold text-slate-900">
              About
            </h2>
            <Markdown source={club.description} />
          </section>
          {club.rules.trim() && (
            <section aria-labelledby="rules-title">
              <h2 id="rules-title" className="mb-3 text-xl font-bold text-slate-900">
                Rules
              </h2>
              <Markdown source={club.rules} />
            </section>
          )}
          {club.membersVisible ? (
            <>
              <section aria-labelledby="upcoming-title">
                <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
                  <h2 id="upcoming-title" className="text-xl font-bold text-slate-900">
                    Upcoming events
                  </h2>
                  {club.canManage && (
                    <ButtonLink to={paths.newClubEvent(club.id)} variant="secondary">
                      <CalendarPlus className="h-4 w-4" aria-hidden="true" />
                      New event
                    </ButtonLink>
                  )}
                </div>
                {club.upcomingEvents.length ? (
                  <ul className="space-y-3">
                    {club.upcomingEvents.map((e) => (
                      <EventRow key={e.id} event={e} />
                    ))}
                  </ul>
                ) : (
                  <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-600">
                    No events planned yet.{club.canManage ? ' Plan the first one.' : ''}
                  </p>
                )}
              </section>
              {club.pastEvents.length > 0 && (
                <section aria-labelledby="past-title">
                  <h2 id="past-title" className="mb-3 text-xl font-bold text-slate-900">
                    Past events
                  </h2>
                  <ul className="space-y-3">
                    {club.pastEvents.map((e) => (
                      <EventRow key={e.id} event={e} />
                    ))}
                  </ul>
                </section>
              )}
            </>
          ) : (
            <Alert tone="info" title="Members only">
              <span className="inline-flex items-center gap-1.5">
                <Lock className="h-4 w-4" aria-hidden="true" />
                This club’s members and events are visible to its members. Request to join to see them.
              </span>
            </Alert>
          )}
        </div>
        <aside className="space-y-4">
          <Card className="space-y-4">
            <Membership club={club} onFlash={(text) => setFlash({ text })} />
            {club.canManage && (
              <ButtonLink to={paths.editClub(club.id)} variant="secondary" className="w-full">
                <Pencil className="h-4 w-4" aria-hidden="true" />
                Manage the club
              </ButtonLink>
            )}
          </Card>
          {club.organisers.length > 0 && (
            <Card>
              <h2 className="text-base font-semibold text-slate-900">Organisers</h2>
              <ul className="mt-3 space-y-3">
                {club.organisers.map((o) => (
                  <li key={o.id} className="flex items-center justify-between gap-2">
                    <span className="flex min-w-0 items-center gap-2">
                      <Avatar person={o} />
                      <span className="truncate text-sm font-medium text-slate-800">{o.name}</span>
                    </span>
                    <Link
                      to={paths.mailboxConversation(o.id)}
                      className="inline-flex shrink-0 items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
                    >
                      <MessageSquare className="h-4 w-4" aria-hidden="true" />
                      Message<span className="sr-only"> {o.name}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            </Card>
          )}
        </aside>
      </div>
      <Toast flash={flash} onClose={() => setFlash(null)} />
    </div>
  );
}

/** /club/:id: the club page (the public part only for non-members of an approval club). */
export default function ClubPage() {
  const { id = '' } = useParams();
  const q = useQuery(clubQuery(id));
  if (q.isPending) return <ClubSkeleton />;
  if (q.isError) {
    if (isNotFound(q.error)) return <NotFoundPage />;
    return <LoadError title="The club could not be loaded" error={q.error} onRetry={() => q.refetch()} retrying={q.isFetching} />;
  }
  return <ClubDetail club={q.data} />;
}
