import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { learnerSessions, taughtSession } from '../courses/session-attendees.js';
import { attendanceMark, certificate, certificateRule } from '../db/schema/attendance.js';
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
  const enrolled = new Set(s.learners.map((l) => l.id));
  const lastEnd = s.classTimes.at(-1)?.endsAt;
  return {
    course: { id: s.course.id, title: s.course.title },
    session: { ...s.session, ended: !!lastEnd && lastEnd <= new Date() },
    classTimes: s.classTimes.map((t) => ({ id: t.id, startsAt: t.startsAt.toISOString(), endsAt: t.endsAt.toISOString() })),
    learners: s.learners.map((l) => {
      const c = certificates.find((x) => x.learnerId === l.id);
      return { ...l, certificate: c ? { code: c.code, status: statusOf(c), issuedAt: c.issuedAt.toISOString() } : null };
    }),
    // Marks of learners who dropped since stay in the table (history) but not on the sheet.
    marks: marks
      .filter((m) => enrolled.has(m.learnerId))
      .map((m) => ({ classTimeId: m.classTimeId, learnerId: m.learnerId, mark: m.mark as AttendanceMarkValue })),
    certificateMinPercent: rule?.minPercent ?? null,
  };
}

/**
 * One tap: the learner's mark at a class time, written as one upsert (the primary key is the
 * class time and the learner, so concurrent taps leave one row, the last tap's). Only the
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
    if (!s.learners.some((l) => l.id === ids.learnerId))
      throw new AppError(404, 'not_found', 'This learner is not enrolled in this session', {
        fields: { learnerId: 'Not enrolled in this session' },
      });
    const [row] = await tx
      .insert(attendanceMark)
      .values({ classTimeId: ids.classTimeId, learnerId: ids.learnerId, sessionId: ids.sessionId, mark, markedBy: viewer.user.id })
      .onConflictDoUpdate({
        target: [attendanceMark.classTimeId, attendanceMark.learnerId],
        set: { mark, markedBy: viewer.user.id, markedAt: sql`now()` },
      })
      .returning();
    const lastEnd = s.classTimes.at(-1)!.endsAt;
    if (lastEnd <= new Date() && attended(mark)) await issueCertificates(tx, s, [ids.learnerId]);
    return {
      classTimeId: row.classTimeId,
      learnerId: row.learnerId,
      mark: row.mark as AttendanceMarkValue,
      markedAt: row.markedAt.toISOString(),
    };
  });
}

/** The learner's own record: each session they hold a seat in, its classes and their marks, their certificate. */
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
  const markOf = new Map(marks.map((m) => [m.classTimeId, m.mark as AttendanceMarkValue]));
  return {
    sessions: sessions.map((s) => {
      const c = certificates.find((x) => x.sessionId === s.sessionId);
      const classes = s.classTimes.map((t) => ({
        classTimeId: t.id,
        startsAt: t.startsAt.toISOString(),
        endsAt: t.endsAt.toISOString(),
        mark: markOf.get(t.id) ?? null,
      }));
      return {
        sessionId: s.sessionId,
        courseId: s.courseId,
        courseTitle: s.courseTitle,
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
 * or late among the marks taken; null for a session where no attendance was taken.
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
