import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarDays, Download, ExternalLink, MapPin, Monitor, Pencil, Users } from 'lucide-react';
import type { EventView } from '@shared/clubs-schemas';
import { Markdown } from '@web/components/markdown';
import NotFoundPage from '@web/components/not-found-page';
import { Alert } from '@web/components/ui/alert';
import { Badge } from '@web/components/ui/badge';
import { Button, buttonClass } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { ConfirmDialog } from '@web/components/ui/dialog';
import { LoadError } from '@web/components/ui/load-error';
import { Skeleton } from '@web/components/ui/skeleton';
import { Toast, useFlash } from '@web/components/ui/toast';
import { ApiError, isNotFound } from '@web/lib/api';
import { viewerTimeZone } from '@web/lib/format';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';
import { attendeesCsvUrl, cancelEvent, clubEventQuery, eventIcsUrl, rsvp, updateEvent } from './api/clubs';
import { Avatar, eventTime } from './components/club-bits';
import { EventForm } from './components/event-form';

function EventSkeleton() {
  return (
    <div role="status" aria-label="Loading the event" className="space-y-4">
      <Skeleton className="h-5 w-40" />
      <Skeleton className="h-9 w-2/3" />
      <Skeleton className="h-5 w-1/2" />
      <Skeleton className="h-48 w-full rounded-2xl" />
    </div>
  );
}

function Answer({ event, onFlash }: { event: EventView; onFlash: (text: string) => void }) {
  const queryClient = useQueryClient();
  const answer = useMutation({
    mutationFn: (a: 'going' | 'not_going') => rsvp(event.clubId, event.id, a),
    onSuccess: async (r) => {
      onFlash(r.message);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.clubs }),
        queryClient.invalidateQueries({ queryKey: queryKeys.clubLists }),
      ]);
    },
  });
  const [now] = useState(() => Date.now());
  const started = new Date(event.startsAt).getTime() <= now;
  if (event.status === 'cancelled') return <Alert tone="error">This event was cancelled.</Alert>;
  if (started) return <p className="text-sm text-slate-600">This event has started or is over.</p>;
  if (!event.isMember)
    return (
      <p className="text-sm text-slate-700">
        <Link to={paths.club(event.clubId)} className="font-medium text-brand-700 hover:underline">
          Join {event.clubName}
        </Link>{' '}
        to answer.
      </p>
    );
  const mine = event.myRsvp?.status;
  const full = event.capacity !== null && event.goingCount >= event.capacity;
  return (
    <div className="space-y-3">
      <p className="text-sm font-medium text-slate-900" role="status">
        {mine === 'going' && "You're going"}
        {mine === 'waitlisted' && `You're on the waitlist: number ${event.myRsvp?.waitlistPosition ?? '?'}`}
        {mine === 'not_going' && "You're not going"}
        {!mine && (full ? 'The event is full: answering going puts you on the waitlist' : 'Are you going?')}
      </p>
      <div className="flex flex-wrap gap-2">
        {mine !== 'going' && mine !== 'waitlisted' && (
          <Button onClick={() => answer.mutate('going')} loading={answer.isPending && answer.variables === 'going'}>
            {full ? 'Join the waitlist' : 'Going'}
          </Button>
        )}
        {mine !== 'not_going' && (
          <Button
            variant="secondary"
            onClick={() => answer.mutate('not_going')}
            loading={answer.isPending && answer.variables === 'not_going'}
          >
            {mine === 'waitlisted' ? 'Leave the waitlist' : mine === 'going' ? 'Cancel: not going' : 'Not going'}
          </Button>
        )}
      </div>
      {answer.error instanceof ApiError && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {answer.error.message}
        </p>
      )}
    </div>
  );
}

