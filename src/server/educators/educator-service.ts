import { createEducatorProfile, updateEducatorProfile, type EducatorFields } from '../accounts/educator-profile.js';
import type { AppServices } from '../app-services.js';
import { AppError } from '../http/errors.js';
import type { Viewer } from '../accounts/viewer.js';

type Fields = EducatorFields;

/** Step 1 of onboarding: the user becomes an educator. */
export async function becomeEducator(app: AppServices, viewer: Viewer, input: Fields) {
  const already = () => new AppError(409, 'already_educator', 'You are already an educator');
  if (viewer.educator) throw already();
  // Two submissions at once: the primary key decides, the loser is told, not a 500.
  if (!(await createEducatorProfile(app.database.db, viewer.user.id, input))) throw already();
}

/** Only the educator edits their own profile. */
export function assertOwnEducator(viewer: Viewer, educatorId: string) {
  if (educatorId !== viewer.user.id) throw AppError.forbidden('You can only edit your own educator profile');
  if (!viewer.educator) throw AppError.notFound('This educator does not exist');
}

export async function updateEducator(app: AppServices, viewer: Viewer, educatorId: string, input: Fields) {
  assertOwnEducator(viewer, educatorId);
  await updateEducatorProfile(app.database.db, educatorId, input);
}

/** A new profile photo (read only once the caller is known to be this educator). */
export async function setEducatorPhoto(app: AppServices, viewer: Viewer, educatorId: string, readPicture: () => Promise<Buffer>) {
  assertOwnEducator(viewer, educatorId);
  const url = await app.images.saveEducatorPhoto(await readPicture());
  await updateEducatorProfile(app.database.db, educatorId, { profileImage: url });
  return url;
}
