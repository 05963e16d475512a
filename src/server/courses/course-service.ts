import { and, eq, sql } from 'drizzle-orm';
import { DEFAULT_AVATAR } from '../../shared/accounts.js';
import type { CourseInput, CourseView } from '../../shared/courses-schemas.js';
import type { Db } from '../db/client.js';
import { course, courseSession, educator, user } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import type { Viewer } from '../accounts/session.js';
import { ownedCourse, requireEducator } from './access.js';
import { sessionStatus } from './session-status.js';

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

export async function createCourse(db: Db, viewer: Viewer, input: CourseFields) {
  requireEducator(viewer);
  const [row] = await db.insert(course).values({
    ...columns(input),
    educatorId: viewer.user.id,
    educatorName: `${viewer.user.firstName} ${viewer.user.lastName}`.trim(),
    status: 'draft',
  }).returning({ id: course.id });
  return row.id;
}

export async function updateCourse(db: Db, viewer: Viewer, courseId: string, input: CourseFields) {
  await ownedCourse(db, courseId, viewer);
  await db.update(course).set({ ...columns(input), updatedAt: new Date() }).where(eq(course.id, courseId));
}

/** A course is published once it has a session to enrol in. */
export async function publishCourse(db: Db, viewer: Viewer, courseId: string) {
  const c = await ownedCourse(db, courseId, viewer);
  if (c.status === 'published') return;
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(courseSession)
    .where(and(eq(courseSession.courseId, courseId), eq(courseSession.status, 'scheduled')));
  if (n === 0) throw new AppError(400, 'no_sessions', 'Add at least one session before publishing', { fields: { sessions: 'Add a session first' } });
  await db.update(course).set({ status: 'published', publishedAt: c.publishedAt ?? new Date(), updatedAt: new Date() }).where(eq(course.id, courseId));
}

export async function archiveCourse(db: Db, viewer: Viewer, courseId: string) {
  await ownedCourse(db, courseId, viewer);
  await db.update(course).set({ status: 'archived', updatedAt: new Date() }).where(eq(course.id, courseId));
}

export async function setCourseCover(db: Db, viewer: Viewer, courseId: string, url: string) {
  await ownedCourse(db, courseId, viewer);
  await db.update(course).set({ coverImage: url, updatedAt: new Date() }).where(eq(course.id, courseId));
}

/** What the course page's statement adds to the course row, as JSON (timestamps as PostgreSQL text). */
interface ViewExtras {
  sessions: {
    id: string; startsOn: string; endsOn: string; capacity: number; minToRun: number; timeZone: string; status: string; seatsTaken: number;
    waitlisted: number; classTimes: { id: string; startsAt: string; endsAt: string; location: string | null; meetingUrl: string | null }[];
  }[];
  mine: { id: string; sessionId: string; status: string; position: number | null }[];
  reviews: { id: string; rating: number; text: string; learnerId: string; createdAt: string; updatedAt: string; firstName: string; lastName: string; image: string | null }[];
  educatorRating: { avg: number; n: number };
}

/** No learner: matches no enrolment. */
const NOBODY = '00000000-0000-0000-0000-000000000000';

/**
 * The course page in one statement, prepared once per database: the course row (the
 * columns the page shows, never the search vectors: a wide, often compressed value that
 * would be read, decompressed and sent for nothing) with its educator, and as JSON its
 * sessions with class times and waitlist counts, the viewer's enrolments, the latest
 * reviews and the educator's rating. The page is the most visited one: one round trip,
 * each part an index lookup, whatever the number of sessions.
 */
