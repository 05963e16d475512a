import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { learnerSessions, seatLearnerId, taughtSession } from '../courses/session-attendees.js';
import { HOLDER, attendanceMark, certificate, certificateRule } from '../db/schema/attendance.js';
import { rowsOf } from '../db/transaction.js';
import { AppError } from '../http/errors.js';
import type { AttendanceMarkValue, MarkResult, MyAttendance, SessionAttendance } from '../../shared/attendance-schemas.js';
import { issueCertificates } from './certificates.js';

const attended = (mark: string | null | undefined) => mark === 'present' || mark === 'late';
const statusOf = (c: { revokedAt: Date | null }) => (c.revokedAt ? ('revoked' as const) : ('valid' as const));

/** The educator's sheet of one session of their course: class times, enrolled learners, marks. */
export async function getSessionAttendance(
  app: AppServices,
  viewer: Viewer,
  courseId: string,
  sessionId: string,
): Promise<SessionAttendance> {
  const db = app.database.db;
  const s = await taughtSession(db, courseId, sessionId, viewer);
  const [marks, certificates, [rule]] = await Promise.all([
    db.select().from(attendanceMark).where(eq(attendanceMark.sessionId, sessionId)),
    db.select().from(certificate).where(eq(certificate.sessionId, sessionId)),
    db.select().from(certificateRule).where(eq(certificateRule.courseId, courseId)),
  ]);
  // A learner is a seat's (ADR 0074): the account's own, or one of its learner profiles.
  const enrolled = new Set(s.learners.map((l) => l.id));
  const lastEnd = s.classTimes.at(-1)?.endsAt;
  return {
    course: { id: s.course.id, title: s.course.title },
    session: { ...s.session, ended: !!lastEnd && lastEnd <= new Date() },
    classTimes: s.classTimes.map((t) => ({ id: t.id, startsAt: t.startsAt.toISOString(), endsAt: t.endsAt.toISOString() })),
    learners: s.learners.map((l) => {
      const c = certificates.find((x) => seatLearnerId(x) === l.id);
      return {
        id: l.id,
        name: l.name,
        contactName: l.contactName,
        certificate: c ? { code: c.code, status: statusOf(c), issuedAt: c.issuedAt.toISOString() } : null,
      };
    }),
    // Marks of learners who dropped since stay in the table (history) but not on the sheet.
    marks: marks
      .filter((m) => enrolled.has(seatLearnerId(m)))
      .map((m) => ({ classTimeId: m.classTimeId, learnerId: seatLearnerId(m), mark: m.mark as AttendanceMarkValue })),
    certificateMinPercent: rule?.minPercent ?? null,
  };
}

/**
 * One tap: the learner's mark at a class time, written as one upsert (the unique key is the
 * class time and the seat's learner: the account and its learner profile, none for the holder,
 * so concurrent taps leave one row, the last tap's). `learnerId` is the seat's learner: a
 * learner profile's id, or the account's for the holder's own seat (ADR 0074). Only the
 * course's educator, only a class time of that session, only a learner holding a seat in it.
 * A mark made after the session's last class may complete a certificate: issued in the same
 * transaction (exactly once, ADR 0069).
 */
