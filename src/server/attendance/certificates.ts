import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { ownedCourse } from '../courses/access.js';
import { seatLearnerId, sessionForAttendance, sessionsEndedSince, type SessionForAttendance } from '../courses/session-attendees.js';
import { HOLDER, attendanceMark, certificate, certificateRule } from '../db/schema/attendance.js';
import type { Conn, Tx } from '../db/transaction.js';
import { AppError } from '../http/errors.js';
import type { CertificateLookup } from '../../shared/attendance-schemas.js';
import { dateIn } from '../../shared/time.js';
import { renderCertificatePdf } from './certificate-pdf.js';

/** Crockford's base32 (no I, L, O, U): 12 characters, 60 random bits. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export function newCertificateCode(): string {
  const bytes = randomBytes(12);
  return Array.from(bytes, (b) => ALPHABET[b & 31]).join('');
}

const HOUR_MS = 3_600_000;
const hoursOf = (times: { startsAt: Date; endsAt: Date }[]) =>
  Math.round((times.reduce((n, t) => n + (t.endsAt.getTime() - t.startsAt.getTime()), 0) / HOUR_MS) * 10) / 10;

/** How far back the recurring pass looks for sessions that ended (a later mark issues on its own). */
const LOOK_BACK_DAYS = 30;

/**
 * Issues the certificates a session owes (to `only` of its learners, or all): once its last
 * class has ended, to each enrolled learner who attended (present or late) at least the
 * course's share of its classes. A learner is a seat's (ADR 0074): a learner profile gets its
 * own certificate, held by its account, in its first name. Exactly once: the unique (session,
 * account, profile) index and ON CONFLICT DO NOTHING, whoever runs it (the recurring pass, a
 * late mark) and however often. What the certificate says is copied now (a snapshot).
 */
export async function issueCertificates(conn: Conn, s: SessionForAttendance, only?: string[]): Promise<number> {
  const lastEnd = s.classTimes.at(-1)?.endsAt;
  if (!lastEnd || lastEnd > new Date() || s.session.status === 'cancelled') return 0;
  const [rule] = await conn.select().from(certificateRule).where(eq(certificateRule.courseId, s.course.id));
  if (!rule) return 0;
  const learners = only ? s.learners.filter((l) => only.includes(l.id)) : s.learners;
  if (!learners.length) return 0;
  const marks = await conn
    .select({
      classTimeId: attendanceMark.classTimeId,
      learnerId: attendanceMark.learnerId,
      learnerProfileId: attendanceMark.learnerProfileId,
    })
    .from(attendanceMark)
    .where(
      and(
        eq(attendanceMark.sessionId, s.session.id),
        inArray(attendanceMark.learnerId, [...new Set(learners.map((l) => l.accountId))]),
        inArray(attendanceMark.mark, ['present', 'late']),
      ),
    );
  const total = s.classTimes.length;
  const rows = learners.flatMap((l) => {
    const mine = new Set(marks.filter((m) => seatLearnerId(m) === l.id).map((m) => m.classTimeId));
    const times = s.classTimes.filter((t) => mine.has(t.id));
    if (times.length * 100 < rule.minPercent * total) return [];
    return [
      {
        code: newCertificateCode(),
        learnerId: l.accountId,
        learnerProfileId: l.profileId,
        sessionId: s.session.id,
        courseId: s.course.id,
        educatorId: s.course.educatorId,
        learnerName: l.name,
        courseTitle: s.course.title,
        educatorName: s.course.educatorName,
        // The days the classes took place (in the session's zone), which the session's dates may not match.
        startsOn: dateIn(s.classTimes[0].startsAt, s.session.timeZone),
        endsOn: dateIn(lastEnd, s.session.timeZone),
        hoursAttended: hoursOf(times),
        hoursTotal: hoursOf(s.classTimes),
        classesAttended: times.length,
        classesTotal: total,
      },
    ];
  });
  if (!rows.length) return 0;
  const issued = await conn.insert(certificate).values(rows).onConflictDoNothing().returning({ id: certificate.id });
  return issued.length;
}

/** The recurring pass (jobs/queue.ts `every`, once across the fleet): sessions that ended lately, with a rule. */
export async function issueDueCertificates(app: AppServices): Promise<number> {
  const db = app.database.db;
  const ended = await sessionsEndedSince(db, new Date(Date.now() - LOOK_BACK_DAYS * 24 * HOUR_MS));
  if (!ended.length) return 0;
  const ruled = new Set(
    (
      await db
        .select({ courseId: certificateRule.courseId })
        .from(certificateRule)
        .where(
          inArray(
            certificateRule.courseId,
            ended.map((e) => e.courseId),
          ),
        )
    ).map((r) => r.courseId),
  );
  let issued = 0;
  for (const e of ended.filter((x) => ruled.has(x.courseId))) {
    const s = await sessionForAttendance(db, e.sessionId);
    if (s) issued += await issueCertificates(db, s);
  }
  return issued;
}

export const CERTIFICATE_JOB = 'attendance.issue-certificates';

/** Registered by composition: the pass every minute, on one process at a time. */
export function registerAttendanceJobs(app: AppServices, intervalMs = 60_000): void {
  app.jobs.every(CERTIFICATE_JOB, intervalMs, async () => {
    const issued = await issueDueCertificates(app);
    if (issued) app.log.info({ issued }, 'attendance: certificates issued');
  });
}

