import { CalendarDays, Lock, MapPin, Monitor, Repeat, Users } from 'lucide-react';
import { Link } from 'react-router';
import type { ClubCard as Card, EventCard, Person } from '@shared/clubs-schemas';
import { clubCategoryLabel } from '@shared/clubs';
import { Badge } from '@web/components/ui/badge';
import { CourseCover } from '@web/components/ui/cover';
import { Skeleton } from '@web/components/ui/skeleton';
import { plural, viewerTimeZone } from '@web/lib/format';
import { paths } from '@web/lib/paths';

/** Shared pieces of the clubs screens: cards, event rows, avatars, times in the viewer's zone. */

/** "Tue 9 Mar, 19:00 – 21:00 (Europe/Lisbon)": an event's time in the viewer's zone, the zone named. */
export function eventTime(startsAt: string, endsAt: string, timeZone = viewerTimeZone()): string {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' });
  const sameDay = day.format(new Date(startsAt)) === day.format(new Date(endsAt));
  const end = sameDay ? time.format(new Date(endsAt)) : `${day.format(new Date(endsAt))}, ${time.format(new Date(endsAt))}`;
  return `${day.format(new Date(startsAt))}, ${time.format(new Date(startsAt))} – ${end} (${timeZone.replace(/_/g, ' ')})`;
}

export function Avatar({ person, size = 'h-9 w-9' }: { person: Person; size?: string }) {
  const initials = person.name
    .split(/\s+/)
    .map((w) => w[0])
    .join('')
    .slice(0, 2)
    .toUpperCase();
  if (person.image) return <img src={person.image} alt="" className={`${size} shrink-0 rounded-full bg-slate-100 object-cover`} />;
  return (
    <span
      aria-hidden="true"
      className={`${size} inline-flex shrink-0 items-center justify-center rounded-full bg-brand-100 text-xs font-semibold text-brand-800`}
    >
      {initials}
    </span>
  );
}

export function Place({ online, city }: { online: boolean; city: string | null }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      {online && !city ? (
        <Monitor className="h-4 w-4 text-slate-500" aria-hidden="true" />
      ) : (
        <MapPin className="h-4 w-4 text-slate-500" aria-hidden="true" />
      )}
      {city ? (online ? `${city} · online too` : city) : 'Online'}
    </span>
  );
}

/** A club in a list: cover, name, place, members, next event. */
export function ClubCard({ club, headingLevel = 3 }: { club: Card; headingLevel?: 2 | 3 }) {
  const H = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="group relative flex w-full flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition hover:border-brand-500 hover:shadow-md focus-within:ring-2 focus-within:ring-brand-500">
      <CourseCover src={club.coverImage} seed={club.id} title={club.name} category={club.category} className="aspect-[16/9] w-full" />
      <div className="flex flex-1 flex-col p-4">
        <div className="flex flex-wrap gap-1.5">
          <Badge tone="brand">{clubCategoryLabel(club.category)}</Badge>
          {club.visibility === 'approval' && (
            <Badge>
              <Lock className="mr-1 inline h-3 w-3" aria-hidden="true" />
              Approval
            </Badge>
          )}
        </div>
        <H className="mt-2 line-clamp-2 text-base font-semibold leading-snug text-slate-900 group-hover:text-brand-700">
          <Link to={paths.club(club.id)} className="after:absolute after:inset-0 focus:outline-none">
            {club.name}
          </Link>
        </H>
        <p className="mt-1 line-clamp-2 text-sm text-slate-600">{club.summary}</p>
        <ul className="mt-3 space-y-1 text-sm text-slate-700">
          <li>
            <Place online={club.online} city={club.city} />
          </li>
          <li className="flex items-center gap-1.5">
            <Users className="h-4 w-4 text-slate-500" aria-hidden="true" />
            {plural(club.memberCount, 'member')}
          </li>
          {club.nextEventAt && (
            <li className="flex items-center gap-1.5">
              <CalendarDays className="h-4 w-4 text-slate-500" aria-hidden="true" />
              Next event{' '}
              {new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short' }).format(new Date(club.nextEventAt))}
            </li>
          )}
        </ul>
      </div>
    </article>
  );
}

export function ClubCardSkeleton() {
  return (
    <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white">
      <Skeleton className="aspect-[16/9] w-full rounded-none" />
      <div className="space-y-2 p-4">
        <Skeleton className="h-4 w-24" />
        <Skeleton className="h-5 w-3/4" />
        <Skeleton className="h-4 w-1/2" />
      </div>
    </div>
  );
}

export function rsvpLabel(e: Pick<EventCard, 'myRsvp'>): string | null {
  if (!e.myRsvp) return null;
  if (e.myRsvp.status === 'going') return 'Going';
  if (e.myRsvp.status === 'waitlisted') return `Waitlist #${e.myRsvp.waitlistPosition ?? '?'}`;
  return 'Not going';
}

/** An event in a list: date, title, place, places taken, the viewer's answer. */
export function EventRow({ event, showClub = false }: { event: EventCard; showClub?: boolean }) {
  const label = rsvpLabel(event);
  const cancelled = event.status === 'cancelled';
  return (
    <li className="relative flex flex-wrap items-start justify-between gap-3 rounded-xl border border-slate-200 bg-white p-4 hover:border-brand-500">
      <div className="min-w-0">
        <p className="text-sm font-medium text-brand-800">{eventTime(event.startsAt, event.endsAt)}</p>
        <p className="mt-0.5 font-semibold text-slate-900">
          <Link to={paths.clubEvent(event.clubId, event.id)} className="after:absolute after:inset-0 hover:underline">
            {event.title}
          </Link>
        </p>
        <p className="mt-0.5 text-sm text-slate-600">
          {showClub && <span>{event.clubName} · </span>}
          {event.online ? 'Online' : (event.address ?? '')} ·{' '}
          {event.capacity ? `${event.goingCount} / ${event.capacity} going` : `${event.goingCount} going`}
        </p>
        {!!event.moreDates && (
          <p className="mt-0.5 flex items-center gap-1.5 text-sm text-slate-600">
            <Repeat className="h-4 w-4 text-slate-500" aria-hidden="true" />
            and {plural(event.moreDates, 'more date')}
          </p>
        )}
      </div>
      <div className="flex gap-1.5">
        {cancelled && <Badge tone="red">Cancelled</Badge>}
        {!cancelled && event.capacity !== null && event.goingCount >= event.capacity && <Badge tone="amber">Full</Badge>}
        {label && !cancelled && <Badge tone={event.myRsvp?.status === 'going' ? 'green' : 'slate'}>{label}</Badge>}
      </div>
    </li>
  );
}
