import { asc, eq } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { person } from '../accounts/people.js';
import { courseSession, enrolment } from '../db/schema/courses.js';
import type { Viewer } from '../accounts/viewer.js';
import { ownedCourse } from './access.js';
import type { RosterPayment } from '../../shared/courses-schemas.js';

const FREE: RosterPayment = { status: 'free', label: 'Free', paidInstallments: null, installments: null };

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
      firstName: person.firstName,
      lastName: person.lastName,
      email: person.email,
      status: enrolment.status,
      enrolledAt: enrolment.createdAt,
    })
    .from(enrolment)
    .innerJoin(person, eq(person.id, enrolment.learnerId))
    .innerJoin(courseSession, eq(courseSession.id, enrolment.sessionId))
    .where(eq(enrolment.courseId, courseId))
    .orderBy(asc(courseSession.startsOn), asc(enrolment.createdAt));
  // How each seat was paid: payments answers (courses never imports it).
  const committed = await app.courseEvents.transaction(db, async (_tx, announce) =>
    announce('roster.reading', { courseId, enrolmentIds: rows.map((r) => r.enrolmentId) }),
  );
  const payments = Object.assign({}, ...committed.replies('roster.reading')) as Record<string, RosterPayment>;
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
      payment: payments[r.enrolmentId] ?? FREE,
    })),
  };
}

/** A CSV cell: quoted, and a spreadsheet formula defused (shared with the clubs' attendee export). */
export const csvCell = (v: string) => {
  // Quote every cell, and defuse spreadsheet formulas (=, +, -, @ at the start).
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return `"${safe.replace(/"/g, '""')}"`;
};

export function rosterCsv(rows: Awaited<ReturnType<typeof getRoster>>['rows']): string {
  const header = ['Session start', 'Name', 'Email', 'Status', 'Payment', 'Enrolled at'];
  const lines = rows.map((r) =>
    [r.sessionStartsOn, r.learnerName, r.learnerEmail, r.status, r.payment.label, r.enrolledAt].map(csvCell).join(','),
  );
  return [header.map(csvCell).join(','), ...lines].join('\r\n') + '\r\n';
}
