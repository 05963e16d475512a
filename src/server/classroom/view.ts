import { sql } from 'drizzle-orm';
import { CLASSROOM_PAGE_SIZE, type ClassroomPost, type ClassroomView } from '../../shared/classroom-schemas.js';
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
 * and reports (the educator sees them; a learner whether they reported it). Every request is
 * one prepared statement (accessQuery): the viewer (app.requireViewerWith), courses' part
 * (classroomSessionSql), the access rule of classroom/access.ts on the same row, the
 * classroom's version and the posts the viewer reported. The posts' JSON, built by PostgreSQL
 * (postsQuery) and the same for every learner (or for the educator), is kept by this process
 * while the classroom's version is the one it was read at (ADR 0072); the answer is spliced as
 * text and sent as it is. For the educator, the learners and their access are added (membersOf).
 */
const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
/** The cursor keeps microseconds: two posts in one millisecond are never skipped. */
const cursorOf = (alias: string) =>
  sql.raw(`to_char(${alias}.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '_' || ${alias}.id`);
const before = sql`${sql.placeholder('before')}::text`;
const sessionId = sql`${sql.placeholder('sessionId')}::uuid`;
const educator = sql`${sql.placeholder('educator')}::boolean`;

const postJson = sql`json_build_object(
    'id', p.id, 'author', json_build_object('id', p.author_id, 'name', au.first_name || ' ' || au.last_name),
    'body', p.body, 'links', p.links, 'pinned', p.pinned, 'createdAt', ${iso('p.created_at')},
    'files', coalesce((select json_agg(json_build_object('id', f.id, 'name', f.name, 'contentType', f.content_type, 'size', f.size,
        'url', '/api/courses/' || p.course_id || '/sessions/' || p.session_id || '/classroom/files/' || f.id) order by f.created_at, f.id)
      from classroom_file f where f.post_id = p.id), '[]'::json),
    'replies', coalesce((select json_agg(json_build_object('id', r.id,
        'author', json_build_object('id', r.author_id, 'name', ra.first_name || ' ' || ra.last_name),
        'body', r.body, 'createdAt', ${iso('r.created_at')}, 'hidden', r.hidden_at is not null) order by r.created_at, r.id)
      from classroom_reply r join ${people} ra on ra.id = r.author_id where r.post_id = p.id and (${educator} or r.hidden_at is null)), '[]'::json),
    'reports', case when ${educator} then coalesce((select json_agg(json_build_object('reason', x.reason, 'createdAt', ${iso('x.created_at')})
        order by x.created_at) from classroom_report x where x.post_id = p.id), '[]'::json) else '[]'::json end,
    'reportedByMe', false
  )`;

/**
 * Every request: the viewer, courses' part (the session, the viewer's enrolment, the next
 * class), the access rule, the classroom's version and the posts the viewer reported.
 */
const accessQuery = sql`with v as (${viewerBySessionToken(sql.placeholder('token'))}),
  s as (${classroomSessionSql(sql`${sql.placeholder('courseId')}::uuid`, sessionId, sql`(select id from v)`)}),
  a as (
    select s.*, s.educator_id = (select id from v) as educator,
      s.educator_id <> (select id from v) and s.enrolment_status = 'active' and not exists (
        select 1 from classroom_removal m where m.session_id = s.session_id and m.user_id = (select id from v)) as learner
    from s)
  select v.*, coalesce(a.educator or a.learner, false) as allowed, coalesce(a.educator, false) as educator,
    a.course_id, a.course_title, a.educator_name, a.starts_on, a.ends_on, a.time_zone, a.status,
    ${iso('a.next_starts_at')} as next_starts_at, ${iso('a.next_ends_at')} as next_ends_at, a.next_location, a.next_meeting_url,
    coalesce((select c.version from classroom_version c where c.session_id = a.session_id), 0)::int as version,
    case when a.educator or a.learner then (select json_agg(x.post_id) from classroom_report x join classroom_post p on p.id = x.post_id
      where x.reporter_id = v.id and p.session_id = a.session_id) end as reported
  from v left join a on true`;
type AccessRow = ViewerRow & {
  allowed: boolean;
  educator: boolean;
  course_id: string;
  course_title: string;
  educator_name: string;
  starts_on: string;
  ends_on: string;
  time_zone: string;
  status: string;
  next_starts_at: string | null;
  next_ends_at: string | null;
  next_location: string | null;
  next_meeting_url: string | null;
  version: number;
  reported: string[] | null;
};

