import { sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { isUuid } from '../../shared/ids.js';
import { rowsOf } from '../db/transaction.js';
import { AppError } from '../http/errors.js';
import { educatorProfiles, people } from '../accounts/people.js';
import { allCourses } from '../courses/relations.js';

/** Whose analytics a request reads: the educator, an optional course of theirs, and their courses. */
export interface AnalyticsScope {
  educatorId: string;
  courseId: string | null;
  courses: { id: string; title: string; status: string }[];
}

/**
 * Only the educator (and admins) may read an educator's figures; anyone else gets the
 * same 404 as an unknown educator, so the answer does not say who is an educator.
 */
export async function analyticsScope(app: AppServices, viewer: Viewer, educatorId: string, course?: string): Promise<AnalyticsScope> {
  const courseId = await checkAccess(app, viewer, educatorId, course);
  return loadScope(app, educatorId, courseId);
}

/** The access check (every request, cached figures or not); answers the course filter. */
export async function checkAccess(app: AppServices, viewer: Viewer, educatorId: string, course?: string): Promise<string | null> {
  const notFound = new AppError(404, 'not_found', 'These analytics do not exist, or are not yours to see');
  if (viewer.user.id !== educatorId) {
    const [me] = await rowsOf<{ role: string }>(app.database.db, sql`select role from ${people} u where id = ${viewer.user.id}`);
    if (me?.role !== 'admin') throw notFound;
  }
  const [edu] = await rowsOf<{ ok: number }>(app.database.db, sql`select 1 as ok from ${educatorProfiles} e where user_id = ${educatorId}`);
  if (!edu) throw notFound;
  if (course === undefined || course === '') return null;
  if (!isUuid(course)) throw AppError.badRequest('course: Unknown course', { course: 'Unknown course' });
  return course.toLowerCase();
}

/** The educator's courses (and the course filter checked against them). */
export async function loadScope(app: AppServices, educatorId: string, courseId: string | null): Promise<AnalyticsScope> {
  const courses = await rowsOf<{ id: string; title: string; status: string }>(
    app.database.db,
    sql`select id, title, status from ${allCourses} c where educator_id = ${educatorId} order by lower(title), id`,
  );
  if (courseId && !courses.some((c) => c.id === courseId)) throw new AppError(404, 'not_found', 'This course is not one of yours');
  return { educatorId, courseId, courses };
}
