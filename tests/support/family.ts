import { sql } from 'drizzle-orm';
import type { TestApp } from './app.js';
import { post } from './http.js';

/**
 * Family accounts (ADR 0074) for tests: learner profiles of an account, and seats for them.
 * Profiles are inserted straight into accounts' table (its API, /api/me/learners, is another
 * piece of work); the seats go through the API like a parent's.
 */

export interface LearnerProfileRow {
  id: string;
  firstName: string;
}

/** A learner profile of this account: a first name and an age (or range) as of today. */
export async function makeLearnerProfile(
  app: TestApp,
  account: { id: string },
  p: { firstName: string; age?: number; ageMax?: number; notes?: string | null },
): Promise<LearnerProfileRow> {
  const min = p.age ?? 9;
  const max = p.ageMax ?? min;
  const res = await app.database.db.execute(sql`insert into learner_profile (account_id, first_name, age_min, age_max, ages_as_of, notes)
    values (${account.id}, ${p.firstName}, ${min}, ${max}, current_date, ${p.notes ?? null}) returning id`);
  const rows = (res as unknown as { rows: { id: string }[] }).rows;
  return { id: rows[0].id, firstName: p.firstName };
}

/** Sets a course's age range (the editor's fields are another piece of work). */
export async function setCourseAges(app: TestApp, courseId: string, minAge: number | null, maxAge: number | null): Promise<void> {
  await app.database.db.execute(sql`update course set min_age = ${minAge}, max_age = ${maxAge} where id = ${courseId}`);
}

/** POST .../enrol for these learners ("me": the account holder). */
export const enrolLearners = (app: TestApp, parent: { cookie: string }, courseId: string, sessionId: string, learnerIds: string[]) =>
  post(app, `/api/courses/${courseId}/sessions/${sessionId}/enrol`, { learnerIds }, { cookie: parent.cookie });

/** POST .../drop for one learner ("me" or a profile id). */
export const dropLearner = (app: TestApp, parent: { cookie: string }, courseId: string, sessionId: string, learnerId: string) =>
  post(app, `/api/courses/${courseId}/sessions/${sessionId}/drop`, { learnerId }, { cookie: parent.cookie });
