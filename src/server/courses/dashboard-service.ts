import { desc, eq, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { course } from '../db/schema/courses.js';
import { learnerEnrolments, type LearnerEnrolmentRecord } from './course-records.js';
import { forWhom, learnerClassTimes } from './learner-class-times.js';
import type { Viewer } from '../accounts/viewer.js';

/** The learner's week ahead, their courses and waitlists; an educator's courses too. */
export async function getDashboard(app: AppServices, viewer: Viewer) {
  const db = app.database.db;
  const uid = viewer.user.id;
  const [upcoming, mine, teaching] = await Promise.all([
    learnerClassTimes(db, uid, { statuses: ['active', 'past_due'], endsAfter: new Date(), limit: 50 }),
    learnerEnrolments(db, uid, {
      statuses: ['active', 'past_due', 'waitlisted', 'offered', 'pending_payment', 'completed'],
      order: 'starts',
      limit: 200,
    }),
    viewer.educator
      ? db
          .select({
            id: course.id,
            title: course.title,
            status: course.status,
            nextStartOn: course.nextStartOn,
            seatsLeft: course.seatsLeft,
            ratingAvg: course.ratingAvg,
            ratingCount: course.ratingCount,
            // course.id qualified by hand: Drizzle writes a bare "id" in a select list, which
            // inside the subquery would mean e.id (and every count would be 0).
            active: sql<number>`(select count(*)::int from enrolment e where e.course_id = course.id and e.status in ('active', 'past_due'))`,
            waitlisted: sql<number>`(select count(*)::int from enrolment e where e.course_id = course.id and e.status = 'waitlisted')`,
          })
          .from(course)
          .where(eq(course.educatorId, uid))
          .orderBy(desc(course.updatedAt))
          .limit(200)
      : Promise.resolve(null),
  ]);
  const weekEnd = Date.now() + 7 * 86400_000;
  return {
    thisWeek: upcoming.filter((u) => u.startsAt.getTime() <= weekEnd).map(iso),
    later: upcoming.filter((u) => u.startsAt.getTime() > weekEnd).map(iso),
    courses: mine.filter((m) => m.status !== 'waitlisted' && m.status !== 'offered').map(card),
    // The waitlists, with the seats offered from them (a paid session's, held until paid for).
    waitlists: mine.filter((m) => m.status === 'waitlisted' || m.status === 'offered').map(card),
    teaching,
  };
}

const iso = <T extends { startsAt: Date; endsAt: Date; forLearners: string[]; forYou: boolean }>(r: T) => ({
  ...r,
  startsAt: r.startsAt.toISOString(),
  endsAt: r.endsAt.toISOString(),
  forWhom: forWhom(r) || null,
});

/** An enrolment as the dashboard's course and waitlist cards name it. */
const card = (m: LearnerEnrolmentRecord) => ({
  enrolmentId: m.id,
  status: m.status,
  sessionId: m.sessionId,
  courseId: m.courseId,
  courseTitle: m.courseTitle,
  startsOn: m.sessionStartsOn,
  endsOn: m.sessionEndsOn,
  coverImage: m.coverImage,
  category: m.category,
  /** Family accounts (ADR 0074): the learner in the seat (null: the account holder). */
  learnerProfileId: m.learnerProfileId,
  learnerName: m.learnerName,
});
