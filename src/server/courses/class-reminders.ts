import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { classTime, course, courseSession, enrolment } from '../db/schema/courses.js';
import { rowsOf, type Conn, type Tx } from '../db/transaction.js';
import { unscheduleByKeyPrefix } from '../jobs/queue.js';
import { sessionWithCourse } from './course-records.js';

/**
 * Class reminders (ADR 0068): 24 h and 1 h before each class time, to the session's learners
 * whose enrolment is active and to the course's educator. One keyed job per class time,
 * offset and start, stored in the transaction that added or moved the class time; the job
 * re-checks everything when it runs (delivery is at least once, and a class may have moved,
 * been removed, its session cancelled, or a learner dropped since), records each person
 * reminded in class_reminder_sent in the announcing transaction (once, however many
 * deliveries), and announces `class.reminder-due`; notifications renders it.
 */
export const CLASS_REMINDER_JOB = 'courses.class-reminder';
export const CLASS_REMINDER_OFFSETS = { '24h': 24 * 3600_000, '1h': 3600_000 } as const;
export type ClassReminderOffset = keyof typeof CLASS_REMINDER_OFFSETS;

/** Enrolments that hold a seat and are reminded (an unpaid installment keeps its seat). */
const REMINDED_STATUSES = ['active', 'past_due'];

/** The job's key: the start is in it, so a moved class gets new jobs and the old ones cannot stand in for them. */
export const classReminderKey = (classTimeId: string, before: ClassReminderOffset, startsAt: Date) =>
  `class-reminder:${classTimeId}:${before}:${startsAt.getTime()}`;

export interface ClassReminderJob {
  classTimeId: string;
  before: ClassReminderOffset;
  /** The start the job was scheduled for (ISO): a class that moved since is not reminded by it. */
  startsAt: string;
}

/** Stores the reminders of these class times (those already past are skipped), in the caller's transaction. */
export async function scheduleClassReminders(app: AppServices, tx: Tx, times: { id: string; startsAt: Date }[]) {
  for (const t of times) {
    for (const before of Object.keys(CLASS_REMINDER_OFFSETS) as ClassReminderOffset[]) {
      const runAt = new Date(t.startsAt.getTime() - CLASS_REMINDER_OFFSETS[before]);
      if (runAt.getTime() <= Date.now()) continue;
      const payload: ClassReminderJob = { classTimeId: t.id, before, startsAt: t.startsAt.toISOString() };
      await app.jobs.schedule(CLASS_REMINDER_JOB, payload, { runAt, key: classReminderKey(t.id, before, t.startsAt), conn: tx });
    }
  }
}

/** Removes the queued reminders of a class time (moved or removed); the run-time check covers any left. */
export async function unscheduleClassReminders(tx: Tx, classTimeId: string) {
  await unscheduleByKeyPrefix(tx, CLASS_REMINDER_JOB, `class-reminder:${classTimeId}:`);
}

export function registerClassReminderJobs(app: AppServices) {
  app.jobs.register(CLASS_REMINDER_JOB, async (payload) => {
    await sendClassReminder(app, payload as ClassReminderJob);
  });
}

/**
 * Announces `class.reminder-due` to the people still to remind, if the reminder still holds:
 * the class time exists with the start the job was made for, it is still to come, its session
 * is scheduled and its course published. Answers who was reminded (empty: nothing to do).
 */