/** The course's rule (its educator only). */
export async function getCertificateRule(app: AppServices, viewer: Viewer, courseId: string) {
  const db = app.database.db;
  await ownedCourse(db, courseId, viewer);
  const [rule] = await db.select().from(certificateRule).where(eq(certificateRule.courseId, courseId));
  return { minPercent: rule?.minPercent ?? null };
}

/** Sets (or, with null, turns off) the course's rule. Certificates already issued stay as they are. */
export async function setCertificateRule(app: AppServices, viewer: Viewer, courseId: string, minPercent: number | null) {
  const db = app.database.db;
  await ownedCourse(db, courseId, viewer);
  if (minPercent === null) await db.delete(certificateRule).where(eq(certificateRule.courseId, courseId));
  else
    await db
      .insert(certificateRule)
      .values({ courseId, minPercent })
      .onConflictDoUpdate({ target: certificateRule.courseId, set: { minPercent, updatedAt: new Date() } });
  return { minPercent };
}

async function byCode(conn: Conn, code: string) {
  const [row] = await conn.select().from(certificate).where(eq(certificate.code, code)).limit(1);
  return row ?? null;
}

/** The public answer: who, what, when, and whether it stands (anyone, signed in or not). */
export async function lookupCertificate(app: AppServices, code: string): Promise<CertificateLookup> {
  const c = await byCode(app.database.db, code);
  if (!c) throw AppError.notFound('No certificate has this code');
  return {
    code: c.code,
    status: c.revokedAt ? 'revoked' : 'valid',
    learnerName: c.learnerName,
    courseTitle: c.courseTitle,
    educatorName: c.educatorName,
    startsOn: c.startsOn,
    endsOn: c.endsOn,
    hours: c.hoursAttended,
    classesAttended: c.classesAttended,
    classesTotal: c.classesTotal,
    issuedAt: c.issuedAt.toISOString(),
    revokedAt: c.revokedAt?.toISOString() ?? null,
  };
}

/** The PDF, for its learner only, the account holder for a learner profile's (anyone else: 404, as if there were none). */
export async function certificatePdf(app: AppServices, viewer: Viewer, code: string): Promise<{ filename: string; body: Buffer }> {
  const c = await byCode(app.database.db, code);
  if (!c || c.learnerId !== viewer.user.id) throw AppError.notFound('No certificate has this code');
  if (c.revokedAt) throw new AppError(409, 'conflict', 'This certificate was revoked by the educator');
  const body = await renderCertificatePdf(c, { verifyUrl: `${app.config.publicUrl}/api/certificates/${c.code}` });
  return { filename: `certificate-${c.code}.pdf`, body };
}

/** The educator who issued it revokes it; it then answers as revoked. */
export async function revokeCertificate(app: AppServices, viewer: Viewer, code: string): Promise<CertificateLookup> {
  const db = app.database.db;
  const c = await byCode(db, code);
  if (!c) throw AppError.notFound('No certificate has this code');
  if (c.educatorId !== viewer.user.id) throw AppError.forbidden('Only the educator of the course can revoke this certificate');
  if (!c.revokedAt) await db.update(certificate).set({ revokedAt: new Date() }).where(eq(certificate.id, c.id));
  return lookupCertificate(app, code);
}

/** A deleted account's certificates and marks go with it, its learner profiles' too (they are the account's rows; ADR 0024, 0074). */
export async function eraseFromAttendance(conn: Conn, userId: string) {
  await conn.delete(certificate).where(eq(certificate.learnerId, userId));
  await conn.delete(attendanceMark).where(eq(attendanceMark.learnerId, userId));
}

/**
 * A learner profile became an account of its own (family accounts, ADR 0074): its marks and
 * certificates move to the new account, as that account's own (no profile), in the caller's
 * transaction. A certificate keeps what it says (a snapshot: the name it was issued in) and its
 * code. Should the new account already hold a record of its own for the same class time or
 * session (it had a seat of its own beside the profile's), its own record stays and the
 * profile's is dropped. Answers how many marks and certificates moved.
 */
export async function moveLearnerProfileRecords(
  tx: Tx,
  move: { profileId: string; accountId: string; userId: string },
): Promise<{ marks: number; certificates: number }> {
  const { profileId, accountId, userId } = move;
  const marks = await tx.execute(sql`
    update attendance_mark m set learner_id = ${userId}, learner_profile_id = null
     where m.learner_profile_id = ${profileId} and m.learner_id = ${accountId}
       and not exists (select 1 from attendance_mark o
                        where o.class_time_id = m.class_time_id and o.learner_id = ${userId}
                          and coalesce(o.learner_profile_id, ${HOLDER}) = ${HOLDER})`);
  await tx.delete(attendanceMark).where(and(eq(attendanceMark.learnerProfileId, profileId), eq(attendanceMark.learnerId, accountId)));
  const certificates = await tx.execute(sql`
    update certificate c set learner_id = ${userId}, learner_profile_id = null
     where c.learner_profile_id = ${profileId} and c.learner_id = ${accountId}
       and not exists (select 1 from certificate o
                        where o.session_id = c.session_id and o.learner_id = ${userId}
                          and coalesce(o.learner_profile_id, ${HOLDER}) = ${HOLDER})`);
  await tx.delete(certificate).where(and(eq(certificate.learnerProfileId, profileId), eq(certificate.learnerId, accountId)));
  const count = (r: unknown) => (r as { rowCount?: number | null }).rowCount ?? 0;
  return { marks: count(marks), certificates: count(certificates) };
}
