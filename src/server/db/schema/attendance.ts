import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, smallint, text, uniqueIndex, uuid, date, real } from 'drizzle-orm/pg-core';
import { learnerProfile, user } from './accounts.js';
import { ts } from './columns.js';
import { classTime, course, courseSession } from './courses.js';

/**
 * Attendance and certificates (issue 25, docs/decisions/0069-attendance-and-certificates.md):
 * the educator's mark of each enrolled learner at each class time, the course's rule for a
 * certificate of completion, and the certificates issued (snapshots: they outlive edits).
 */

/** The zero uuid: the account holder's own seat in the seat keys (no learner profile), as courses' enrolment index does. */
export const HOLDER = sql`'00000000-0000-0000-0000-000000000000'::uuid`;

/**
 * One mark per learner and class time: concurrent taps upsert the same row (the unique seat key).
 * The learner is the seat's (family accounts, ADR 0074): the account (`learner_id`) and, for a
 * learner profile of that account, `learner_profile_id` (null: the account holder themselves).
 */
export const attendanceMark = pgTable(
  'attendance_mark',
  {
    classTimeId: uuid('class_time_id')
      .notNull()
      .references(() => classTime.id, { onDelete: 'cascade' }),
    learnerId: uuid('learner_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** The account's learner profile marked (null: the account holder). */
    learnerProfileId: uuid('learner_profile_id').references(() => learnerProfile.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => courseSession.id, { onDelete: 'cascade' }),
    /** present | late | absent */
    mark: text('mark').notNull(),
    markedBy: uuid('marked_by').references(() => user.id, { onDelete: 'set null' }),
    markedAt: ts('marked_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('attendance_mark_one_per_learner').on(t.classTimeId, t.learnerId, sql`coalesce(${t.learnerProfileId}, ${HOLDER})`),
    index('attendance_mark_session_idx').on(t.sessionId, t.learnerId),
    check('attendance_mark_valid', sql`${t.mark} in ('present', 'late', 'absent')`),
  ],
);

/** A course's certificate of completion: issued to who attended at least `min_percent` of the classes. No row: off. */
export const certificateRule = pgTable(
  'certificate_rule',
  {
    courseId: uuid('course_id')
      .primaryKey()
      .references(() => course.id, { onDelete: 'cascade' }),
    minPercent: smallint('min_percent').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [check('certificate_rule_percent', sql`${t.minPercent} between 1 and 100`)],
);

/**
 * A certificate issued: what it says is copied at issue (a snapshot), so editing or deleting
 * the course changes nothing; one per seat's learner and session. `code` is the public verification code.
 */
export const certificate = pgTable(
  'certificate',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull(),
    learnerId: uuid('learner_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /**
     * The account's learner profile it was issued to (family accounts, ADR 0074); null: the
     * account holder. The account holds it (downloads the PDF); `learnerName` is the profile's.
     */
    learnerProfileId: uuid('learner_profile_id').references(() => learnerProfile.id, { onDelete: 'cascade' }),
    /** No foreign keys: the certificate outlives its session and course. */
    sessionId: uuid('session_id').notNull(),
    courseId: uuid('course_id').notNull(),
    educatorId: uuid('educator_id').notNull(),
    learnerName: text('learner_name').notNull(),
    courseTitle: text('course_title').notNull(),
    educatorName: text('educator_name').notNull(),
    startsOn: date('starts_on', { mode: 'string' }).notNull(),
    endsOn: date('ends_on', { mode: 'string' }).notNull(),
    /** Hours of the classes the learner attended (present or late), and of all the session's classes. */
    hoursAttended: real('hours_attended').notNull(),
    hoursTotal: real('hours_total').notNull(),
    classesAttended: integer('classes_attended').notNull(),
    classesTotal: integer('classes_total').notNull(),
    issuedAt: ts('issued_at').notNull().defaultNow(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [
    uniqueIndex('certificate_code_idx').on(t.code),
    uniqueIndex('certificate_one_per_learner').on(t.sessionId, t.learnerId, sql`coalesce(${t.learnerProfileId}, ${HOLDER})`),
    index('certificate_learner_idx').on(t.learnerId),
  ],
);
