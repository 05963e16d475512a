import { eq } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { user } from '../db/schema/accounts.js';
import { AppError } from '../http/errors.js';
import { MESSAGES } from '../../shared/accounts.js';
import type { Viewer } from './viewer.js';

interface ProfileChanges {
  firstName?: string;
  lastName?: string;
  city?: string;
  timeZone?: string;
}

/** Only the owner edits a user record. */
export function assertOwner(viewer: Viewer, userId: string) {
  if (viewer.user.id !== userId) throw AppError.forbidden('You can only edit your own profile');
}

/**
 * The signed-in user edits their names and city. A new name is announced in the same
 * transaction, so every copy of it (an educator's name on their courses) changes with it.
 */
export async function updateProfile(app: AppServices, viewer: Viewer, userId: string, input: ProfileChanges) {
  assertOwner(viewer, userId);
  const { firstName, lastName, city } = input;
  const changes: Partial<typeof user.$inferInsert> = { updatedAt: new Date() };
  if (firstName !== undefined) changes.firstName = firstName;
  if (lastName !== undefined) changes.lastName = lastName;
  if (city !== undefined) changes.city = city || null;
  if (input.timeZone !== undefined) changes.timeZone = input.timeZone;
  if (firstName !== undefined || lastName !== undefined) {
    changes.name = `${firstName ?? viewer.user.firstName} ${lastName ?? viewer.user.lastName}`.trim();
  }
  try {
    await app.accountEvents.transaction(app.database.db, async (tx, announce) => {
      await tx.update(user).set(changes).where(eq(user.id, viewer.user.id));
      if (changes.name) await announce('user.renamed', { userId: viewer.user.id, name: changes.name });
    });
  } catch (err) {
    if (err instanceof AppError) throw err;
    app.log.error({ err }, 'profile update failed');
    throw new AppError(500, 'update_error', city !== undefined ? MESSAGES.locationError : 'Error updating profile');
  }
}
