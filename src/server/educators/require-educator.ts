import type { Viewer } from '../accounts/viewer.js';
import { AppError } from '../http/errors.js';

/** The caller must be an educator (a user with an educator record). */
export function requireEducator(viewer: Viewer) {
  if (!viewer.educator)
    throw new AppError(403, 'not_educator', 'Set up your educator profile first', { fields: { next: '/educator/onboard' } });
}
