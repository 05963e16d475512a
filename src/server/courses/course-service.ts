import { and, eq, sql } from 'drizzle-orm';
import { DEFAULT_AVATAR } from '../../shared/accounts.js';
import type { CourseInput } from '../../shared/courses-schemas.js';
import type { AppServices } from '../app-services.js';
import type { Db } from '../db/client.js';
import { course, courseSession } from '../db/schema/courses.js';
import { AppError } from '../http/errors.js';
import type { Viewer } from '../accounts/viewer.js';
import { requireEducator } from '../educators/require-educator.js';
import { ownedCourse } from './access.js';

type CourseFields = Omit<CourseInput, 'currency' | 'refundPolicy'> & { currency: string; refundPolicy: string };

function columns(input: CourseFields) {
  return {
    title: input.title,
    summary: input.summary,
    description: input.description,
    category: input.category,
    level: input.level,
    language: input.language,
    audience: input.audience || null,
    format: input.format,
    city: input.city || null,
    address: input.format === 'in_person' ? input.address || null : null,
    priceCents: input.priceCents,
    currency: input.currency,
    installments: input.installments ?? null,
    refundPolicy: input.refundPolicy,
  };
}

export async function createCourse(app: AppServices, viewer: Viewer, input: CourseFields) {
  const db = app.database.db;
  requireEducator(viewer);
  const [row] = await db
    .insert(course)
    .values({
      ...columns(input),
      educatorId: viewer.user.id,
      educatorName: `${viewer.user.firstName} ${viewer.user.lastName}`.trim(),
      status: 'draft',
    })
    .returning({ id: course.id });
  return row.id;
}

export async function updateCourse(app: AppServices, viewer: Viewer, courseId: string, input: CourseFields) {
  const db = app.database.db;
  await ownedCourse(db, courseId, viewer);
  await db
    .update(course)
    .set({ ...columns(input), updatedAt: new Date() })
    .where(eq(course.id, courseId));
}

/**
 * A course is published once it has a course session to enrol in. Announced before
 * (a listener may refuse: payments wants payouts for a paid course) and after.
 */
export async function publishCourse(app: AppServices, viewer: Viewer, courseId: string) {
  await app.courseEvents.transaction(app.database.db, async (tx, announce) => {
    const c = await ownedCourse(tx, courseId, viewer);
    if (c.status === 'published') return;
    await announce('course.publishing', { courseId, educatorId: c.educatorId, priceCents: c.priceCents });
    const [{ n }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(courseSession)
      .where(and(eq(courseSession.courseId, courseId), eq(courseSession.status, 'scheduled')));
    if (n === 0)
      throw new AppError(400, 'no_sessions', 'Add at least one session before publishing', { fields: { sessions: 'Add a session first' } });
    await tx
      .update(course)
      .set({ status: 'published', publishedAt: c.publishedAt ?? new Date(), updatedAt: new Date() })
      .where(eq(course.id, courseId));
    await announce('course.published', { courseId });
  });
}

export async function archiveCourse(app: AppServices, viewer: Viewer, courseId: string) {
  const db = app.database.db;
  await ownedCourse(db, courseId, viewer);
  await db.update(course).set({ status: 'archived', updatedAt: new Date() }).where(eq(course.id, courseId));
}

/** A new cover picture (read only once the caller is known to own the course). */
export async function setCourseCover(app: AppServices, viewer: Viewer, courseId: string, readPicture: () => Promise<Buffer>) {
  const db = app.database.db;
  await ownedCourse(db, courseId, viewer);
  const url = await app.images.saveCover(await readPicture());
  await db.update(course).set({ coverImage: url, updatedAt: new Date() }).where(eq(course.id, courseId));
  return url;
}

/** A timestamp in the form the API answers (Date#toISOString: UTC, milliseconds, "Z"). */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The course page, built by PostgreSQL as the JSON the API answers (courseView, keys in
 * its order), in one statement prepared once per database: the course (the columns the
 * page shows, never the search vectors, a wide and often compressed value), its educator
 * and their rating, each session with its status, seats, waitlist, class times and the
 * viewer's enrolment, the latest 50 reviews, and whether the viewer may review. Every part
 * is an index lookup, whatever the number of sessions. The page is the most visited one:
 * one round trip, and no parse, mapping and serialization of a ~10 kB answer in Node.
 * The rules it applies: a session's status is cancelled, completed once it ended (or was
 * completed), running once it started, full when every seat is taken, else scheduled;
 * meeting links go to the enrolled and the owner only; names and the default avatar are
 * those of the course view schema.
 */
