import { sql } from 'drizzle-orm';
import type { TestApp } from './app.js';

/**
 * Family accounts (ADR 0074) for the learning loop's tests (helper fam-c). A learner profile of
 * an account and a seat for it, written as courses writes one (the row, the seat counted, the
 * `enrolment.created` announcement in the same transaction, so invitations follow), and its drop.
 * Made before a parent could enrol their learners through the API (fam-b's seat core); once that
 * is in main these two call it instead, and their callers stay as they are.
 */
export interface ProfileSeat {
  /** The learner profile's id: the seat's learner in attendance (`learnerId` of a mark). */
  profileId: string;
  enrolmentId: string;
  firstName: string;
}

const one = async <T>(tx: { execute: (q: ReturnType<typeof sql>) => Promise<unknown> }, q: ReturnType<typeof sql>) =>
  ((await tx.execute(q)) as { rows: T[] }).rows[0];

/** fam-c: a learner profile of `account` (a child of about 9) with an active seat in the session; `profileId` reuses one. */
export async function famcSeatForLearnerProfile(
  app: TestApp,
  account: { id: string },
  at: { courseId: string; sessionId: string },
  firstName: string,
  profileId?: string,
): Promise<ProfileSeat> {
  const [seat] = await famcSeatsForLearnerProfiles(app, account, at, [{ firstName, profileId }]);
  return seat;
}

/** fam-c: several learners' seats taken in one transaction (one checkout for several children). */
export async function famcSeatsForLearnerProfiles(
  app: TestApp,
  account: { id: string },
  at: { courseId: string; sessionId: string },
  learners: { firstName: string; profileId?: string }[],
): Promise<ProfileSeat[]> {
  const { value } = await app.courseEvents.transaction(app.database.db, async (tx, announce) => {
    const seats: ProfileSeat[] = [];
    for (const { firstName, profileId } of learners) {
      const id =
        profileId ??
        (
          await one<{ id: string }>(
            tx,
            sql`insert into learner_profile (account_id, first_name, age_min, age_max, ages_as_of)
                values (${account.id}, ${firstName}, 9, 9, current_date) returning id`,
          )
        ).id;
      await tx.execute(sql`update course_session set seats_taken = seats_taken + 1 where id = ${at.sessionId}`);
      const e = await one<{ id: string }>(
        tx,
        sql`insert into enrolment (session_id, course_id, learner_id, learner_profile_id, status)
            values (${at.sessionId}, ${at.courseId}, ${account.id}, ${id}, 'active') returning id`,
      );
      await announce('enrolment.created', {
        enrolmentId: e.id,
        courseId: at.courseId,
        courseSessionId: at.sessionId,
        learnerId: account.id,
        status: 'active',
      });
      seats.push({ profileId: id, enrolmentId: e.id, firstName });
    }
    return seats;
  });
  await app.jobs.runDue();
  return value;
}

/** fam-c: drops one learner's seat (the account's other seats stay), announced as courses announces a drop. */
export async function famcDropProfileSeat(
  app: TestApp,
  account: { id: string; email: string; firstName: string },
  at: { courseId: string; sessionId: string },
  seat: ProfileSeat,
): Promise<void> {
  await app.courseEvents.transaction(app.database.db, async (tx, announce) => {
    await tx.execute(sql`update enrolment set status = 'dropped', dropped_at = now() where id = ${seat.enrolmentId}`);
    await tx.execute(sql`update course_session set seats_taken = seats_taken - 1 where id = ${at.sessionId}`);
    await announce('enrolment.dropped', {
      enrolmentId: seat.enrolmentId,
      courseId: at.courseId,
      courseSessionId: at.sessionId,
      learner: { id: account.id, email: account.email, firstName: account.firstName },
      seated: true,
    });
  });
  await app.jobs.runDue();
}
