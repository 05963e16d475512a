import { and, desc, eq, ne } from 'drizzle-orm';
import { DEFAULT_AVATAR } from '../../shared/accounts.js';
import type { EducatorProfile } from '../../shared/educators-schemas.js';
import type { AppServices } from '../app-services.js';
import { user } from '../db/schema/accounts.js';
import { course } from '../db/schema/courses.js';
import { educator } from '../db/schema/educators.js';
import { AppError } from '../http/errors.js';
import type { Viewer } from '../accounts/viewer.js';

interface Fields {
  headline: string;
  bio: string;
  subjects: string[];
  links: string[];
}

/** Step 1 of onboarding: the user becomes an educator. */
export async function becomeEducator(app: AppServices, viewer: Viewer, input: Fields) {
  const db = app.database.db;
  const already = () => new AppError(409, 'already_educator', 'You are already an educator');
  if (viewer.educator) throw already();
  // Two submissions at once: the primary key decides, the loser is told, not a 500.
  const rows = await db
    .insert(educator)
    .values({ userId: viewer.user.id, ...input })
    .onConflictDoNothing()
    .returning({ userId: educator.userId });
  if (!rows.length) throw already();
}

/** Only the educator edits their own profile. */
export function assertOwnEducator(viewer: Viewer, educatorId: string) {
  if (educatorId !== viewer.user.id) throw AppError.forbidden('You can only edit your own educator profile');
  if (!viewer.educator) throw AppError.notFound('This educator does not exist');
}

export async function updateEducator(app: AppServices, viewer: Viewer, educatorId: string, input: Fields) {
  const db = app.database.db;
  assertOwnEducator(viewer, educatorId);
  await db.update(educator).set(input).where(eq(educator.userId, educatorId));
}

/** A new profile photo (read only once the caller is known to be this educator). */
export async function setEducatorPhoto(app: AppServices, viewer: Viewer, educatorId: string, readPicture: () => Promise<Buffer>) {
  assertOwnEducator(viewer, educatorId);
  const url = await app.images.saveEducatorPhoto(await readPicture());
  await app.database.db.update(educator).set({ profileImage: url }).where(eq(educator.userId, educatorId));
  return url;
}

/** The public profile: bio, published courses (all courses for the owner), rating. */
export async function getEducatorProfile(app: AppServices, viewer: Viewer | null, educatorId: string): Promise<EducatorProfile> {
  const db = app.database.db;
  const [row] = await db
    .select({ e: educator, u: { firstName: user.firstName, lastName: user.lastName, image: user.image, city: user.city } })
    .from(educator)
    .innerJoin(user, eq(user.id, educator.userId))
    .where(eq(educator.userId, educatorId))
    .limit(1);
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
