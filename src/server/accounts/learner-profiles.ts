import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { learnerProfile } from '../db/schema/accounts.js';
import type { Conn } from '../db/transaction.js';

/**
 * Family accounts (ADR 0074): the learner profiles of an account, owned by accounts. Other
 * domains read them through this module (a seat's learner, the roster's name, the age check)
 * or through the `learnerProfiles` relation in their own SQL; only accounts writes them.
 */

export type LearnerProfile = typeof learnerProfile.$inferSelect;

/** The relation other domains may name in SQL (ADR 0035): `left join ${learnerProfiles} lp on lp.id = e.learner_profile_id`. */
export const learnerProfiles = sql`(select id, account_id, first_name, age_min, age_max, ages_as_of, notes from learner_profile)`;

/** Whole years between two ISO dates (`YYYY-MM-DD`), as birthdays count them. */
function yearsBetween(from: string, to: string): number {
  const [fy, fm, fd] = from.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = to.split('-').map(Number) as [number, number, number];
  return ty - fy - (tm < fm || (tm === fm && td < fd) ? 1 : 0);
}

/** The profile's age today: the age (or range) given, grown by the whole years since it was given. */
export function learnerAgeNow(
  profile: Pick<LearnerProfile, 'ageMin' | 'ageMax' | 'agesAsOf'>,
  today: string = new Date().toISOString().slice(0, 10),
): { min: number; max: number } {
  const grown = Math.max(0, yearsBetween(profile.agesAsOf, today));
  return { min: profile.ageMin + grown, max: profile.ageMax + grown };
}

/**
 * Whether a learner of these ages fits a course's age range: the whole of the learner's range
 * lies within the course's (a bound the course does not set is no bound). The account holder,
 * enrolling themselves, has no profile and is not checked here (ADR 0074).
 */
export function agesFit(ages: { min: number; max: number }, course: { minAge: number | null; maxAge: number | null }): boolean {
  return (course.minAge === null || ages.min >= course.minAge) && (course.maxAge === null || ages.max <= course.maxAge);
}

/** The account's learner profiles (not those removed or that became accounts of their own), oldest first. */
export async function learnerProfilesOf(conn: Conn, accountId: string): Promise<LearnerProfile[]> {
  return conn
    .select()
    .from(learnerProfile)
    .where(and(eq(learnerProfile.accountId, accountId), isNull(learnerProfile.becameUserId), isNull(learnerProfile.removedAt)))
    .orderBy(asc(learnerProfile.createdAt), asc(learnerProfile.id));
}

/**
 * These profiles, if every one belongs to the account (and was neither removed nor became an
 * account of its own); null otherwise, so a caller answers 404 for another account's profile
 * id, never telling it exists. Inside a transaction the rows stay share-locked until it ends,
 * so a removal (which locks the profile for update) waits for a seat being taken for it and
 * then sees that seat (ADR 0074).
 */
export async function ownedLearnerProfiles(conn: Conn, accountId: string, ids: readonly string[]): Promise<LearnerProfile[] | null> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return [];
  const rows = await conn
    .select()
    .from(learnerProfile)
    .where(
      and(
        inArray(learnerProfile.id, wanted),
        eq(learnerProfile.accountId, accountId),
        isNull(learnerProfile.becameUserId),
        isNull(learnerProfile.removedAt),
      ),
    )
    .for('share');
  return rows.length === wanted.length ? rows : null;
}

/** First names of some profiles (the roster, dashboards, reminders say whom a seat is for): id -> first name. */
export async function learnerNamesOf(conn: Conn, ids: Iterable<string>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await conn
    .select({ id: learnerProfile.id, firstName: learnerProfile.firstName })
    .from(learnerProfile)
    .where(inArray(learnerProfile.id, wanted));
  return new Map(rows.map((r) => [r.id, r.firstName]));
}

/**
 * The account holders' learner profiles in use (not those that became accounts of their own),
 * for other domains' SQL: `from ${liveLearnerProfiles} lp where lp.account_id = ...` (the
 * course page lists the viewer's learners with it, ADR 0074).
 */
export const liveLearnerProfiles = sql`(select id, account_id, first_name, age_min, age_max, ages_as_of, created_at from learner_profile where became_user_id is null)`;