function EventDetail({ event }: { event: EventView }) {
  const queryClient = useQueryClient();
  const [flash, setFlash] = useFlash();
  const [editing, setEditing] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const cancel = useMutation({
    mutationFn: () => cancelEvent(event.clubId, event.id),
    onSuccess: async (r) => {
      setCancelling(false);
      setFlash({ text: r.message });
      await queryClient.invalidateQueries({ queryKey: queryKeys.clubs });
    },
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.clubs });
  const going = event.attendees.filter((a) => a.status === 'going');
  const waiting = event.attendees.filter((a) => a.status === 'waitlisted');
  const mapUrl = event.address ? `https://www.openstreetmap.org/search?query=${encodeURIComponent(event.address)}` : null;

  return (
    <div className="grid gap-8 lg:grid-cols-[1fr_20rem]">
      <div className="min-w-0 space-y-6">
        <header>
          <Link to={paths.club(event.clubId)} className="text-sm font-medium text-brand-700 hover:underline">
            {event.clubName}
          </Link>
          <h1 className="mt-1 break-words text-3xl font-bold tracking-tight text-slate-900">{event.title}</h1>
          {event.status === 'cancelled' && (
            <Badge tone="red" className="mt-2">
              Cancelled
            </Badge>
          )}
        </header>
        <ul className="space-y-2 text-slate-800">
          <li className="flex items-start gap-2">
            <CalendarDays className="mt-0.5 h-5 w-5 shrink-0 text-slate-500" aria-hidden="true" />
            <span>
              {eventTime(event.startsAt, event.endsAt)}
              {viewerTimeZone() !== event.timeZone && (
                <span className="block text-sm text-slate-600">
                  Organiser’s time: {eventTime(event.startsAt, event.endsAt, event.timeZone)}
                </span>
              )}
            </span>
          </li>
          {event.address && (
            <li className="flex items-start gap-2">
              <MapPin className="mt-0.5 h-5 w-5 shrink-0 text-slate-500" aria-hidden="true" />
              <span>
                {event.address}{' '}
                {mapUrl && (
                  <a
                    href={mapUrl}
                    target="_blank"
                    rel="noreferrer noopener"
                    className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
                  >
                    Map <ExternalLink className="h-3.5 w-3.5" aria-hidden="true" />
                    <span className="sr-only">(opens in a new tab)</span>
                  </a>
                )}
              </span>
            </li>
          )}
          {event.online && (
            <li className="flex items-start gap-2">
              <Monitor className="mt-0.5 h-5 w-5 shrink-0 text-slate-500" aria-hidden="true" />
              {event.onlineUrl && /^https?:\/\//.test(event.onlineUrl) ? (
                <a
                  href={event.onlineUrl}
                  target="_blank"
                  rel="noreferrer noopener"
                  className="break-all font-medium text-brand-700 hover:underline"
                >
                  Join online
                </a>
              ) : (
                <span>Online (the link is for members)</span>
              )}
            </li>
          )}
          <li className="flex items-start gap-2">
            <Users className="mt-0.5 h-5 w-5 shrink-0 text-slate-500" aria-hidden="true" />
            <span>
              {event.capacity ? `${event.goingCount} of ${event.capacity} places taken` : `${event.goingCount} going`}
              {event.waitlistCount > 0 && ` · ${event.waitlistCount} on the waitlist`}
            </span>
          </li>
        </ul>
        {event.description.trim() && (
          <section aria-labelledby="details-title">
            <h2 id="details-title" className="mb-2 text-xl font-bold text-slate-900">
              Details
            </h2>
            <Markdown source={event.description} />
          </section>
        )}
        {editing && (
          <Card>
            <h2 className="mb-4 text-lg font-semibold text-slate-900">Edit this event</h2>
            <EventForm
              event={event}
              submitLabel="Save the event"
              onSubmit={async (input) => {
                const r = await updateEvent(event.clubId, event.id, input);
                setEditing(false);
                setFlash({ text: r.message });
                await refresh();
              }}
            />
          </Card>
        )}
        {event.isMember && (
          <section aria-labelledby="attendees-title">
            <h2 id="attendees-title" className="mb-3 text-xl font-bold text-slate-900">
              Going ({going.length})
            </h2>
            {going.length ? (
              <ul className="grid gap-2 sm:grid-cols-2">
                {going.map((a) => (
                  <li key={a.id} className="flex items-center gap-2">
                    <Avatar person={a} />
                    <span className="text-sm text-slate-800">{a.name}</span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-slate-600">Nobody yet: be the first.</p>
            )}
            {waiting.length > 0 && (
              <>
                <h3 className="mb-2 mt-4 text-base font-semibold text-slate-900">Waitlist ({waiting.length})</h3>
                <ol className="list-inside list-decimal space-y-1 text-sm text-slate-800">
                  {waiting.map((a) => (
                    <li key={a.id}>{a.name}</li>
                  ))}
                </ol>
              </>
            )}
          </section>
        )}
      </div>
      <aside className="space-y-4">
        <Card className="space-y-4">
          <Answer event={event} onFlash={(text) => setFlash({ text })} />
          <a href={eventIcsUrl(event.clubId, event.id)} download className={buttonClass('secondary', 'w-full')}>
            <CalendarDays className="h-4 w-4" aria-hidden="true" />
            Add to calendar (.ics)
          </a>
        </Card>
        {event.canManage && (
          <Card className="space-y-2">
            <h2 className="text-base font-semibold text-slate-900">Organiser</h2>
            {event.status === 'scheduled' && (
              <Button variant="secondary" className="w-full" onClick={() => setEditing((e) => !e)}>
                <Pencil className="h-4 w-4" aria-hidden="true" />
                {editing ? 'Close the editor' : 'Edit'}
              </Button>
            )}
            <a href={attendeesCsvUrl(event.clubId, event.id)} download className={buttonClass('secondary', 'w-full')}>
              <Download className="h-4 w-4" aria-hidden="true" />
              Export attendees (CSV)
            </a>
            {event.status === 'scheduled' && (
              <Button variant="danger" className="w-full" onClick={() => setCancelling(true)}>
                Cancel the event
              </Button>
            )}
          </Card>
        )}
      </aside>
      <ConfirmDialog
        open={cancelling}
        title="Cancel this event?"
        confirmLabel="Cancel the event"
        busy={cancel.isPending}
        error={cancel.error instanceof ApiError ? cancel.error.message : null}
        onConfirm={() => cancel.mutate()}
        onClose={() => setCancelling(false)}
      >
        Everyone going or on the waitlist is told. Other events of the series stay as they are.
      </ConfirmDialog>
      <Toast flash={flash} onClose={() => setFlash(null)} />
    </div>
  );
}

/** /club/:clubID/event/:eventID: an event (members of an approval club only). */
export default function EventPage() {
  const { clubID = '', eventID = '' } = useParams();
  const q = useQuery(clubEventQuery(clubID, eventID));
  if (q.isPending) return <EventSkeleton />;
  if (q.isError) {
    if (isNotFound(q.error)) return <NotFoundPage />;
    return <LoadError title="The event could not be loaded" error={q.error} onRetry={() => q.refetch()} retrying={q.isFetching} />;
  }
  return <EventDetail event={q.data} />;
}
