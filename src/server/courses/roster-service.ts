import { asc, eq } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { person } from '../accounts/people.js';
import { courseSession, enrolment } from '../db/schema/courses.js';
import type { Viewer } from '../accounts/viewer.js';
import { ownedCourse } from './access.js';
import type { RosterPayment } from '../../shared/courses-schemas.js';

const FREE: RosterPayment = { status: 'free', label: 'Free', paidInstallments: null, installments: null };
/** On a paid session's waitlist, or offered a seat not yet paid for. */
const NOT_PAID: RosterPayment = { status: 'free', label: 'Not paid yet', paidInstallments: null, installments: null };
const waiting = (status: string) => status === 'waitlisted' || status === 'offered';

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
      offerExpiresAt: enrolment.offerExpiresAt,
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
  // The line of each session, in order (rows come oldest first per session): its place in it.
  const inLine = new Map<string, number>();
  const placeOf = (r: (typeof rows)[number]) => {
    if (r.status !== 'waitlisted') return null;
    const n = (inLine.get(r.sessionId) ?? 0) + 1;
    inLine.set(r.sessionId, n);
    return n;
  };
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
      payment: payments[r.enrolmentId] ?? (waiting(r.status) && c.priceCents > 0 ? NOT_PAID : FREE),
      waitlistPosition: placeOf(r),
      offerExpiresAt: r.status === 'offered' ? (r.offerExpiresAt?.toISOString() ?? null) : null,
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
  const header = ['Session start', 'Name', 'Email', 'Status', 'Payment', 'Enrolled at', 'Waitlist place', 'Offer held until'];
  const lines = rows.map((r) =>
    [
      r.sessionStartsOn,
      r.learnerName,
      r.learnerEmail,
      r.status,
      r.payment.label,
      r.enrolledAt,
      r.waitlistPosition ? String(r.waitlistPosition) : '',
      r.offerExpiresAt ?? '',
    ]
      .map(csvCell)
      .join(','),
  );
  return [header.map(csvCell).join(','), ...lines].join('\r\n') + '\r\n';
}