export async function sendClassReminder(app: AppServices, job: ClassReminderJob): Promise<string[]> {
  const { value } = await app.courseEvents.transaction(app.database.db, async (tx, announce) => {
    const startsAt = new Date(job.startsAt);
    const [row] = await tx
      .select({
        classTimeId: classTime.id,
        sessionId: courseSession.id,
        courseId: course.id,
        educatorId: course.educatorId,
        startsAt: classTime.startsAt,
        endsAt: classTime.endsAt,
      })
      .from(classTime)
      .innerJoin(courseSession, eq(courseSession.id, classTime.sessionId))
      .innerJoin(course, eq(course.id, courseSession.courseId))
      .where(
        and(
          eq(classTime.id, job.classTimeId),
          // The start it was made for, to the millisecond (the job carries an ISO instant).
          sql`${classTime.startsAt} >= ${startsAt.toISOString()}::timestamptz`,
          sql`${classTime.startsAt} < ${startsAt.toISOString()}::timestamptz + interval '1 millisecond'`,
          gt(classTime.startsAt, new Date()),
          eq(courseSession.status, 'scheduled'),
          eq(course.status, 'published'),
        ),
      )
      .limit(1);
    if (!row) return [];
    // Everyone to remind, marked in one statement (in one order, so two at once cannot
    // deadlock): a second delivery, or one running at the same time (it waits on the first's
    // rows), finds them marked and reminds no one.
    const marked = await rowsOf<{ user_id: string }>(
      tx,
      sql`
      insert into class_reminder_sent (class_time_id, user_id, before, starts_at)
      select ${row.classTimeId}::uuid, people.user_id, ${job.before}, ${startsAt.toISOString()}::timestamptz
      from (
        select learner_id as user_id from enrolment
        where session_id = ${row.sessionId} and status in ('active', 'past_due')
        union select ${row.educatorId}::uuid
      ) as people
      order by people.user_id
      on conflict do nothing
      returning user_id`,
    );
    const userIds = marked.map((m) => m.user_id);
    if (!userIds.length) return [];
    await announce('class.reminder-due', {
      courseId: row.courseId,
      courseSessionId: row.sessionId,
      classTimeId: row.classTimeId,
      before: job.before,
      educatorId: row.educatorId,
      userIds,
    });
    return userIds;
  });
  return value;
}

/** What a class reminder or a calendar invitation says of a session: its course, zone and class times. */
export async function sessionCalendarOf(conn: Conn, sessionId: string) {
  const row = await sessionWithCourse(conn, sessionId);
  if (!row) return null;
  const { status, timeZone, courseId, courseTitle, courseStatus, educatorId, format, address, city } = row;
  const s = { sessionId, status, timeZone, courseId, courseTitle, courseStatus, educatorId, format, address, city };
  const classTimes = await conn
    .select({
      id: classTime.id,
      startsAt: classTime.startsAt,
      endsAt: classTime.endsAt,
      location: classTime.location,
      meetingUrl: classTime.meetingUrl,
      sequence: classTime.sequence,
    })
    .from(classTime)
    .where(eq(classTime.sessionId, sessionId))
    .orderBy(asc(classTime.startsAt));
  return { ...s, classTimes };
}
export type SessionCalendar = NonNullable<Awaited<ReturnType<typeof sessionCalendarOf>>>;

/** The learner's enrolment status in the session (the latest one, a drop included), or null. */
export async function learnerStatusIn(conn: Conn, sessionId: string, learnerId: string): Promise<string | null> {
  const [row] = await conn
    .select({ status: enrolment.status })
    .from(enrolment)
    .where(and(eq(enrolment.sessionId, sessionId), eq(enrolment.learnerId, learnerId)))
    .orderBy(sql`${enrolment.status} = 'dropped'`, sql`${enrolment.createdAt} desc`)
    .limit(1);
  return row?.status ?? null;
}

/** The sessions of a course where the learner holds a seat (a paid enrolment's invitation). */
export async function seatedSessionsOf(conn: Conn, courseId: string, learnerId: string): Promise<string[]> {
  const rows = await conn
    .select({ id: enrolment.sessionId })
    .from(enrolment)
    .where(and(eq(enrolment.courseId, courseId), eq(enrolment.learnerId, learnerId), inArray(enrolment.status, REMINDED_STATUSES)));
  return rows.map((r) => r.id);
}

/** Whether the learner is reminded of (and invited to) the session's classes now. */
export const isSeated = (status: string | null) => status !== null && REMINDED_STATUSES.includes(status);
