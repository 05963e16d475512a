import { asc, eq } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { user } from '../db/schema/accounts.js';
import { courseSession, enrolment } from '../db/schema/courses.js';
import type { Viewer } from '../accounts/viewer.js';
import { ownedCourse } from './access.js';

/** The educator's roster: every enrolment of every session of their course. */
export async function getRoster(app: AppServices, viewer: Viewer, courseId: string) {
  const db = app.database.db;
  const c = await ownedCourse(db, courseId, viewer);
  const rows = await db
    .select({
      enrolmentId: enrolment.id,
      sessionId: enrolment.sessionId,
      learnerId: enrolment.learnerId,
      startsOn: courseSession.startsOn,
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      status: enrolment.status,
      enrolledAt: enrolment.createdAt,
    })
    .from(enrolment)
    .innerJoin(user, eq(user.id, enrolment.learnerId))
    .innerJoin(courseSession, eq(courseSession.id, enrolment.sessionId))
    .where(eq(enrolment.courseId, courseId))
    .orderBy(asc(courseSession.startsOn), asc(enrolment.createdAt));
  return {
    course: c,
    rows: rows.map((r) => ({
      enrolmentId: r.enrolmentId,
      sessionId: r.sessionId,
      sessionStartsOn: r.startsOn,
      learnerId: r.learnerId,
      learnerName: `${r.firstName} ${r.lastName}`.trim(),
      learnerEmail: r.email,
      status: r.status,
      enrolledAt: r.enrolledAt.toISOString(),
    })),
  };
}

const cell = (v: string) => {
  // Quote every cell, and defuse spreadsheet formulas (=, +, -, @ at the start).
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return `"${safe.replace(/"/g, '""')}"`;
};

export function rosterCsv(rows: Awaited<ReturnType<typeof getRoster>>['rows']): string {
  const header = ['Session start', 'Name', 'Email', 'Status', 'Enrolled at'];
  const lines = rows.map((r) => [r.sessionStartsOn, r.learnerName, r.learnerEmail, r.status, r.enrolledAt].map(cell).join(','));
  return [header.map(cell).join(','), ...lines].join('\r\n') + '\r\n';
}
