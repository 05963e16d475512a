import { and, eq, notInArray } from 'drizzle-orm';
import { enrolment } from '../db/schema/courses.js';
import type { Tx } from '../db/transaction.js';
import { AppError } from '../http/errors.js';

/**
 * Family accounts (ADR 0074), heard on accounts' `learner-profile.removing` inside the
 * removing transaction (the profile row is locked there, and a seat being taken for it holds a
 * share lock on it until its own commit): a learner with a live seat (any enrolment not
 * dropped or completed: active, waitlisted, offered, awaiting payment) is not removed.
 */
export async function refuseRemovalWithLiveSeat(tx: Tx, { learnerProfileId, firstName }: { learnerProfileId: string; firstName: string }) {
  const [live] = await tx
    .select({ id: enrolment.id })
    .from(enrolment)
    .where(and(eq(enrolment.learnerProfileId, learnerProfileId), notInArray(enrolment.status, ['dropped', 'completed'])))
    .limit(1);
  if (live)
    throw new AppError(
      409,
      'learner_has_classes',
      `${firstName} is enrolled or on a waitlist. Drop ${firstName}'s classes first (on your dashboard), then remove ${firstName}.`,
    );
}
