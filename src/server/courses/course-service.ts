import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { DEFAULT_AVATAR } from '../../shared/accounts.js';
import type { CourseInput, CourseView } from '../../shared/courses-schemas.js';
import type { Db } from '../db/client.js';
import { classTime, course, courseSession, educator, enrolment, review, user } from '../db/schema.js';
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

/**
 * The course page's queries, prepared once per database: the page is the most visited
 * one, and parsing and planning eight statements per view cost more than running them.
 */
function courseViewStatements(db: Db) {
  const courseId = sql.placeholder('courseId');
  const learnerId = sql.placeholder('learnerId');
  const sessionsOfCourse = db.select({ id: courseSession.id }).from(courseSession).where(eq(courseSession.courseId, courseId));
  return {
    course: db
      .select({ c: course, u: { firstName: user.firstName, lastName: user.lastName, image: user.image }, e: { headline: educator.headline, bio: educator.bio, profileImage: educator.profileImage } })
      .from(course).innerJoin(user, eq(user.id, course.educatorId)).innerJoin(educator, eq(educator.userId, course.educatorId))
      .where(eq(course.id, courseId)).limit(1).prepare('course_view_course'),
    sessions: db.select().from(courseSession).where(eq(courseSession.courseId, courseId)).orderBy(asc(courseSession.startsOn)).prepare('course_view_sessions'),
    times: db.select().from(classTime).where(inArray(classTime.sessionId, sessionsOfCourse)).orderBy(asc(classTime.startsAt)).prepare('course_view_times'),
    waits: db.select({ sessionId: enrolment.sessionId, n: sql<number>`count(*)::int` }).from(enrolment)
      .where(and(eq(enrolment.courseId, courseId), eq(enrolment.status, 'waitlisted'))).groupBy(enrolment.sessionId).prepare('course_view_waits'),
    mine: db.select({
      id: enrolment.id, sessionId: enrolment.sessionId, status: enrolment.status,
      // Qualified by hand: in a select list Drizzle writes bare column names, which the
      // subquery would take as its own (w.created_at <= w.created_at: everyone last).
      position: sql<number | null>`case when enrolment.status = 'waitlisted' then (select count(*)::int from enrolment w where w.session_id = enrolment.session_id and w.status = 'waitlisted' and w.created_at <= enrolment.created_at) end`,
    }).from(enrolment).where(and(eq(enrolment.courseId, courseId), eq(enrolment.learnerId, learnerId), ne(enrolment.status, 'dropped'))).prepare('course_view_mine'),
    reviews: db.select({ r: review, firstName: user.firstName, lastName: user.lastName, image: user.image })
      .from(review).innerJoin(user, eq(user.id, review.learnerId))
      .where(eq(review.courseId, courseId)).orderBy(desc(review.updatedAt)).limit(50).prepare('course_view_reviews'),
    educatorRating: db.select({ avg: sql<number>`coalesce(sum(rating_avg * rating_count) / nullif(sum(rating_count), 0), 0)::real`, n: sql<number>`coalesce(sum(rating_count), 0)::int` })
      .from(course).where(and(eq(course.educatorId, sql.placeholder('educatorId')), eq(course.status, 'published'))).prepare('course_view_educator_rating'),
  };
}
const statementsByDb = new WeakMap<Db, ReturnType<typeof courseViewStatements>>();

/**
 * Everything a learner needs to decide, in a fixed number of queries whatever the number
 * of sessions: course + educator, sessions, class times, waitlist counts, the viewer's
 * enrolments, reviews, the educator's rating.
 */
export async function getCourseView(db: Db, viewer: Viewer | null, courseId: string): Promise<CourseView> {
  let q = statementsByDb.get(db);
  if (!q) statementsByDb.set(db, (q = courseViewStatements(db)));
  const [row] = await q.course.execute({ courseId });
  const isOwner = !!viewer && row?.c.educatorId === viewer.user.id;
  if (!row || (row.c.status !== 'published' && !isOwner)) throw AppError.notFound('This course does not exist');
  const c = row.c;

  const [sessions, times, waits, mine, reviews, educatorRating] = await Promise.all([
    q.sessions.execute({ courseId }),
    q.times.execute({ courseId }),
    q.waits.execute({ courseId }),
    viewer ? q.mine.execute({ courseId, learnerId: viewer.user.id }) : Promise.resolve([]),
    q.reviews.execute({ courseId }),
    q.educatorRating.execute({ educatorId: c.educatorId }),
  ]);
  const waitBySession = new Map(waits.map((w) => [w.sessionId, w.n]));
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
      ratingAvg: educatorRating[0]?.avg ?? 0,
      ratingCount: educatorRating[0]?.n ?? 0,
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
        waitlisted: waitBySession.get(s.id) ?? 0,
        classTimes: times.filter((t) => t.sessionId === s.id).map((t) => ({
          id: t.id, startsAt: t.startsAt.toISOString(), endsAt: t.endsAt.toISOString(), location: t.location, meetingUrl: my?.status === 'active' || isOwner ? t.meetingUrl : null,
        })),
        myEnrolment: my ? { id: my.id, status: my.status as 'active', waitlistPosition: my.position } : null,
      };
    }),
    reviews: reviews.map(({ r, firstName, lastName, image }) => ({
      id: r.id, rating: r.rating, text: r.text, authorName: `${firstName} ${lastName.slice(0, 1)}.`.trim(), authorImage: image || DEFAULT_AVATAR,
      createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(), mine: !!viewer && r.learnerId === viewer.user.id,
    })),
    canReview: everEnrolled && !isOwner,
  };
}
