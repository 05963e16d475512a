import { z } from 'zod';

/** Attendance and certificates (issue 25, ADR 0069): what the API takes and answers. */

export const ATTENDANCE_MARKS = ['present', 'late', 'absent'] as const;
export const attendanceMarkValue = z.enum(ATTENDANCE_MARKS, { error: 'Choose present, late or absent' });
export type AttendanceMarkValue = z.infer<typeof attendanceMarkValue>;

export const markInput = z.object({ mark: attendanceMarkValue });
export const markResult = z.object({
  classTimeId: z.string(),
  learnerId: z.string(),
  mark: attendanceMarkValue,
  markedAt: z.string(),
});
export type MarkResult = z.infer<typeof markResult>;

export const certificateStatus = z.enum(['valid', 'revoked']);
const certificateBrief = z.object({ code: z.string(), status: certificateStatus, issuedAt: z.string() });

/** GET .../sessions/:sessionId/attendance: the educator's sheet of one session. */
export const sessionAttendance = z.object({
  course: z.object({ id: z.string(), title: z.string() }),
  session: z.object({ id: z.string(), startsOn: z.string(), endsOn: z.string(), timeZone: z.string(), ended: z.boolean() }),
  classTimes: z.array(z.object({ id: z.string(), startsAt: z.string(), endsAt: z.string() })),
  /**
   * One per seat (family accounts, ADR 0074): `id` is the learner profile's id, or the account's
   * for the holder's own seat; `name` the profile's first name (the holder's full name for their
   * own); `contactName` the account holder of a profile's seat (null for the holder's own).
   */
  learners: z.array(
    z.object({ id: z.string(), name: z.string(), contactName: z.string().nullable(), certificate: certificateBrief.nullable() }),
  ),
  marks: z.array(z.object({ classTimeId: z.string(), learnerId: z.string(), mark: attendanceMarkValue })),
  /** The course's certificate rule (null: no certificate). */
  certificateMinPercent: z.number().nullable(),
});
export type SessionAttendance = z.infer<typeof sessionAttendance>;

/**
 * GET /api/attendance/mine: the account's record in each seat it holds: its own, and its learner
 * profiles' (`learnerProfileId`, `learnerName`: whose seat; null for the holder's own).
 */
export const myAttendance = z.object({
  sessions: z.array(
    z.object({
      sessionId: z.string(),
      courseId: z.string(),
      courseTitle: z.string(),
      learnerProfileId: z.string().nullable(),
      learnerName: z.string().nullable(),
      startsOn: z.string(),
      endsOn: z.string(),
      classes: z.array(
        z.object({ classTimeId: z.string(), startsAt: z.string(), endsAt: z.string(), mark: attendanceMarkValue.nullable() }),
      ),
      attended: z.number(),
      total: z.number(),
      certificate: certificateBrief.nullable(),
    }),
  ),
});
export type MyAttendance = z.infer<typeof myAttendance>;

/** A course's certificate rule: null is off, N is "at least N % of the classes attended". */
export const certificateRuleBody = z.object({
  minPercent: z
    .number({ error: 'Enter a whole percentage between 1 and 100' })
    .int('Enter a whole percentage between 1 and 100')
    .min(1, 'Enter a whole percentage between 1 and 100')
    .max(100, 'Enter a whole percentage between 1 and 100')
    .nullable(),
});
export type CertificateRuleBody = z.infer<typeof certificateRuleBody>;

/** Verification codes: 12 characters of Crockford's base32 (60 bits), upper case. */
export const CERTIFICATE_CODE = /^[0-9A-HJKMNP-TV-Z]{12}$/;
export const certificateCodeParam = z.object({ code: z.string().regex(CERTIFICATE_CODE, 'Unknown certificate') });

/** GET /api/certificates/:code: public, anyone may verify a certificate. */
export const certificateLookup = z.object({
  code: z.string(),
  status: certificateStatus,
  learnerName: z.string(),
  courseTitle: z.string(),
  educatorName: z.string(),
  startsOn: z.string(),
  endsOn: z.string(),
  hours: z.number(),
  classesAttended: z.number(),
  classesTotal: z.number(),
  issuedAt: z.string(),
  revokedAt: z.string().nullable(),
});
export type CertificateLookup = z.infer<typeof certificateLookup>;
