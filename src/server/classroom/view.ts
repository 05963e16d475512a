import { sql } from 'drizzle-orm';
import { CLASSROOM_PAGE_SIZE, type ClassroomView } from '../../shared/classroom-schemas.js';
import type { AppServices } from '../app-services.js';
import { people } from '../accounts/people.js';
import { toViewer, viewerBySessionToken, type RequireViewerWith, type ViewerRow } from '../accounts/viewer.js';
import { classroomSessionSql } from '../courses/course-records.js';
import { AppError } from '../http/errors.js';
import { membersOf } from './members.js';

/**
 * The classroom page (GET .../classroom): the course and session, the next class with its
 * join link, the posts (every pinned one first, then the newest, CLASSROOM_PAGE_SIZE a page,
 * a cursor for older ones) each with its files, replies (hidden ones for the educator only)
 * and reports (the educator sees them; a learner whether they reported it). As the course and
 * event pages do (ADR 0043): one prepared statement reads the viewer (the session token's
 * user, app.requireViewerWith), courses' part (classroomSessionSql: the session, the viewer's
 * enrolment, the next class), the access rule of classroom/access.ts from the same row, and
 * builds the answer's JSON; the route sends the text as it is. For the educator, the learners
 * and their access are added (membersOf).
 */
const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
/** The cursor keeps microseconds: two posts in one millisecond are never skipped. */
const cursorOf = (alias: string) =>
  sql.raw(`to_char(${alias}.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '_' || ${alias}.id`);
const before = sql`${sql.placeholder('before')}::text`;

const postJson = sql`json_build_object(
    'id', p.id, 'author', json_build_object('id', p.author_id, 'name', au.first_name || ' ' || au.last_name),
    'body', p.body, 'links', p.links, 'pinned', p.pinned, 'createdAt', ${iso('p.created_at')},
    'files', coalesce((select json_agg(json_build_object('id', f.id, 'name', f.name, 'contentType', f.content_type, 'size', f.size,
        'url', '/api/courses/' || a.course_id || '/sessions/' || a.session_id || '/classroom/files/' || f.id) order by f.created_at, f.id)
      from classroom_file f where f.post_id = p.id), '[]'::json),
    'replies', coalesce((select json_agg(json_build_object('id', r.id,
        'author', json_build_object('id', r.author_id, 'name', ra.first_name || ' ' || ra.last_name),
        'body', r.body, 'createdAt', ${iso('r.created_at')}, 'hidden', r.hidden_at is not null) order by r.created_at, r.id)
      from classroom_reply r join ${people} ra on ra.id = r.author_id where r.post_id = p.id and (a.educator or r.hidden_at is null)), '[]'::json),
    'reports', case when a.educator then coalesce((select json_agg(json_build_object('reason', x.reason, 'createdAt', ${iso('x.created_at')})
        order by x.created_at) from classroom_report x where x.post_id = p.id), '[]'::json) else '[]'::json end,
    'reportedByMe', exists (select 1 from classroom_report x where x.post_id = p.id and x.reporter_id = a.viewer_id)
  )`;

const pageQuery = sql`with v as (${viewerBySessionToken(sql.placeholder('token'))}),
  s as (${classroomSessionSql(sql`${sql.placeholder('courseId')}::uuid`, sql`${sql.placeholder('sessionId')}::uuid`, sql`(select id from v)`)}),
  a as (
    select s.*, (select id from v) as viewer_id, s.educator_id = (select id from v) as educator,
      s.educator_id <> (select id from v) and s.enrolment_status = 'active' and not exists (
        select 1 from classroom_removal m where m.session_id = s.session_id and m.user_id = (select id from v)) as learner
    from s),
  page as (
    (select p.*, 0::bigint as n from classroom_post p, a
      where (a.educator or a.learner) and p.session_id = a.session_id and p.pinned and ${before} is null
      order by p.created_at desc, p.id desc limit 50)
    union all
    (select p.*, row_number() over (order by p.created_at desc, p.id desc) as n from classroom_post p, a
      where (a.educator or a.learner) and p.session_id = a.session_id and not p.pinned
        and (${before} is null or (p.created_at, p.id) < (split_part(${before}, '_', 1)::timestamptz, split_part(${before}, '_', 2)::uuid))
      order by p.created_at desc, p.id desc limit ${CLASSROOM_PAGE_SIZE + 1}))
  select v.*, a.course_id is not null as found, coalesce(a.educator or a.learner, false) as allowed, coalesce(a.educator, false) as educator,
    case when a.educator or a.learner then json_build_object(
      'course', json_build_object('id', a.course_id, 'title', a.course_title, 'educatorName', a.educator_name),
      'session', json_build_object('id', a.session_id, 'startsOn', a.starts_on, 'endsOn', a.ends_on, 'timeZone', a.time_zone, 'status', a.status),
      'role', case when a.educator then 'educator' else 'learner' end,
      'nextClass', case when a.next_starts_at is not null then json_build_object('startsAt', ${iso('a.next_starts_at')},
        'endsAt', ${iso('a.next_ends_at')}, 'location', a.next_location, 'meetingUrl', a.next_meeting_url) end,
      'posts', coalesce((select json_agg(${postJson} order by p.pinned desc, p.created_at desc, p.id desc)
        from page p join ${people} au on au.id = p.author_id where p.n <= ${CLASSROOM_PAGE_SIZE}), '[]'::json),
      'nextCursor', (select ${cursorOf('p')} from page p where p.n = ${CLASSROOM_PAGE_SIZE}
        and exists (select 1 from page q where q.n = ${CLASSROOM_PAGE_SIZE + 1})),
      'members', '[]'::json)::text end as view
  from v left join a on true`;
type PageRow = ViewerRow & { found: boolean | null; allowed: boolean; educator: boolean; view: string | null };

/** The classroom page as the JSON text the API answers (classroomView). */
export async function classroomPageJson(
  app: AppServices,
  requireViewerWith: RequireViewerWith,
  courseId: string,
  sessionId: string,
  cursor?: string,
): Promise<string> {
  const { data: row } = await requireViewerWith(async (token) => {
    const [r] = await app.database.prepared<PageRow>('classroom_page', pageQuery, { token, courseId, sessionId, before: cursor ?? null });
    return { viewer: r ? toViewer(r) : null, data: r };
  });
  if (!row.allowed || !row.view) throw AppError.notFound('This classroom does not exist');
  if (!row.educator) return row.view;
  const view = JSON.parse(row.view) as ClassroomView;
  view.members = await membersOf(app.database.db, sessionId);
  return JSON.stringify(view);
}
