import { asc, eq, sql } from 'drizzle-orm';
import { learnerAgeNow, learnerProfiles } from '../accounts/learner-profiles.js';
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
      // Family accounts (ADR 0074): the learner profile in the seat (null: the account holder).
      profileId: enrolment.learnerProfileId,
      profileName: sql<string | null>`lp.first_name`,
      profileAgeMin: sql<number | null>`lp.age_min`,
      profileAgeMax: sql<number | null>`lp.age_max`,
      profileAgesAsOf: sql<string | null>`lp.ages_as_of::text`,
      profileNotes: sql<string | null>`lp.notes`,
    })
    .from(enrolment)
    .innerJoin(person, eq(person.id, enrolment.learnerId))
    .leftJoin(sql`${learnerProfiles} lp`, sql`lp.id = ${enrolment.learnerProfileId}`)
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
      ...learnerOf(r),
      status: r.status,
      enrolledAt: r.enrolledAt.toISOString(),
      payment: payments[r.enrolmentId] ?? (waiting(r.status) && c.priceCents > 0 ? NOT_PAID : FREE),
      waitlistPosition: placeOf(r),
      offerExpiresAt: r.status === 'offered' ? (r.offerExpiresAt?.toISOString() ?? null) : null,
    })),
  };
}

/**
 * Who sits in a roster row's seat: the account holder, or their learner profile (family accounts,
 * ADR 0074) by first name and age, with the holder as the contact (`learnerId`, the email, whom
 * "Message" writes to). The profile's notes are for the educators of the sessions it is enrolled
 * in: shown on its live seats (not once dropped), and nowhere else.
 */
function learnerOf(r: {
  learnerId: string;
  firstName: string;
  lastName: string;
  email: string;
  status: string;
  profileId: string | null;
  profileName: string | null;
  profileAgeMin: number | null;
  profileAgeMax: number | null;
  profileAgesAsOf: string | null;
  profileNotes: string | null;
}) {
  const holder = `${r.firstName} ${r.lastName}`.trim();
  if (!r.profileId || r.profileName === null)
    return {
      learnerId: r.learnerId,
      learnerName: holder,
      learnerEmail: r.email,
      learnerProfileId: null,
      learnerAge: null,
      contactName: null,
      notes: null,
    };
  const age = learnerAgeNow({ ageMin: r.profileAgeMin!, ageMax: r.profileAgeMax!, agesAsOf: r.profileAgesAsOf! });
  return {
    learnerId: r.learnerId,
    learnerName: r.profileName,
    learnerEmail: r.email,
    learnerProfileId: r.profileId,
    learnerAge: age.min === age.max ? `${age.min}` : `${age.min}-${age.max}`,
    contactName: holder,
    notes: r.status === 'dropped' ? null : r.profileNotes,
  };
}

/** A CSV cell: quoted, and a spreadsheet formula defused (shared with the clubs' attendee export). */
export const csvCell = (v: string) => {
  // Quote every cell, and defuse spreadsheet formulas (=, +, -, @ at the start).
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return `"${safe.replace(/"/g, '""')}"`;
};

export function rosterCsv(rows: Awaited<ReturnType<typeof getRoster>>['rows']): string {
  // Family accounts (ADR 0074) add the learner's age and the account holder at the end (the columns before stay where they were).
  const header = [
    'Session start',
    'Name',
    'Email',
    'Status',
    'Payment',
    'Enrolled at',
    'Waitlist place',
    'Offer held until',
    'Age',
    'Contact',
  ];
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
      r.learnerAge ?? '',
      r.contactName ?? '',
    ]
      .map(csvCell)
      .join(','),
  );
  return [header.map(csvCell).join(','), ...lines].join('\r\n') + '\r\n';
}
