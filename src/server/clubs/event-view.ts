import { sql } from 'drizzle-orm';
import { people } from '../accounts/people.js';
import type { AppServices } from '../app-services.js';
import { toViewer, viewerBySessionToken, type RequireViewerWith, type ViewerRow } from '../accounts/viewer.js';
import { AppError } from '../http/errors.js';

/**
 * The event page (GET /api/clubs/:clubId/events/:eventId): anyone who sees the club's
 * inside; the online link and the attendee list are for members. PostgreSQL builds the
 * answer's JSON (the eventView schema, keys in its order) in one prepared statement, as the
 * course page does (docs/decisions/0043, courseViewJson): the club, the viewer's
 * membership, the event, the waitlist count, the viewer's answer and place, and the
 * attendees, with the viewer themself (the session token's user, as the course page:
 * app.requireViewerWith), in one round trip; the route sends the text as it is. The access rule is
 * clubs/access.ts's (seesInside), read from the same row: an unknown club is "This club
 * does not exist", an event the viewer may not see or that is not the club's is "This event
 * does not exist".
 */
const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
/** "2027-03-09T19:00" in the event's zone (utcToLocal of event-times.ts). */
const local = (column: string) => sql.raw(`to_char(${column} at time zone e.time_zone, 'YYYY-MM-DD"T"HH24:MI')`);

const member = sql.raw(`(m.state = 'active')`);
const view = sql<string>`json_build_object(
    'id', e.id, 'clubId', c.id, 'clubName', c.name, 'seriesId', e.series_id, 'title', e.title, 'description', e.description,
    'startsAt', ${iso('e.starts_at')}, 'endsAt', ${iso('e.ends_at')}, 'timeZone', e.time_zone,
    'online', e.online_url is not null, 'onlineUrl', case when ${member} then e.online_url end, 'address', e.address,
    'capacity', e.capacity, 'rsvpDeadline', ${iso('e.rsvp_deadline')}, 'status', e.status, 'goingCount', e.going_count,
    'waitlistCount', (select count(*)::int from club_rsvp w where w.event_id = e.id and w.status = 'waitlisted'),
    'myRsvp', case when my.status is not null then json_build_object('status', my.status, 'waitlistPosition',
      case when my.status = 'waitlisted' and my.queue_order is not null then (
        select count(*)::int from club_rsvp w where w.event_id = e.id and w.status = 'waitlisted' and w.queue_order <= my.queue_order) end) end,
    'isMember', coalesce(${member}, false),
    'canManage', coalesce(${member} and m.role in ('owner', 'organiser'), false),
    'attendees', case when ${member} then coalesce((
      select json_agg(json_build_object('id', u.id, 'name', u.first_name || ' ' || u.last_name, 'image', u.profile_image, 'status', a.status)
        order by a.going desc, a.queue_order, a.answered_at)
      from (select r.user_id, r.status, r.status = 'going' as going, r.queue_order, r.answered_at from club_rsvp r
            where r.event_id = e.id and r.status in ('going', 'waitlisted')
            order by r.status = 'going' desc, r.queue_order, r.answered_at limit 2000) a
      join ${people} u on u.id = a.user_id), '[]'::json) else '[]'::json end,
    'local', json_build_object('startsAt', ${local('e.starts_at')}, 'endsAt', ${local('e.ends_at')}, 'rsvpDeadline', ${local('e.rsvp_deadline')})
  )::text`;

/** The viewer (viewerBySessionToken's columns), then the page: no row when the token signs nobody in. */
const eventViewQuery = sql`with v as (${viewerBySessionToken(sql.placeholder('token'))})
  select v.*, c.id is not null as "clubFound", e.id is not null and (c.visibility = 'public' or m.state = 'active') as visible,
    case when c.id is not null then ${view} end as view
  from v
  left join club c on c.id = ${sql.placeholder('clubId')}::uuid
  left join club_membership m on m.club_id = c.id and m.user_id = v.id
  left join club_event e on e.id = ${sql.placeholder('eventId')}::uuid and e.club_id = c.id
  left join club_rsvp my on my.event_id = e.id and my.user_id = v.id`;
type EventViewRow = ViewerRow & { clubFound: boolean; visible: boolean | null; view: string | null };

/** The event page as the JSON text the API answers (eventView). */
export async function getEventJson(
  app: AppServices,
  requireViewerWith: RequireViewerWith,
  clubId: string,
  eventId: string,
): Promise<string> {
  const { data: row } = await requireViewerWith(async (token) => {
    const [r] = await app.database.prepared<EventViewRow>('club_event_view', eventViewQuery, { token, clubId, eventId });
    return { viewer: r ? toViewer(r) : null, data: r };
  });
  if (!row.clubFound) throw AppError.notFound('This club does not exist');
  if (!row.visible || !row.view) throw AppError.notFound('This event does not exist');
  return row.view;
}
