import { and, desc, eq, ne } from 'drizzle-orm';
import { DEFAULT_AVATAR } from '../../shared/accounts.js';
import type { EducatorProfile } from '../../shared/educators-schemas.js';
import { educatorProfileOf } from '../accounts/educator-profile.js';
import type { Viewer } from '../accounts/viewer.js';
import type { AppServices } from '../app-services.js';
import { course } from '../db/schema/courses.js';
import { AppError } from '../http/errors.js';

/**
 * GET /api/educators/:educatorId, the public profile: bio, published courses (all courses
 * for the owner), rating. It lives with courses, which build on educators (the profile is
 * read from accounts, the courses are courses'): ADR 0035.
 */
export async function getEducatorProfile(app: AppServices, viewer: Viewer | null, educatorId: string): Promise<EducatorProfile> {
  const db = app.database.db;
  const row = await educatorProfileOf(db, educatorId);
  if (!row) throw AppError.notFound('This educator does not exist');
  const isMe = viewer?.user.id === educatorId;
  const courses = await db
    .select()
    .from(course)
    .where(and(eq(course.educatorId, educatorId), isMe ? ne(course.status, 'archived') : eq(course.status, 'published')))
    .orderBy(desc(course.updatedAt))
    .limit(100);
  const rated = courses.filter((c) => c.status === 'published' && c.ratingCount > 0);
  const count = rated.reduce((n, c) => n + c.ratingCount, 0);
  return {
    userId: educatorId,
    name: `${row.u.firstName} ${row.u.lastName}`.trim(),
    headline: row.e.headline,
    bio: row.e.bio,
    subjects: row.e.subjects,
    links: row.e.links,
    profileImage: row.e.profileImage || row.u.image || DEFAULT_AVATAR,
    city: row.u.city,
    ratingAvg: count ? rated.reduce((s, c) => s + c.ratingAvg * c.ratingCount, 0) / count : 0,
    ratingCount: count,
    isMe,
    payoutsReady: !!row.e.stripeConnectAccountId,
    courses: courses.map((c) => ({
      id: c.id,
      title: c.title,
      summary: c.summary,
      status: c.status,
      priceCents: c.priceCents,
      currency: c.currency,
      ratingAvg: c.ratingAvg,
      ratingCount: c.ratingCount,
      nextStartOn: c.nextStartOn,
      coverImage: c.coverImage,
    })),
  };
}
