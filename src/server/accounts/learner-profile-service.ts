import { and, eq, isNull, sql } from 'drizzle-orm';
import { agesText, MAX_LEARNER_PROFILES, type LearnerProfileView } from '../../shared/learner-profile-schemas.js';
import type { AppServices } from '../app-services.js';
import { learnerProfile, user } from '../db/schema/accounts.js';
import { PG, pgCode } from '../db/errors.js';
import type { Tx } from '../db/transaction.js';
import { AppError } from '../http/errors.js';
import { learnerAgeNow, learnerProfilesOf, type LearnerProfile } from './learner-profiles.js';
import type { Viewer } from './viewer.js';

/**
 * The signed-in account's learner profiles (ADR 0074): list, add, edit, remove. Another
 * account's profile answers as an unknown one (404). A profile with a live seat is not
 * removed (courses refuses on `learner-profile.removing`); one with only past classes is
 * hidden (`removed_at`) so that history keeps its name; one with none is deleted.
 */

type App = Pick<AppServices, 'database' | 'accountEvents'>;
const today = () => new Date().toISOString().slice(0, 10);

export function presentLearnerProfile(p: LearnerProfile): LearnerProfileView {
  const ages = learnerAgeNow(p);
  return { id: p.id, firstName: p.firstName, age: agesText(ages), ageMin: ages.min, ageMax: ages.max, notes: p.notes };
}

export async function listLearnerProfiles(app: App, viewer: Viewer) {
  const rows = await learnerProfilesOf(app.database.db, viewer.user.id);
  return { items: rows.map(presentLearnerProfile), max: MAX_LEARNER_PROFILES };
}

export async function addLearnerProfile(
  app: App,
  viewer: Viewer,
  input: { firstName: string; age: { min: number; max: number }; notes?: string | null },
): Promise<LearnerProfileView> {
  return app.database.db.transaction(async (tx) => {
    // One add at a time per account, so the cap holds under concurrent requests.
    await tx.select({ id: user.id }).from(user).where(eq(user.id, viewer.user.id)).for('no key update');
    const kept = await learnerProfilesOf(tx, viewer.user.id);
    if (kept.length >= MAX_LEARNER_PROFILES)
      throw new AppError(
        409,
        'too_many_learners',
        `An account can keep up to ${MAX_LEARNER_PROFILES} learners. Remove one you no longer enrol to add another.`,
      );
    const [row] = await tx
      .insert(learnerProfile)
      .values({
        accountId: viewer.user.id,
        firstName: input.firstName,
        ageMin: input.age.min,
        ageMax: input.age.max,
        agesAsOf: today(),
        notes: input.notes ?? null,
      })
      .returning();
    return presentLearnerProfile(row!);
  });
}

/** The account's own live profile, locked for the change; 404 for any other id. */
async function lockOwn(tx: Tx, viewer: Viewer, id: string): Promise<LearnerProfile> {
  const [row] = await tx
    .select()
    .from(learnerProfile)
    .where(
      and(
        eq(learnerProfile.id, id),
        eq(learnerProfile.accountId, viewer.user.id),
        isNull(learnerProfile.becameUserId),
        isNull(learnerProfile.removedAt),
      ),
    )
    .for('update');
  if (!row) throw AppError.notFound('This learner was not found');
  return row;
}

export async function updateLearnerProfile(
  app: App,
  viewer: Viewer,
  id: string,
  input: { firstName?: string; age?: { min: number; max: number }; notes?: string | null },
): Promise<LearnerProfileView> {
  return app.database.db.transaction(async (tx) => {
    await lockOwn(tx, viewer, id);
    const [row] = await tx
      .update(learnerProfile)
      .set({
        ...(input.firstName !== undefined && { firstName: input.firstName }),
        // A new age counts from today (it grows from there).
        ...(input.age && { ageMin: input.age.min, ageMax: input.age.max, agesAsOf: today() }),
        ...(input.notes !== undefined && { notes: input.notes }),
        updatedAt: new Date(),
      })
      .where(eq(learnerProfile.id, id))
      .returning();
    return presentLearnerProfile(row!);
  });
}

export async function removeLearnerProfile(app: App, viewer: Viewer, id: string): Promise<{ message: string }> {
  const { value } = await app.accountEvents.transaction(app.database.db, async (tx, announce) => {
    const profile = await lockOwn(tx, viewer, id);
    // Courses refuses (409) while the learner holds a live seat.
    await announce('learner-profile.removing', { accountId: viewer.user.id, learnerProfileId: id, firstName: profile.firstName });
    await deleteOrHide(tx, id);
    return { message: `${profile.firstName} was removed from your learners.` };
  });
  return value;
}

/**
 * Deletes the profile; if past enrolments still name it (their foreign key has no cascade),
 * hides it instead, so the educator's history keeps the learner's name. Accounts never read
 * courses' table: the database's foreign key says whether anything names the profile.
 */
async function deleteOrHide(tx: Tx, id: string): Promise<'deleted' | 'hidden'> {
  try {
    await tx.transaction(async (sp) => {
      await sp.delete(learnerProfile).where(eq(learnerProfile.id, id));
    });
    return 'deleted';
  } catch (err) {
    if (pgCode(err) !== PG.foreignKeyViolation) throw err;
    await tx.update(learnerProfile).set({ removedAt: new Date(), updatedAt: new Date() }).where(eq(learnerProfile.id, id));
    return 'hidden';
  }
}

/**
 * An erased account's learner profiles (inside the erasing transaction, after every domain
 * heard `user.erased`): deleted, or, where past enrolments still name one, kept under a
 * pseudonym with nothing personal left (no name, no age, no notes), like the account's row.
 */
export async function eraseLearnerProfiles(tx: Tx, accountId: string): Promise<void> {
  const rows = await tx.select({ id: learnerProfile.id }).from(learnerProfile).where(eq(learnerProfile.accountId, accountId)).for('update');
  for (const { id } of rows) {
    if ((await deleteOrHide(tx, id)) === 'hidden')
      await tx
        .update(learnerProfile)
        .set({ firstName: 'Deleted learner', ageMin: 0, ageMax: 0, notes: null, removedAt: sql`coalesce(removed_at, now())` })
        .where(eq(learnerProfile.id, id));
  }
}