function courseViewStatement(db: Db) {
  const viewer = sql`${sql.placeholder('viewerId')}::uuid`;
  const avatar = sql`${sql.placeholder('defaultAvatar')}::text`;
  const today = sql.raw(`(now() at time zone 'UTC')::date`);
  const view = sql<string>`json_build_object(
    'id', c.id, 'title', c.title, 'summary', c.summary, 'description', c.description, 'category', c.category, 'level', c.level,
    'language', c.language, 'audience', c.audience, 'format', c.format, 'city', c.city, 'address', c.address, 'coverImage', c.cover_image,
    'priceCents', c.price_cents, 'currency', c.currency, 'installments', c.installments, 'refundPolicy', c.refund_policy, 'status', c.status,
    'ratingAvg', c.rating_avg, 'ratingCount', c.rating_count, 'publishedAt', ${sql.raw(iso('c.published_at'))},
    'educator', json_build_object(
      'userId', c.educator_id, 'name', trim(u.first_name || ' ' || u.last_name), 'headline', e.headline, 'bio', e.bio,
      'profileImage', coalesce(nullif(e.profile_image, ''), nullif(u.profile_image, ''), ${avatar}),
      'ratingAvg', er.avg, 'ratingCount', er.n),
    'isOwner', c.educator_id = ${viewer},
    'sessions', coalesce((
      select json_agg(json_build_object(
        'id', s.id, 'startsOn', s.starts_on, 'endsOn', s.ends_on, 'capacity', s.capacity, 'minToRun', s.min_to_run, 'timeZone', s.time_zone,
        'status', case when s.status = 'cancelled' then 'cancelled' when s.status = 'completed' or s.ends_on < ${today} then 'completed'
                       when s.starts_on <= ${today} then 'running' when s.seats_taken >= s.capacity then 'full' else 'scheduled' end,
        'seatsTaken', s.seats_taken, 'seatsLeft', greatest(0, s.capacity - s.seats_taken),
        'waitlisted', (select count(*)::int from enrolment w where w.session_id = s.id and w.status = 'waitlisted'),
        'classTimes', coalesce((
          select json_agg(json_build_object('id', t.id, 'startsAt', ${sql.raw(iso('t.starts_at'))}, 'endsAt', ${sql.raw(iso('t.ends_at'))}, 'location', t.location,
            'meetingUrl', case when c.educator_id = ${viewer} or my.status in ('active', 'past_due') then t.meeting_url end) order by t.starts_at)
          from class_time t where t.session_id = s.id), '[]'::json),
        'myEnrolment', case when my.id is not null then json_build_object('id', my.id, 'status', my.status, 'waitlistPosition', my.position) end
      ) order by s.starts_on)
      from course_session s
      left join lateral (
        select m.id, m.status,
          case when m.status = 'waitlisted' then (select count(*)::int from enrolment w where w.session_id = m.session_id and w.status = 'waitlisted' and w.created_at <= m.created_at) end as position
        from enrolment m where m.session_id = s.id and m.course_id = c.id and m.learner_id = ${viewer} and m.status <> 'dropped' limit 1
      ) my on true
      where s.course_id = c.id), '[]'::json),
    'reviews', coalesce((
      select json_agg(json_build_object('id', r.id, 'rating', r.rating, 'text', r.text,
        'authorName', trim(r.first_name || ' ' || left(r.last_name, 1) || '.'), 'authorImage', coalesce(nullif(r.image, ''), ${avatar}),
        'createdAt', ${sql.raw(iso('r.created_at'))}, 'updatedAt', ${sql.raw(iso('r.updated_at'))}, 'mine', r.learner_id = ${viewer}) order by r.updated_at desc)
      from (select r.*, ru.first_name, ru.last_name, ru.profile_image as image from review r join "user" ru on ru.id = r.learner_id
            where r.course_id = c.id order by r.updated_at desc limit 50) r), '[]'::json),
    'canReview', c.educator_id <> ${viewer} and exists (
      select 1 from enrolment m join course_session ms on ms.id = m.session_id
      where m.course_id = c.id and m.learner_id = ${viewer} and m.status in ('active', 'past_due', 'completed')
        and (m.status = 'completed' or ms.ends_on < ${today}
             or exists (select 1 from class_time t where t.session_id = m.session_id and t.starts_at <= now()))),
    'reviewOpensAt', (
      select ${sql.raw(iso('min(t.starts_at)'))} from enrolment m join class_time t on t.session_id = m.session_id
      where c.educator_id <> ${viewer} and m.course_id = c.id and m.learner_id = ${viewer} and m.status in ('active', 'past_due'))
  )::text`;
  return db
    .select({ status: sql<string>`c.status`, educatorId: sql<string>`c.educator_id`, view })
    .from(
      sql`course c join "user" u on u.id = c.educator_id join educator e on e.user_id = c.educator_id
      cross join lateral (
        select coalesce(sum(c2.rating_avg * c2.rating_count) / nullif(sum(c2.rating_count), 0), 0)::real as avg, coalesce(sum(c2.rating_count), 0)::int as n
        from course c2 where c2.educator_id = c.educator_id and c2.status = 'published') er`,
    )
    .where(sql`c.id = ${sql.placeholder('courseId')}::uuid`)
    .limit(1)
    .prepare('course_view');
}
const statementByDb = new WeakMap<Db, ReturnType<typeof courseViewStatement>>();

/** No viewer: matches no enrolment, review or course. */
const NOBODY = '00000000-0000-0000-0000-000000000000';

/**
 * Everything a learner needs to decide (courseView), as the JSON text the API answers:
 * course + educator, sessions, class times, waitlist counts, the viewer's enrolments,
 * reviews, the educator's rating; in one statement whatever the number of sessions.
 * A draft or archived course exists for its educator only.
 */
export async function courseViewJson(app: AppServices, viewer: Viewer | null, courseId: string): Promise<string> {
  const db = app.database.db;
  let q = statementByDb.get(db);
  if (!q) statementByDb.set(db, (q = courseViewStatement(db)));
  const [row] = await q.execute({ courseId, viewerId: viewer?.user.id ?? NOBODY, defaultAvatar: DEFAULT_AVATAR });
  const isOwner = !!viewer && row?.educatorId === viewer.user.id;
  if (!row || (row.status !== 'published' && !isOwner)) throw AppError.notFound('This course does not exist');
  return row.view;
}
