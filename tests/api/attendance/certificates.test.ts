import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueDueCertificates } from '../../../src/server/attendance/certificates.js';
import { renderCertificatePdf } from '../../../src/server/attendance/certificate-pdf.js';
import { call, get, post } from '../../support/http.js';
import {
  classTimeBody,
  courseBody,
  enrol,
  makeClassTimes,
  makeEducator,
  makeLearner,
  makePublishedCourse,
  queryRows,
  useCoursesApp,
  type Educator,
} from '../../support/courses.js';
import type { SignedInUser } from '../../support/factories.js';
import { certificatesOf, mark, sessionEnded, setRule } from './support.js';

const ctx = useCoursesApp();

/** Certificates of completion (issue 25): issued once at the session's end when the share is met. */
describe('certificates', () => {
  let courseId: string;
  let sessionId: string;
  let times: string[];
  let ada: SignedInUser;
  let bob: SignedInUser;
  let cy: SignedInUser;
  let other: Educator;
  let code: string;
  const ids = (classTimeId: string, learnerId: string) => ({ courseId, sessionId, classTimeId, learnerId });

  beforeAll(async () => {
    let first: string[];
    ({
      courseId,
      sessionId,
      classTimeIds: first,
    } = await makePublishedCourse(ctx.app, ctx.educator, {
      course: { title: 'Python for Curious Beginners' },
    }));
    times = [...first, ...(await makeClassTimes(ctx.app, ctx.educator, courseId, sessionId, classTimeBody(40, { repeatWeeks: 3 })))];
    ada = await makeLearner(ctx.app, { firstName: 'Ada', lastName: 'Lovelace' });
    bob = await makeLearner(ctx.app, { firstName: 'Bob', lastName: 'Below' });
    cy = await makeLearner(ctx.app, { firstName: 'Cy', lastName: 'Late' });
    other = await makeEducator(ctx.app, { firstName: 'Olga', lastName: 'Other' });
    for (const l of [ada, bob, cy]) expect((await enrol(ctx.app, l, courseId, sessionId)).statusCode).toBe(200);
    // Four classes, at least 75 %: Ada 4/4 (one late), Bob 2/4, Cy 2/4 until a late mark after the end.
    expect((await setRule(ctx.app, ctx.educator, courseId, 75)).json()).toEqual({ minPercent: 75 });
    for (const [i, t] of times.entries()) {
      await mark(ctx.app, ctx.educator, ids(t, ada.id), i === 3 ? 'late' : 'present');
      await mark(ctx.app, ctx.educator, ids(t, bob.id), i < 2 ? 'present' : 'absent');
      if (i < 2) await mark(ctx.app, ctx.educator, ids(t, cy.id), 'present');
    }
  });

  it("the rule is the educator's: others are refused, values checked", async () => {
    expect((await setRule(ctx.app, other, courseId, 10)).statusCode).toBe(403);
    expect((await setRule(ctx.app, ada, courseId, 10)).statusCode).toBe(403);
    expect((await setRule(ctx.app, ctx.educator, courseId, 101)).statusCode).toBe(400);
    expect((await setRule(ctx.app, ctx.educator, courseId, 0)).statusCode).toBe(400);
    expect((await get(ctx.app, `/api/courses/${courseId}/certificate-rule`, { cookie: ctx.educator.cookie })).json()).toEqual({
      minPercent: 75,
    });
    expect((await get(ctx.app, `/api/courses/${courseId}/certificate-rule`, { cookie: other.cookie })).statusCode).toBe(403);
  });

  it('nothing is issued before the last class ended', async () => {
    await issueDueCertificates(ctx.app);
    expect(await certificatesOf(ctx.app, sessionId)).toEqual([]);
  });

  it('at the end: issued once to who met the share, not to who fell below, however often the pass runs', async () => {
    await sessionEnded(ctx.app, sessionId);
    await Promise.all([issueDueCertificates(ctx.app), issueDueCertificates(ctx.app), issueDueCertificates(ctx.app)]);
    await issueDueCertificates(ctx.app);
    const certs = await certificatesOf(ctx.app, sessionId);
    expect(certs.map((c) => c.learner_id)).toEqual([ada.id]);
    code = certs[0].code;
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{12}$/);
    const mine = (await get(ctx.app, '/api/attendance/mine', { cookie: ada.cookie })).json();
    expect(mine.sessions.find((s: { sessionId: string }) => s.sessionId === sessionId)).toMatchObject({
      attended: 4,
      total: 4,
      certificate: { code, status: 'valid' },
    });
    const bobs = (await get(ctx.app, '/api/attendance/mine', { cookie: bob.cookie })).json();
    expect(bobs.sessions.find((s: { sessionId: string }) => s.sessionId === sessionId).certificate).toBeNull();
  });

  it('a mark after the end that meets the share issues at once (and only once)', async () => {
    await Promise.all([
      mark(ctx.app, ctx.educator, ids(times[2], cy.id), 'present'),
      mark(ctx.app, ctx.educator, ids(times[3], cy.id), 'late'),
    ]);
    await mark(ctx.app, ctx.educator, ids(times[3], cy.id), 'present');
    const certs = await certificatesOf(ctx.app, sessionId);
    expect(certs.filter((c) => c.learner_id === cy.id)).toHaveLength(1);
  });

  it('anyone can verify a code, signed out; an unknown code is 404', async () => {
    const res = await get(ctx.app, `/api/certificates/${code}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      code,
      status: 'valid',
      learnerName: 'Ada Lovelace',
      courseTitle: 'Python for Curious Beginners',
      educatorName: 'Grace Hopper',
      classesAttended: 4,
      classesTotal: 4,
      // Four classes of two hours each (sessionEnded moved them so).
      hours: 8,
      revokedAt: null,
    });
    // The days of its first and last class (sessionEnded moved them to the last few days).
    const today = new Date().toISOString().slice(0, 10);
    expect(res.json().endsOn <= today && res.json().startsOn < res.json().endsOn).toBe(true);
    expect((await get(ctx.app, '/api/certificates/ABCDEFGHJK23')).statusCode).toBe(404);
    expect((await get(ctx.app, '/api/certificates/not-a-code')).statusCode).toBe(400);
  });

  it('the PDF is for its learner only, and names them', async () => {
    const res = await get(ctx.app, `/api/certificates/${code}/pdf`, { cookie: ada.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).toContain('Certificate of completion: Ada Lovelace');
    expect(pdf.toString('latin1')).toContain(code);
    for (const who of [bob, other, ctx.educator])
      expect((await get(ctx.app, `/api/certificates/${code}/pdf`, { cookie: who.cookie })).statusCode).toBe(404);
    expect((await get(ctx.app, `/api/certificates/${code}/pdf`)).statusCode).toBe(401);
  });

  it('the pages say who, what and the code, in any script (uncompressed rendering)', async () => {
    const pdf = await renderCertificatePdf(
      {
        code: 'ABCDEFGHJK23',
        learnerName: 'Łukasz Żółkiewski',
        courseTitle: 'Python für Anfänger',
        educatorName: 'Мария Иванова',
        startsOn: '2026-01-05',
        endsOn: '2026-02-05',
        hoursAttended: 6,
        classesAttended: 4,
        classesTotal: 4,
        issuedAt: new Date(),
      },
      { verifyUrl: 'http://x/api/certificates/ABCDEFGHJK23', compress: false },
    );
    const text = pageText(pdf);
    expect(text).toContain('Łukasz Żółkiewski');
    expect(text).toContain('Мария Иванова');
    expect(text).toContain('Python für Anfänger');
    expect(text).toContain('ABCDEFGHJK23');
    // The font is embedded (a subset of DejaVu Sans), not a built-in one that has no such glyphs.
    expect(pdf.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans-Bold/);
    expect(pdf.toString('latin1')).toContain('/FontFile2');
  });

  it('editing the course does not change an issued certificate', async () => {
    const edited = await call(ctx.app, 'PUT', `/api/courses/${courseId}`, courseBody({ title: 'Renamed course' }), {
      cookie: ctx.educator.cookie,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await get(ctx.app, `/api/certificates/${code}`)).json().courseTitle).toBe('Python for Curious Beginners');
  });

  it('the educator revokes; it then answers as revoked; nobody else may', async () => {
    for (const who of [other, ada])
      expect((await post(ctx.app, `/api/certificates/${code}/revoke`, undefined, { cookie: who.cookie })).statusCode).toBe(403);
    expect((await post(ctx.app, `/api/certificates/${code}/revoke`)).statusCode).toBe(401);
    const res = await post(ctx.app, `/api/certificates/${code}/revoke`, undefined, { cookie: ctx.educator.cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('revoked');
    const lookup = (await get(ctx.app, `/api/certificates/${code}`)).json();
    expect(lookup.status).toBe('revoked');
    expect(lookup.revokedAt).not.toBeNull();
    expect((await get(ctx.app, `/api/certificates/${code}/pdf`, { cookie: ada.cookie })).statusCode).toBe(409);
    // A revoked certificate is not issued again.
    await issueDueCertificates(ctx.app);
    expect((await certificatesOf(ctx.app, sessionId)).filter((c) => c.learner_id === ada.id)).toHaveLength(1);
  });

  it('the public lookup is rate limited', async () => {
    const ip = '203.0.113.77';
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) statuses.push((await get(ctx.app, `/api/certificates/ABCDEFGHJK2${i % 10}`, { ip })).statusCode);
    expect(statuses).toContain(429);
  });
});

describe("a deleted account's attendance", () => {
  it('its marks and certificates go with it (ADR 0024)', async () => {
    const { courseId, sessionId, classTimeIds } = await makePublishedCourse(ctx.app, ctx.educator);
    const gone = await makeLearner(ctx.app);
    expect((await enrol(ctx.app, gone, courseId, sessionId)).statusCode).toBe(200);
    await setRule(ctx.app, ctx.educator, courseId, 100);
    await sessionEnded(ctx.app, sessionId);
    await mark(ctx.app, ctx.educator, { courseId, sessionId, classTimeId: classTimeIds[0], learnerId: gone.id }, 'present');
    expect(await certificatesOf(ctx.app, sessionId)).toHaveLength(1);
    const deleted = await post(
      ctx.app,
      '/api/accounts/delete',
      { password: gone.password, confirmEmail: gone.email },
      { cookie: gone.cookie },
    );
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await certificatesOf(ctx.app, sessionId)).toEqual([]);
    const [left] = await queryRows<{ n: number }>(
      ctx.app,
      sql`select count(*)::int as n from attendance_mark where learner_id = ${gone.id}`,
    );
    expect(left.n).toBe(0);
  });
});

/**
 * The text of an uncompressed PDF's pages, read as a PDF reader does: each embedded font's
 * ToUnicode map turns its glyph codes back into characters. Each font's reading of every text
 * run, joined: the runs of the font that drew a line read as that line.
 */
function pageText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const runs = [...raw.matchAll(/<([0-9a-f]{4,})>/gi)].map((m) => m[1]).filter((h) => h.length % 4 === 0);
  const maps = [...raw.matchAll(/beginbfrange\s*<([0-9a-f]{4})>\s*<[0-9a-f]{4}>\s*\[([^\]]*)\]/gi)].map((m) => {
    const first = parseInt(m[1], 16);
    const targets = [...m[2].matchAll(/<([0-9a-f\s]+)>/gi)].map((t) =>
      String.fromCharCode(...t[1].split(/\s+/).map((u) => parseInt(u, 16))),
    );
    return new Map(targets.map((chars, i) => [first + i, chars]));
  });
  return maps
    .map((map) => runs.map((hex) => (hex.match(/.{4}/g) ?? []).map((code) => map.get(parseInt(code, 16)) ?? '\u0000').join('')).join(''))
    .join('\n');
}