function courseViewStatement(db: Db) {
  const learnerId = sql.placeholder('learnerId');
  const extras = sql<ViewExtras>`json_build_object(
    'sessions', coalesce((
      select json_agg(json_build_object(
        'id', s.id, 'startsOn', s.starts_on, 'endsOn', s.ends_on, 'capacity', s.capacity, 'minToRun', s.min_to_run,
        'timeZone', s.time_zone, 'status', s.status, 'seatsTaken', s.seats_taken,
        'waitlisted', (select count(*)::int from enrolment w where w.session_id = s.id and w.status = 'waitlisted'),
        'classTimes', coalesce((
          select json_agg(json_build_object('id', t.id, 'startsAt', t.starts_at::text, 'endsAt', t.ends_at::text, 'location', t.location, 'meetingUrl', t.meeting_url) order by t.starts_at)
          from class_time t where t.session_id = s.id), '[]'::json)
      ) order by s.starts_on)
      from course_session s where s.course_id = "course"."id"), '[]'::json),
    'mine', coalesce((
      select json_agg(json_build_object('id', m.id, 'sessionId', m.session_id, 'status', m.status,
        'position', case when m.status = 'waitlisted' then (select count(*)::int from enrolment w where w.session_id = m.session_id and w.status = 'waitlisted' and w.created_at <= m.created_at) end))
      from enrolment m where m.course_id = "course"."id" and m.learner_id = ${learnerId} and m.status <> 'dropped'), '[]'::json),
    'reviews', coalesce((
      select json_agg(json_build_object('id', r.id, 'rating', r.rating, 'text', r.text, 'learnerId', r.learner_id,
        'createdAt', r.created_at::text, 'updatedAt', r.updated_at::text, 'firstName', r.first_name, 'lastName', r.last_name, 'image', r.image) order by r.updated_at desc)
      from (select r.*, ru.first_name, ru.last_name, ru.profile_image as image from review r join "user" ru on ru.id = r.learner_id
            where r.course_id = "course"."id" order by r.updated_at desc limit 50) r), '[]'::json),
    'educatorRating', (
      select json_build_object('avg', coalesce(sum(c2.rating_avg * c2.rating_count) / nullif(sum(c2.rating_count), 0), 0)::real, 'n', coalesce(sum(c2.rating_count), 0)::int)
      from course c2 where c2.educator_id = "course"."educator_id" and c2.status = 'published')
  )`;
  return db
    .select({
      c: {
        id: course.id, educatorId: course.educatorId, title: course.title, summary: course.summary, description: course.description,
        category: course.category, level: course.level, language: course.language, audience: course.audience, format: course.format,
        city: course.city, address: course.address, coverImage: course.coverImage, priceCents: course.priceCents, currency: course.currency,
        installments: course.installments, refundPolicy: course.refundPolicy, status: course.status, ratingAvg: course.ratingAvg,
        ratingCount: course.ratingCount, publishedAt: course.publishedAt,
      },
      u: { firstName: user.firstName, lastName: user.lastName, image: user.image },
      e: { headline: educator.headline, bio: educator.bio, profileImage: educator.profileImage },
      x: extras,
    })
    .from(course).innerJoin(user, eq(user.id, course.educatorId)).innerJoin(educator, eq(educator.userId, course.educatorId))
    .where(eq(course.id, sql.placeholder('courseId'))).limit(1).prepare('course_view');
}
const statementByDb = new WeakMap<Db, ReturnType<typeof courseViewStatement>>();

/** A timestamp as PostgreSQL writes it, in the ISO form the API answers (as Drizzle reads it: new Date(text)). */
const iso = (pgText: string) => new Date(pgText).toISOString();

/**
 * Everything a learner needs to decide, in one statement whatever the number of sessions:
 * course + educator, sessions, class times, waitlist counts, the viewer's enrolments,
 * reviews, the educator's rating.
 */
export async function getCourseView(db: Db, viewer: Viewer | null, courseId: string): Promise<CourseView> {
  let q = statementByDb.get(db);
  if (!q) statementByDb.set(db, (q = courseViewStatement(db)));
  const [row] = await q.execute({ courseId, learnerId: viewer?.user.id ?? NOBODY });
  const isOwner = !!viewer && row?.c.educatorId === viewer.user.id;
  if (!row || (row.c.status !== 'published' && !isOwner)) throw AppError.notFound('This course does not exist');
  const c = row.c;
  const { sessions, mine, reviews, educatorRating } = row.x;
  const mineBySession = new Map(mine.map((m) => [m.sessionId, m]));
  const everEnrolled = mine.some((m) => m.status === 'active' || m.status === 'completed');

  return {
    id: c.id,
    title: c.title,
    summary: c.summary,
    description: c.description,
    category: c.category,
    level: c.level,
    language: c.language,
    audience: c.audience,
    format: c.format as 'online' | 'in_person',
    city: c.city,
    address: c.address,
    coverImage: c.coverImage,
    priceCents: c.priceCents,
    currency: c.currency,
    installments: c.installments,
    refundPolicy: c.refundPolicy,
    status: c.status as 'draft' | 'published' | 'archived',
    ratingAvg: c.ratingAvg,
    ratingCount: c.ratingCount,
    publishedAt: c.publishedAt?.toISOString() ?? null,
    educator: {
      userId: c.educatorId,
      name: `${row.u.firstName} ${row.u.lastName}`.trim(),
      headline: row.e.headline,
      bio: row.e.bio,
      profileImage: row.e.profileImage || row.u.image || DEFAULT_AVATAR,
      ratingAvg: educatorRating.avg,
      ratingCount: educatorRating.n,
    },
    isOwner,
    sessions: sessions.map((s) => {
      const my = mineBySession.get(s.id);
      return {
        id: s.id,
        startsOn: s.startsOn,
        endsOn: s.endsOn,
        capacity: s.capacity,
        minToRun: s.minToRun,
        timeZone: s.timeZone,
        status: sessionStatus(s),
        seatsTaken: s.seatsTaken,
        seatsLeft: Math.max(0, s.capacity - s.seatsTaken),
        waitlisted: s.waitlisted,
        classTimes: s.classTimes.map((t) => ({
          id: t.id, startsAt: iso(t.startsAt), endsAt: iso(t.endsAt), location: t.location, meetingUrl: my?.status === 'active' || isOwner ? t.meetingUrl : null,
        })),
        myEnrolment: my ? { id: my.id, status: my.status as 'active', waitlistPosition: my.position } : null,
      };
    }),
    reviews: reviews.map((r) => ({
      id: r.id, rating: r.rating, text: r.text, authorName: `${r.firstName} ${r.lastName.slice(0, 1)}.`.trim(), authorImage: r.image || DEFAULT_AVATAR,
      createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt), mine: !!viewer && r.learnerId === viewer.user.id,
    })),
    canReview: everEnrolled && !isOwner,
  };
}