/**
 * The page's shared part (the same for every learner, or for the educator): the posts of a
 * page as JSON and the next page's cursor, with the version they were read at (same statement).
 */
const postsQuery = sql`with page as (
    (select p.*, 0::bigint as n from classroom_post p
      where p.session_id = ${sessionId} and p.pinned and ${before} is null
      order by p.created_at desc, p.id desc limit 50)
    union all
    (select p.*, row_number() over (order by p.created_at desc, p.id desc) as n from classroom_post p
      where p.session_id = ${sessionId} and not p.pinned
        and (${before} is null or (p.created_at, p.id) < (split_part(${before}, '_', 1)::timestamptz, split_part(${before}, '_', 2)::uuid))
      order by p.created_at desc, p.id desc limit ${CLASSROOM_PAGE_SIZE + 1}))
  select coalesce((select c.version from classroom_version c where c.session_id = ${sessionId}), 0)::int as version,
    coalesce((select json_agg(${postJson} order by p.pinned desc, p.created_at desc, p.id desc)
      from page p join ${people} au on au.id = p.author_id where p.n <= ${CLASSROOM_PAGE_SIZE}), '[]'::json)::text as posts,
    (select ${cursorOf('p')} from page p where p.n = ${CLASSROOM_PAGE_SIZE}
      and exists (select 1 from page q where q.n = ${CLASSROOM_PAGE_SIZE + 1})) as next_cursor`;
type PostsRow = { version: number; posts: string; next_cursor: string | null };

/** This process's copies of pages' shared parts, by session, role and cursor; used while their version is current. */
const kept = new Map<string, PostsRow>();
const KEPT_MAX = 2000;

async function sharedPart(app: AppServices, sessionId: string, educator: boolean, cursor: string | null, version: number) {
  const key = `${sessionId}:${educator ? 'e' : 'l'}:${cursor ?? ''}`;
  const hit = kept.get(key);
  if (hit && hit.version === version) return hit;
  const [row] = await app.database.prepared<PostsRow>('classroom_posts', postsQuery, { sessionId, educator, before: cursor });
  kept.delete(key);
  if (kept.size >= KEPT_MAX) kept.delete(kept.keys().next().value!);
  kept.set(key, row);
  return row;
}

/** The classroom page as the JSON text the API answers (classroomView). */
export async function classroomPageJson(
  app: AppServices,
  requireViewerWith: RequireViewerWith,
  courseId: string,
  sessionId: string,
  cursor?: string,
): Promise<string> {
  const { data: a } = await requireViewerWith(async (token) => {
    const [r] = await app.database.prepared<AccessRow>('classroom_access', accessQuery, { token, courseId, sessionId });
    return { viewer: r ? toViewer(r) : null, data: r };
  });
  if (!a.allowed) throw AppError.notFound('This classroom does not exist');
  const [shared, members] = await Promise.all([
    sharedPart(app, sessionId, a.educator, cursor ?? null, a.version),
    a.educator ? membersOf(app.database.db, sessionId) : Promise.resolve([]),
  ]);
  let posts = shared.posts;
  if (a.reported?.length) {
    const mine = new Set(a.reported);
    posts = JSON.stringify((JSON.parse(posts) as ClassroomPost[]).map((p) => (mine.has(p.id) ? { ...p, reportedByMe: true } : p)));
  }
  const head: Omit<ClassroomView, 'posts' | 'nextCursor' | 'members'> = {
    course: { id: courseId, title: a.course_title, educatorName: a.educator_name },
    session: { id: sessionId, startsOn: a.starts_on, endsOn: a.ends_on, timeZone: a.time_zone, status: a.status },
    role: a.educator ? 'educator' : 'learner',
    nextClass:
      a.next_starts_at && a.next_ends_at
        ? { startsAt: a.next_starts_at, endsAt: a.next_ends_at, location: a.next_location, meetingUrl: a.next_meeting_url }
        : null,
  };
  const json = JSON.stringify(head);
  return `${json.slice(0, -1)},"posts":${posts},"nextCursor":${JSON.stringify(shared.next_cursor)},"members":${JSON.stringify(members)}}`;
}
