import { z } from 'zod';
import { classTimeView } from './courses-schemas.js';

/**
 * The answer of GET /api/dashboard: the learner's week ahead, their courses and waitlists,
 * and (educators only, else null) the courses they teach. Statuses are the stored words.
 */
/** A class time as the course page lists it, with its course and the session's time zone. */
export const dashboardClassTime = classTimeView.extend({
  courseId: z.string(),
  /** The class time's session: its classroom (ADR 0072). */
  sessionId: z.string(),
  courseTitle: z.string(),
  timeZone: z.string(),
  /** Family accounts (ADR 0074): the learners whose class it is, by first name, and whether the account holder's too. */
  forLearners: z.array(z.string()),
  forYou: z.boolean(),
  /** Whom it is for, as said ("Mia", "you and Mia"); null: the account holder's alone. */
  forWhom: z.string().nullable(),
});

export const dashboardEnrolment = z.object({
  enrolmentId: z.string(),
  status: z.string(),
  sessionId: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  startsOn: z.string(),
  endsOn: z.string(),
  coverImage: z.string().nullable(),
  /** The course's category (its generated cover without an image). */
  category: z.string(),
  /** Family accounts (ADR 0074): the learner in the seat, a learner profile (null: the account holder). */
  learnerProfileId: z.string().nullable(),
  learnerName: z.string().nullable(),
});

export const dashboardTeaching = z.object({
  id: z.string(),
  title: z.string(),
  status: z.string(),
  nextStartOn: z.string().nullable(),
  seatsLeft: z.number(),
  ratingAvg: z.number(),
  ratingCount: z.number(),
  active: z.number(),
  waitlisted: z.number(),
});

export const dashboardResult = z.object({
  thisWeek: z.array(dashboardClassTime),
  later: z.array(dashboardClassTime),
  courses: z.array(dashboardEnrolment),
  waitlists: z.array(dashboardEnrolment),
  teaching: z.array(dashboardTeaching).nullable(),
});

export type DashboardClassTime = z.infer<typeof dashboardClassTime>;
export type DashboardEnrolment = z.infer<typeof dashboardEnrolment>;
export type DashboardTeaching = z.infer<typeof dashboardTeaching>;
export type Dashboard = z.infer<typeof dashboardResult>;
