import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ClassTimeInput, ClassTimeMove, SessionInput } from '../../shared/courses-schemas.js';
import { addWeeksInZone, dateIn } from '../../shared/time.js';
import type { AppServices } from '../app-services.js';
import { classTime, courseSession, enrolment } from '../db/schema/courses.js';
import { PG, pgCode } from '../db/errors.js';
import type { Tx } from '../db/transaction.js';
import { AppError } from '../http/errors.js';
import type { Viewer } from '../accounts/viewer.js';
import { ownedCourse, ownedCourseSession } from './access.js';
import { scheduleClassReminders, unscheduleClassReminders } from './class-reminders.js';
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
    const seated: string[] = [];
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
        if (promoted.length) await announce('waitlist.promoted', { courseId, courseSessionId: session.id, enrolmentIds: promoted });
      }
    }
    if (input.status === 'cancelled' && locked.status !== 'cancelled') {
      const seatedRows = await tx
        .select({ learnerId: enrolment.learnerId })
        .from(enrolment)
        .where(and(eq(enrolment.sessionId, session.id), inArray(enrolment.status, ['active', 'past_due'])));
      seated.push(...seatedRows.map((r) => r.learnerId));
      const rows = await tx
        .update(enrolment)
        .set({ status: 'dropped', droppedAt: new Date(), updatedAt: new Date() })
        .where(and(eq(enrolment.sessionId, session.id), sql`${enrolment.status} <> 'dropped'`))
        .returning({ learnerId: enrolment.learnerId });
      dropped.push(...rows.map((r) => r.learnerId));
      await tx.update(courseSession).set({ status: 'cancelled', seatsTaken: 0 }).where(eq(courseSession.id, session.id));
      // Calendars take the cancellation above the last invitation (ADR 0068); queued reminders go (the job re-checks anyway).
      await tx
        .update(classTime)
        .set({ sequence: sql`${classTime.sequence} + 1` })
        .where(eq(classTime.sessionId, session.id));
      await unscheduleSessionReminders(tx, session.id);
    }
    await refreshCourseStats(tx, courseId);
    if (input.status === 'cancelled')
      await announce('course-session.cancelled', {
        courseId,
        courseSessionId: session.id,
        // Accounts, once each: a parent whose two learners held seats is told once.
        droppedLearnerIds: [...new Set(dropped)],
        seatedLearnerIds: [...new Set(seated)],
      });
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
      await scheduleClassReminders(app, tx, inserted);
      // The session's dates stretch to cover its class times.
      await tx.execute(sql`
        update course_session set
          starts_on = least(starts_on, (select min((starts_at at time zone time_zone)::date) from class_time where session_id = ${sessionId})),
          ends_on = greatest(ends_on, (select max((ends_at at time zone time_zone)::date) from class_time where session_id = ${sessionId}))
        where id = ${sessionId}`);
      await refreshCourseStats(tx, courseId);
      await announce('course-session.changed', {
        courseId,
        courseSessionId: sessionId,
        change: 'class-times-added',
        addedIds: inserted.map((r) => r.id),
      });
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
      .returning();
    if (!rows.length) throw AppError.notFound('This class time does not exist');
    const [gone] = rows;
    await unscheduleClassReminders(tx, gone.id);
    await announce('course-session.changed', {
      courseId,
      courseSessionId: sessionId,
      change: 'class-time-removed',
      removed: {
        id: gone.id,
        startsAt: gone.startsAt.toISOString(),
        endsAt: gone.endsAt.toISOString(),
        location: gone.location,
        meetingUrl: gone.meetingUrl,
        sequence: gone.sequence + 1,
      },
    });
  });
}

/**
 * Moves a class time (a new start and end; a new place or link if given). Its SEQUENCE rises,
 * its reminders are scheduled anew for the new start (the old jobs go; one delivered anyway
 * finds the start changed and reminds no one), and the move is announced: the learners get
 * the calendar update and a notification (ADR 0068). An overlap with another class time of
 * the session is refused, as when adding.
 */
export async function moveClassTime(
  app: AppServices,
  viewer: Viewer,
  ids: { courseId: string; sessionId: string; classTimeId: string },
  input: ClassTimeMove,
) {
  const start = new Date(input.startsAt);
  const end = new Date(input.endsAt);
  if (start.getTime() < Date.now() - 60_000)
    throw AppError.badRequest('The class time is in the past', { startsAt: 'Choose a future time' });
  try {
    await app.courseEvents.transaction(app.database.db, async (tx, announce) => {
      const { session } = await ownedCourseSession(tx, ids.courseId, ids.sessionId, viewer);
      if (session.status === 'cancelled') throw AppError.badRequest('This session is cancelled');
      const [moved] = await tx
        .update(classTime)
        .set({
          startsAt: start,
          endsAt: end,
          ...(input.location !== undefined && { location: input.location || null }),
          ...(input.meetingUrl !== undefined && { meetingUrl: input.meetingUrl || null }),
          sequence: sql`${classTime.sequence} + 1`,
        })
        .where(and(eq(classTime.id, ids.classTimeId), eq(classTime.sessionId, session.id)))
        .returning({ id: classTime.id, startsAt: classTime.startsAt });
      if (!moved) throw AppError.notFound('This class time does not exist');
      await unscheduleClassReminders(tx, moved.id);
      await scheduleClassReminders(app, tx, [moved]);
      // The session's dates stretch to cover its class times (as when adding).
      await tx.execute(sql`
        update course_session set
          starts_on = least(starts_on, (select min((starts_at at time zone time_zone)::date) from class_time where session_id = ${session.id})),
          ends_on = greatest(ends_on, (select max((ends_at at time zone time_zone)::date) from class_time where session_id = ${session.id}))
        where id = ${session.id}`);
      await refreshCourseStats(tx, ids.courseId);
      await announce('class-time.moved', { courseId: ids.courseId, courseSessionId: session.id, classTimeId: moved.id });
    });
  } catch (err) {
    if (pgCode(err) === PG.exclusionViolation) {
      throw AppError.badRequest('This class time overlaps another class time of the session', { startsAt: 'Overlaps another class time' });
    }
    throw err;
  }
}

async function unscheduleSessionReminders(tx: Tx, sessionId: string) {
  const times = await tx.select({ id: classTime.id }).from(classTime).where(eq(classTime.sessionId, sessionId));
  for (const t of times) await unscheduleClassReminders(tx, t.id);
}
