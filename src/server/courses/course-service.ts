import { and, eq, sql } from 'drizzle-orm';
import type { CourseInput } from '../../shared/courses-schemas.js';
import type { AppServices } from '../app-services.js';
import { course, courseSession } from '../db/schema/courses.js';
import { AppError } from '../http/errors.js';
import type { Viewer } from '../accounts/viewer.js';
import { requireEducator } from '../educators/require-educator.js';
import { ownedCourse } from './access.js';

/** An educator's course: create, edit, publish, archive, its cover picture (the course page is course-page.ts). */

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
    waitlistHoldMinutes: input.waitlistHoldMinutes,
    minAge: input.minAge ?? null,
    maxAge: input.maxAge ?? null,
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
