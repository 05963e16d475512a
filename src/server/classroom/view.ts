import { sql } from 'drizzle-orm';
import { CLASSROOM_PAGE_SIZE, type ClassroomPost, type ClassroomView } from '../../shared/classroom-schemas.js';
import type { AppServices } from '../app-services.js';
import { people } from '../accounts/people.js';
import type { Viewer } from '../accounts/viewer.js';
import { nextClassOf } from '../courses/course-records.js';
import { rowsOf, type Conn } from '../db/transaction.js';
import { classroomFor } from './access.js';
import { membersOf } from './members.js';

/** Where a member downloads a material. */
export const fileUrl = (courseId: string, sessionId: string, fileId: string) =>
  `/api/courses/${courseId}/sessions/${sessionId}/classroom/files/${fileId}`;

interface PostRow {
  id: string;
  author_id: string;
  author_name: string;
  body: string;
  links: { url: string; label: string }[];
  pinned: boolean;
  created_at: string;
  files: { id: string; name: string; contentType: string; size: number }[];
  replies: { id: string; authorId: string; authorName: string; body: string; createdAt: string; hidden: boolean }[];
  reports: { reason: string; createdAt: string; reporterId: string }[];
}

const iso = (t: string | Date) => new Date(t).toISOString();

/**
 * The classroom page: the course and session, the next class with its join link, the posts
 * (pinned first, then the newest, CLASSROOM_PAGE_SIZE a page) each with its files, replies
 * (hidden ones for the educator only) and reports (the educator sees them; a learner whether
 * they reported it), and for the educator the learners and their access. Each post's files,
 * replies and reports are gathered by PostgreSQL in the posts' one statement.
 */
export async function getClassroom(
  app: AppServices,
  viewer: Viewer,
  courseId: string,
  sessionId: string,
  before?: string,
): Promise<ClassroomView> {
  const db = app.database.db;
  const c = await classroomFor(db, courseId, sessionId, viewer);
  const educator = c.role === 'educator';
  const [next, rows, members] = await Promise.all([
    nextClassOf(db, sessionId),
    postsPage(db, sessionId, educator, before),
    educator ? membersOf(db, sessionId) : Promise.resolve([]),
  ]);
  const more = rows.filter((r) => !r.pinned).length > CLASSROOM_PAGE_SIZE;
  const page = more ? rows.slice(0, -1) : rows;
  const last = page.filter((r) => !r.pinned).at(-1);
  const me = viewer.user.id;
  const posts: ClassroomPost[] = page.map((r) => ({
    id: r.id,
    author: { id: r.author_id, name: r.author_name },
    body: r.body,
    links: r.links,
    pinned: r.pinned,
    createdAt: iso(r.created_at),
    files: r.files.map((f) => ({ ...f, url: fileUrl(courseId, sessionId, f.id) })),
    replies: r.replies.map((x) => ({
      id: x.id,
      author: { id: x.authorId, name: x.authorName },
      body: x.body,
      createdAt: iso(x.createdAt),
      hidden: x.hidden,
    })),
    reports: educator ? r.reports.map((x) => ({ reason: x.reason, createdAt: iso(x.createdAt) })) : [],
    reportedByMe: r.reports.some((x) => x.reporterId === me),
  }));
  return {
    course: { id: courseId, title: c.courseTitle, educatorName: c.educatorName },
    session: { id: sessionId, ...c.session },
    role: c.role,
    nextClass: next
      ? { startsAt: iso(next.startsAt), endsAt: iso(next.endsAt), location: next.location, meetingUrl: next.meetingUrl }
      : null,
    posts,
    nextCursor: more && last ? `${iso(last.created_at)}_${last.id}` : null,
    members,
  };
}

/**
 * One statement: on the first page every pinned post, then (every page) the unpinned ones older
 * than the cursor, one more than a page (to know whether there is a next), each with its files,
 * replies and reports as JSON.
 */
function postsPage(conn: Conn, sessionId: string, educator: boolean, before?: string) {
  const [at, id] = before ? [before.slice(0, before.lastIndexOf('_')), before.slice(before.lastIndexOf('_') + 1)] : [null, null];
  const cursor = at ? sql`and (p.created_at, p.id) < (${at}::timestamptz, ${id}::uuid)` : sql``;
  const pinned = at
    ? sql``
    : sql`(select p.* from classroom_post p where p.session_id = ${sessionId} and p.pinned order by p.created_at desc, p.id desc limit 50) union all`;
  return rowsOf<PostRow>(
    conn,
    sql`with page as (
      ${pinned}
      (select p.* from classroom_post p where p.session_id = ${sessionId} and not p.pinned ${cursor}
        order by p.created_at desc, p.id desc limit ${CLASSROOM_PAGE_SIZE + 1})
    )
    select p.id, p.author_id, a.first_name || ' ' || a.last_name as author_name, p.body, p.links, p.pinned, p.created_at,
      coalesce((select json_agg(json_build_object('id', f.id, 'name', f.name, 'contentType', f.content_type, 'size', f.size) order by f.created_at, f.id)
        from classroom_file f where f.post_id = p.id), '[]') as files,
      coalesce((select json_agg(json_build_object('id', r.id, 'authorId', r.author_id, 'authorName', ra.first_name || ' ' || ra.last_name,
          'body', r.body, 'createdAt', r.created_at, 'hidden', r.hidden_at is not null) order by r.created_at, r.id)
        from classroom_reply r join ${people} ra on ra.id = r.author_id
        where r.post_id = p.id ${educator ? sql`` : sql`and r.hidden_at is null`}), '[]') as replies,
      coalesce((select json_agg(json_build_object('reason', x.reason, 'createdAt', x.created_at, 'reporterId', x.reporter_id) order by x.created_at)
        from classroom_report x where x.post_id = p.id), '[]') as reports
    from page p join ${people} a on a.id = p.author_id
    order by p.pinned desc, p.created_at desc, p.id desc`,
  );
}