export async function markAttendance(
  app: AppServices,
  viewer: Viewer,
  ids: { courseId: string; sessionId: string; classTimeId: string; learnerId: string },
  mark: AttendanceMarkValue,
): Promise<MarkResult> {
  return app.database.db.transaction(async (tx) => {
    const s = await taughtSession(tx, ids.courseId, ids.sessionId, viewer);
    if (!s.classTimes.some((t) => t.id === ids.classTimeId)) throw AppError.notFound('This class time does not exist');
    const learner = s.learners.find((l) => l.id === ids.learnerId);
    if (!learner)
      throw new AppError(404, 'not_found', 'This learner is not enrolled in this session', {
        fields: { learnerId: 'Not enrolled in this session' },
      });
    const [row] = await rowsOf<{ mark: string; marked_at: Date | string }>(
      tx,
      sql`insert into attendance_mark (class_time_id, learner_id, learner_profile_id, session_id, mark, marked_by)
          values (${ids.classTimeId}, ${learner.accountId}, ${learner.profileId}, ${ids.sessionId}, ${mark}, ${viewer.user.id})
          on conflict (class_time_id, learner_id, coalesce(learner_profile_id, ${HOLDER}))
          do update set mark = excluded.mark, marked_by = excluded.marked_by, marked_at = now()
          returning mark, marked_at`,
    );
    const lastEnd = s.classTimes.at(-1)!.endsAt;
    if (lastEnd <= new Date() && attended(mark)) await issueCertificates(tx, s, [learner.id]);
    return {
      classTimeId: ids.classTimeId,
      learnerId: learner.id,
      mark: row.mark as AttendanceMarkValue,
      markedAt: new Date(row.marked_at).toISOString(),
    };
  });
}

/**
 * The account's record: each seat it holds (its own and its learner profiles', ADR 0074), the
 * session's classes with that learner's marks, and that learner's certificate.
 */
export async function getMyAttendance(app: AppServices, viewer: Viewer): Promise<MyAttendance> {
  const db = app.database.db;
  const learnerId = viewer.user.id;
  const sessions = await learnerSessions(db, learnerId);
  if (!sessions.length) return { sessions: [] };
  const sessionIds = sessions.map((s) => s.sessionId);
  const [marks, certificates] = await Promise.all([
    db
      .select()
      .from(attendanceMark)
      .where(and(eq(attendanceMark.learnerId, learnerId), inArray(attendanceMark.sessionId, sessionIds))),
    db.select().from(certificate).where(eq(certificate.learnerId, learnerId)),
  ]);
  const key = (classTimeId: string, profileId: string | null) => `${classTimeId}:${profileId ?? ''}`;
  const markOf = new Map(marks.map((m) => [key(m.classTimeId, m.learnerProfileId), m.mark as AttendanceMarkValue]));
  return {
    sessions: sessions.map((s) => {
      const c = certificates.find((x) => x.sessionId === s.sessionId && x.learnerProfileId === s.learnerProfileId);
      const classes = s.classTimes.map((t) => ({
        classTimeId: t.id,
        startsAt: t.startsAt.toISOString(),
        endsAt: t.endsAt.toISOString(),
        mark: markOf.get(key(t.id, s.learnerProfileId)) ?? null,
      }));
      return {
        sessionId: s.sessionId,
        courseId: s.courseId,
        courseTitle: s.courseTitle,
        learnerProfileId: s.learnerProfileId,
        learnerName: s.learnerProfileId ? s.learnerName : null,
        startsOn: s.startsOn,
        endsOn: s.endsOn,
        classes,
        attended: classes.filter((x) => attended(x.mark)).length,
        total: classes.length,
        certificate: c ? { code: c.code, status: statusOf(c), issuedAt: c.issuedAt.toISOString() } : null,
      };
    }),
  };
}

/**
 * The attendance rate of each session (for the educator analytics, a domain above): present
 * or late among the marks taken, a mark per seat (two children of one account count twice,
 * ADR 0074); null for a session where no attendance was taken.
 */
export async function attendanceRates(app: Pick<AppServices, 'database'>, sessionIds: string[]): Promise<Map<string, number | null>> {
  const rates = new Map<string, number | null>(sessionIds.map((id) => [id, null]));
  if (!sessionIds.length) return rates;
  const rows = await app.database.db
    .select({
      sessionId: attendanceMark.sessionId,
      attended: sql<number>`count(*) filter (where ${attendanceMark.mark} in ('present', 'late'))::int`,
      marked: sql<number>`count(*)::int`,
    })
    .from(attendanceMark)
    .where(inArray(attendanceMark.sessionId, sessionIds))
    .groupBy(attendanceMark.sessionId);
  for (const r of rows) rates.set(r.sessionId, r.marked > 0 ? Number(r.attended) / Number(r.marked) : null);
  return rates;
}
