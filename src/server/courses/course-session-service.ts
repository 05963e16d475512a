import { and, eq, sql } from 'drizzle-orm';
import type { ClassTimeInput, SessionInput } from '../../shared/courses-schemas.js';
import { addWeeksInZone, dateIn } from '../../shared/time.js';
import type { AppServices } from '../app-services.js';
import { classTime, courseSession, enrolment } from '../db/schema/courses.js';
import { PG, pgCode } from '../db/errors.js';
import { AppError } from '../http/errors.js';
import type { Viewer } from '../accounts/viewer.js';
import { ownedCourse, ownedCourseSession } from './access.js';
import { fillFromWaitlist } from './seats.js';
import { refreshCourseStats } from './stats.js';

export async function createCourseSession(
  app: AppServices,
  viewer: Viewer,
  courseId: string,
  input: Required<Pick<SessionInput, 'startsOn' | 'endsOn' | 'capacity' | 'timeZone'>> & { minToRun: number },
) {
  return app.database.db.transaction(async (tx) => {
    await ownedCourse(tx, courseId, viewer);
    // "Today" where the session takes place, not in UTC.
    if (input.startsOn < dateIn(new Date(), input.timeZone))
      throw AppError.badRequest('The start date is in the past', { startsOn: 'Choose today or a later date' });
    const [row] = await tx
      .insert(courseSession)
      .values({ courseId, ...input })
      .returning({ id: courseSession.id });
    await refreshCourseStats(tx, courseId);
    return row.id;
  });
}

/**
 * Capacity can shrink only down to the seats already taken; new seats go to the waitlist
 * (announced: the promoted learners are told); cancelling drops every enrolment
 * (announced: refunds, emails). Answers how many learners the cancellation dropped.
 */
export async function changeCourseSession(
  app: AppServices,
  viewer: Viewer,
  courseId: string,
  sessionId: string,
  input: { capacity?: number; status?: 'scheduled' | 'cancelled' },
) {
  const { value } = await app.courseEvents.transaction(app.database.db, async (tx, announce) => {
    const { session } = await ownedCourseSession(tx, courseId, sessionId, viewer);
    const [locked] = await tx.select().from(courseSession).where(eq(courseSession.id, session.id)).for('no key update');
    const dropped: string[] = [];
    if (input.capacity !== undefined) {
      if (input.capacity < locked.seatsTaken) {
        throw AppError.badRequest(`Capacity cannot be below the ${locked.seatsTaken} learners already enrolled`, {
          capacity: `At least ${locked.seatsTaken}`,
        });
      }
      if (input.capacity < locked.minToRun)
        throw AppError.badRequest('Capacity cannot be below the minimum to run', { capacity: `At least ${locked.minToRun}` });
      await tx.update(courseSession).set({ capacity: input.capacity }).where(eq(courseSession.id, session.id));
      if (input.status !== 'cancelled') {
        const promoted = await fillFromWaitlist(tx, session.id);
        if (promoted.length) await announce('waitlist.promoted', { courseId, courseSessionId: session.id, learnerIds: promoted });
      }
    }
    if (input.status === 'cancelled' && locked.status !== 'cancelled') {
      const rows = await tx
        .update(enrolment)
        .set({ status: 'dropped', droppedAt: new Date(), updatedAt: new Date() })
        .where(and(eq(enrolment.sessionId, session.id), sql`${enrolment.status} <> 'dropped'`))
        .returning({ learnerId: enrolment.learnerId });
      dropped.push(...rows.map((r) => r.learnerId));
      await tx.update(courseSession).set({ status: 'cancelled', seatsTaken: 0 }).where(eq(courseSession.id, session.id));
    }
    await refreshCourseStats(tx, courseId);
    if (input.status === 'cancelled')
      await announce('course-session.cancelled', { courseId, courseSessionId: session.id, droppedLearnerIds: dropped });
    return { dropped: dropped.length };
  });
  return value;
}

/**
 * Adds a class time, or a weekly series of them ("every Tuesday 18:00 for 8 weeks": the
 * same wall-clock time in the session's zone, across DST changes). All or nothing:
 * an overlap with any existing class time of the session refuses the whole series.
 */
export async function addClassTimes(
  app: AppServices,
  viewer: Viewer,
  courseId: string,
  sessionId: string,
  input: Required<Pick<ClassTimeInput, 'startsAt' | 'endsAt' | 'repeatWeeks'>> & {
    location?: string | null;
    meetingUrl?: string | null;
    extendSession?: boolean;
  },
) {
  const start = new Date(input.startsAt);
  const end = new Date(input.endsAt);
  if (start.getTime() < Date.now() - 60_000)
    throw AppError.badRequest('The class time is in the past', { startsAt: 'Choose a future time' });
  try {
    const { value } = await app.courseEvents.transaction(app.database.db, async (tx, announce) => {
      const { session } = await ownedCourseSession(tx, courseId, sessionId, viewer);
      if (session.status === 'cancelled') throw AppError.badRequest('This session is cancelled');
      const rows = Array.from({ length: input.repeatWeeks }, (_, k) => ({
        sessionId,
        startsAt: addWeeksInZone(start, k, session.timeZone),
        endsAt: addWeeksInZone(end, k, session.timeZone),
        location: input.location || null,
        meetingUrl: input.meetingUrl || null,
      }));
      // Going past the session's last day moves it: never silently (the educator is asked first).
      const lastDay = dateIn(rows[rows.length - 1].endsAt, session.timeZone);
      if (lastDay > session.endsOn && !input.extendSession) {
        throw new AppError(
          409,
          'extends_session',
          `${rows.length === 1 ? 'This class time ends' : 'These class times end'} after the session's last day (${session.endsOn}): confirm to extend the session to ${lastDay}`,
          { fields: { repeatWeeks: `The session ends on ${session.endsOn}` } },
        );
      }
      const inserted = await tx.insert(classTime).values(rows).returning({ id: classTime.id, startsAt: classTime.startsAt });
      // The session's dates stretch to cover its class times.
      await tx.execute(sql`
        update course_session set
          starts_on = least(starts_on, (select min((starts_at at time zone time_zone)::date) from class_time where session_id = ${sessionId})),
          ends_on = greatest(ends_on, (select max((ends_at at time zone time_zone)::date) from class_time where session_id = ${sessionId}))
        where id = ${sessionId}`);
      await refreshCourseStats(tx, courseId);
      await announce('course-session.changed', { courseId, courseSessionId: sessionId, change: 'class-times-added' });
      return inserted.map((r) => r.id);
    });
    return value;
  } catch (err) {
    if (pgCode(err) === PG.exclusionViolation) {
      throw AppError.badRequest('This class time overlaps another class time of the session', { startsAt: 'Overlaps another class time' });
    }
    throw err;
  }
}

export async function deleteClassTime(app: AppServices, viewer: Viewer, courseId: string, sessionId: string, classTimeId: string) {
  await app.courseEvents.transaction(app.database.db, async (tx, announce) => {
    await ownedCourseSession(tx, courseId, sessionId, viewer);
    const rows = await tx
      .delete(classTime)
      .where(and(eq(classTime.id, classTimeId), eq(classTime.sessionId, sessionId)))
      .returning({ id: classTime.id });
    if (!rows.length) throw AppError.notFound('This class time does not exist');
    await announce('course-session.changed', { courseId, courseSessionId: sessionId, change: 'class-time-removed' });
  });
}
