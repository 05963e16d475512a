import { sql } from 'drizzle-orm';
import { dateIn } from '../../../src/shared/time.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser } from '../../support/factories.js';
import { del, get, post } from '../../support/http.js';
import {
  addClassTimes,
  classTimeBody,
  dayFromNow,
  enrol,
  enrolmentCounts,
  getCourse,
  makeClassTimes,
  makeCourse,
  makePublishedCourse,
  makeSession,
  patchSession,
  queryRows,
  seatsTaken,
  sessionBody,
  useCoursesApp,
} from '../../support/courses.js';

const ctx = useCoursesApp();
let courseId: string;
beforeAll(async () => {
  courseId = await makeCourse(ctx.app, ctx.educator);
});

const classTimeCount = async (sessionId: string) =>
  Number((await queryRows<{ n: number }>(ctx.app, sql`select count(*)::int as n from class_time where session_id = ${sessionId}`))[0].n);

/** The wall-clock time and weekday an instant shows in a zone. */
function localTime(iso: string, timeZone: string) {
  const f = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const parts = Object.fromEntries(f.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return `${parts.weekday} ${parts.hour}:${parts.minute}`;
}

/** The first `weekday` (0 = Sunday) of a month, as YYYY-MM-DD. */
function firstWeekday(year: number, month: number, weekday: number): string {
  const d = new Date(Date.UTC(year, month - 1, 1));
  while (d.getUTCDay() !== weekday) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

describe('creating a session', () => {
  it('a valid session answers 201 and shows on the course with its seats', async () => {
    const res = await post(
      ctx.app,
      `/api/courses/${courseId}/sessions`,
      sessionBody({ capacity: 12, minToRun: 4, timeZone: 'America/New_York' }),
      { cookie: ctx.educator.cookie },
    );
    expect(res.statusCode, res.body).toBe(201);
    const s = (await getCourse(ctx.app, ctx.educator, courseId)).json().sessions.find((x: { id: string }) => x.id === res.json().id);
    expect(s).toMatchObject({
      capacity: 12,
      minToRun: 4,
      timeZone: 'America/New_York',
      status: 'scheduled',
      seatsTaken: 0,
      seatsLeft: 12,
      waitlisted: 0,
      classTimes: [],
    });
  });

  const invalid: [string, Record<string, unknown>, string, RegExp][] = [
    ['an end before the start', { startsOn: dayFromNow(20), endsOn: dayFromNow(10) }, 'endsOn', /on or after the start/],
    ['a start in the past', { startsOn: dayFromNow(-3), endsOn: dayFromNow(10) }, 'startsOn', /today or a later date/],
    ['a minimum above the capacity', { capacity: 5, minToRun: 6 }, 'minToRun', /cannot exceed the capacity/],
    ['an unknown time zone', { timeZone: 'Mars/Olympus_Mons' }, 'timeZone', /Unknown time zone/],
    ['a capacity of 0', { capacity: 0 }, 'capacity', /at least 1/],
    ['a date that is not a date', { startsOn: 'next tuesday' }, 'startsOn', /YYYY-MM-DD/],
  ];
  it('"today" is the date where the session takes place, not in UTC', async () => {
    // Somewhere it is already tomorrow (UTC+14) or still yesterday (UTC-11) compared to UTC.
    for (const timeZone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      const today = dateIn(new Date(), timeZone);
      const ok = await post(
        ctx.app,
        `/api/courses/${courseId}/sessions`,
        sessionBody({ timeZone, startsOn: today, endsOn: dayFromNow(40) }),
        { cookie: ctx.educator.cookie },
      );
      expect(ok.statusCode, `${timeZone} ${today}: ${ok.body}`).toBe(201);
      const yesterday = new Date(Date.parse(`${today}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      const late = await post(
        ctx.app,
        `/api/courses/${courseId}/sessions`,
        sessionBody({ timeZone, startsOn: yesterday, endsOn: dayFromNow(40) }),
        { cookie: ctx.educator.cookie },
      );
      expect(late.statusCode, `${timeZone} ${yesterday}`).toBe(400);
      expect(late.json().error.fields.startsOn).toMatch(/today or a later date/);
    }
    expect(dateIn(new Date('2026-01-01T05:00:00Z'), 'Pacific/Pago_Pago')).toBe('2025-12-31');
    expect(dateIn(new Date('2026-01-01T05:00:00Z'), 'Pacific/Kiritimati')).toBe('2026-01-01');
    expect(dateIn(new Date('2026-01-01T11:00:00Z'), 'Pacific/Kiritimati')).toBe('2026-01-02');
  });

  it.each(invalid)('%s answers 400 naming the field, and creates nothing', async (_, override, field, message) => {
    const before = await queryRows(ctx.app, sql`select id from course_session where course_id = ${courseId}`);
    const res = await post(ctx.app, `/api/courses/${courseId}/sessions`, sessionBody(override), { cookie: ctx.educator.cookie });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.fields[field]).toMatch(message);
    expect(await queryRows(ctx.app, sql`select id from course_session where course_id = ${courseId}`)).toHaveLength(before.length);
  });
});

describe('class times', () => {
  it('a class time is added and shown (with its meeting link to the owner)', async () => {
    const sessionId = await makeSession(ctx.app, ctx.educator, courseId);
    const body = classTimeBody(32, { location: 'Studio 3' });
    const [id] = await makeClassTimes(ctx.app, ctx.educator, courseId, sessionId, body);
    const s = (await getCourse(ctx.app, ctx.educator, courseId)).json().sessions.find((x: { id: string }) => x.id === sessionId);
    expect(s.classTimes).toEqual([
      { id, startsAt: body.startsAt, endsAt: body.endsAt, location: 'Studio 3', meetingUrl: 'https://meet.example.com/room-1' },
    ]);
  });

  it('an end before the start answers 400 naming endsAt', async () => {
    const sessionId = await makeSession(ctx.app, ctx.educator, courseId);
    const body = classTimeBody(32);
    const res = await addClassTimes(ctx.app, ctx.educator, courseId, sessionId, {
      ...body,
      endsAt: new Date(new Date(body.startsAt).getTime() - 3600_000).toISOString(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.endsAt).toMatch(/after the start/);
    expect(await classTimeCount(sessionId)).toBe(0);
  });

  it('a start in the past, a bad meeting link and a bad date each answer 400 naming the field', async () => {
    const sessionId = await makeSession(ctx.app, ctx.educator, courseId);
    const past = await addClassTimes(ctx.app, ctx.educator, courseId, sessionId, classTimeBody(-2));
    expect(past.statusCode).toBe(400);
    expect(past.json().error.fields).toHaveProperty('startsAt');
    const link = await addClassTimes(ctx.app, ctx.educator, courseId, sessionId, classTimeBody(33, { meetingUrl: 'javascript:alert(1)' }));
    expect(link.statusCode).toBe(400);
    expect(link.json().error.fields).toHaveProperty('meetingUrl');
    const date = await addClassTimes(ctx.app, ctx.educator, courseId, sessionId, classTimeBody(33, { startsAt: 'tomorrow at six' }));
    expect(date.statusCode).toBe(400);
    expect(date.json().error.fields).toHaveProperty('startsAt');
    expect(await classTimeCount(sessionId)).toBe(0);
  });

  it('an overlapping class time answers 400', async () => {
    const sessionId = await makeSession(ctx.app, ctx.educator, courseId);
    const first = classTimeBody(34);
    await makeClassTimes(ctx.app, ctx.educator, courseId, sessionId, first);
    const halfHourLater = new Date(new Date(first.startsAt).getTime() + 30 * 60_000);
    const res = await addClassTimes(ctx.app, ctx.educator, courseId, sessionId, {
      startsAt: halfHourLater.toISOString(),
      endsAt: new Date(halfHourLater.getTime() + 3600_000).toISOString(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.startsAt).toMatch(/overlaps/i);
    expect(await classTimeCount(sessionId)).toBe(1);
  });

  it('back-to-back class times do not overlap; the same time in another session is fine', async () => {
    const sessionId = await makeSession(ctx.app, ctx.educator, courseId);
    const first = classTimeBody(35);
    await makeClassTimes(ctx.app, ctx.educator, courseId, sessionId, first);
    await makeClassTimes(ctx.app, ctx.educator, courseId, sessionId, {
      startsAt: first.endsAt,
      endsAt: new Date(new Date(first.endsAt).getTime() + 3600_000).toISOString(),
    });
    const other = await makeSession(ctx.app, ctx.educator, courseId);
    await makeClassTimes(ctx.app, ctx.educator, courseId, other, first);
  });

  it('a weekly series of 8 whose 5th week overlaps an existing class time inserts none of them', async () => {
    const sessionId = await makeSession(ctx.app, ctx.educator, courseId);
    const series = classTimeBody(36);
    // One hour into week 5's class (3 hours long, so even a DST shift of an hour still overlaps).
    const week5 = new Date(new Date(series.startsAt).getTime() + 4 * 7 * 86400_000 + 3600_000);
    await makeClassTimes(ctx.app, ctx.educator, courseId, sessionId, {
      startsAt: week5.toISOString(),
      endsAt: new Date(week5.getTime() + 3600_000).toISOString(),
      extendSession: true,
    });
    const before = await classTimeCount(sessionId);
    expect(before).toBe(1);

    const res = await addClassTimes(ctx.app, ctx.educator, courseId, sessionId, {
      ...series,
      endsAt: new Date(new Date(series.startsAt).getTime() + 3 * 3600_000).toISOString(),
      repeatWeeks: 8,
      extendSession: true,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.fields.startsAt).toMatch(/overlaps/i);
    expect(await classTimeCount(sessionId)).toBe(before);
  });

  it("a series past the session's last day answers 409 until the educator confirms; then it is added as one and the session stretches", async () => {
    const sessionId = await makeSession(ctx.app, ctx.educator, courseId, { startsOn: dayFromNow(40), endsOn: dayFromNow(41) });
    const unconfirmed = await addClassTimes(ctx.app, ctx.educator, courseId, sessionId, { ...classTimeBody(37), repeatWeeks: 6 });
    expect(unconfirmed.statusCode, unconfirmed.body).toBe(409);
    expect(unconfirmed.json().error).toMatchObject({
      code: 'extends_session',
      message: expect.stringContaining(`after the session's last day (${dayFromNow(41)}): confirm to extend the session to`),
      fields: { repeatWeeks: `The session ends on ${dayFromNow(41)}` },
    });
    const before = (await getCourse(ctx.app, ctx.educator, courseId)).json().sessions.find((x: { id: string }) => x.id === sessionId);
    expect(before.classTimes).toHaveLength(0);
    expect(before.endsOn).toBe(dayFromNow(41));
    const ids = await makeClassTimes(ctx.app, ctx.educator, courseId, sessionId, {
      ...classTimeBody(37),
      repeatWeeks: 6,
      extendSession: true,
    });
    expect(ids).toHaveLength(6);
    const s = (await getCourse(ctx.app, ctx.educator, courseId)).json().sessions.find((x: { id: string }) => x.id === sessionId);
    expect(s.classTimes).toHaveLength(6);
    expect(s.startsOn <= s.classTimes[0].startsAt.slice(0, 10)).toBe(true);
    expect(s.endsOn >= s.classTimes[5].endsAt.slice(0, 10)).toBe(true);
  });

  it('"every Tuesday 18:00 for 8 weeks" in Europe/London keeps 18:00 local across the March DST change', async () => {
    const year = new Date().getUTCFullYear() + 1;
    const firstTuesday = firstWeekday(year, 3, 2);
    const sessionId = await makeSession(ctx.app, ctx.educator, courseId, {
      startsOn: firstTuesday,
      endsOn: firstTuesday,
      timeZone: 'Europe/London',
    });
    // 18:00 in London in early March is 18:00 UTC (GMT).
    const ids = await makeClassTimes(ctx.app, ctx.educator, courseId, sessionId, {
      startsAt: `${firstTuesday}T18:00:00Z`,
      endsAt: `${firstTuesday}T19:30:00Z`,
      repeatWeeks: 8,
      extendSession: true,
    });
    expect(ids).toHaveLength(8);
    const times: { startsAt: string; endsAt: string }[] = (await getCourse(ctx.app, ctx.educator, courseId))
      .json()
      .sessions.find((x: { id: string }) => x.id === sessionId).classTimes;
    expect(times).toHaveLength(8);
    for (const t of times) {
      expect(localTime(t.startsAt, 'Europe/London')).toBe('Tue 18:00');
      expect(localTime(t.endsAt, 'Europe/London')).toBe('Tue 19:30');
    }
    // The UTC hour moves by one at the change (GMT -> BST): 18:00Z before, 17:00Z after.
    const utcHours = times.map((t) => new Date(t.startsAt).getUTCHours());
    expect(new Set(utcHours)).toEqual(new Set([18, 17]));
    expect(utcHours.indexOf(17)).toBeGreaterThan(0);
    expect(utcHours.slice(utcHours.indexOf(17)).every((h) => h === 17)).toBe(true);
    // Exactly a week apart in local days.
    for (let k = 1; k < times.length; k++) {
      const days = (new Date(times[k].startsAt).getTime() - new Date(times[k - 1].startsAt).getTime()) / 86400_000;
      expect(Math.round(days)).toBe(7);
    }
    // And the instants stored are the ones answered.
    const stored = await queryRows<{ starts_at: Date | string }>(
      ctx.app,
      sql`select starts_at from class_time where session_id = ${sessionId} order by starts_at`,
    );
    expect(stored.map((r) => new Date(r.starts_at).toISOString())).toEqual(times.map((t) => t.startsAt));
  });

  it('the same across the October change (BST -> GMT): 17:00Z before, 18:00Z after', async () => {
    const year = new Date().getUTCFullYear() + 1;
    const firstTuesday = firstWeekday(year, 10, 2);
    const sessionId = await makeSession(ctx.app, ctx.educator, courseId, {
      startsOn: firstTuesday,
      endsOn: firstTuesday,
      timeZone: 'Europe/London',
    });
    await makeClassTimes(ctx.app, ctx.educator, courseId, sessionId, {
      startsAt: `${firstTuesday}T18:00:00+01:00`,
      endsAt: `${firstTuesday}T19:00:00+01:00`,
      repeatWeeks: 8,
      extendSession: true,
    });
    const times: { startsAt: string }[] = (await getCourse(ctx.app, ctx.educator, courseId))
      .json()
      .sessions.find((x: { id: string }) => x.id === sessionId).classTimes;
    expect(times.map((t) => localTime(t.startsAt, 'Europe/London'))).toEqual(Array(8).fill('Tue 18:00'));
    const utcHours = times.map((t) => new Date(t.startsAt).getUTCHours());
    expect(utcHours[0]).toBe(17);
    expect(utcHours[7]).toBe(18);
  });

  it('a class time can be removed by its educator', async () => {
    const sessionId = await makeSession(ctx.app, ctx.educator, courseId);
    const [id] = await makeClassTimes(ctx.app, ctx.educator, courseId, sessionId, classTimeBody(38));
    const res = await del(ctx.app, `/api/courses/${courseId}/sessions/${sessionId}/class-times/${id}`, { cookie: ctx.educator.cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(await classTimeCount(sessionId)).toBe(0);
  });
});

describe('changing and cancelling a session', () => {
  it('capacity below the current enrolments answers 400 and keeps the capacity', async () => {
    const { courseId: id, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, { session: { capacity: 5 } });
    for (let i = 0; i < 3; i++) {
      const learner = await createSignedInUser(ctx.app);
      expect((await enrol(ctx.app, learner, id, sessionId)).json().enrolment.status).toBe('active');
    }
    const res = await patchSession(ctx.app, ctx.educator, id, sessionId, { capacity: 2 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.capacity).toMatch(/At least 3/);
    expect(await seatsTaken(ctx.app, sessionId)).toEqual({ seatsTaken: 3, capacity: 5 });
    expect((await patchSession(ctx.app, ctx.educator, id, sessionId, { capacity: 3 })).statusCode).toBe(200);
    expect(await seatsTaken(ctx.app, sessionId)).toEqual({ seatsTaken: 3, capacity: 3 });
  });

  it('raising the capacity of a full session gives the new seats to the waitlist, in order', async () => {
    const { courseId: id, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, { session: { capacity: 1 } });
    const learners = [];
    for (let i = 0; i < 4; i++) learners.push(await createSignedInUser(ctx.app));
    for (const l of learners) await enrol(ctx.app, l, id, sessionId);
    expect(await enrolmentCounts(ctx.app, sessionId)).toEqual({ active: 1, waitlisted: 3 });
    expect((await patchSession(ctx.app, ctx.educator, id, sessionId, { capacity: 3 })).statusCode).toBe(200);
    expect(await enrolmentCounts(ctx.app, sessionId)).toEqual({ active: 3, waitlisted: 1 });
    expect(await seatsTaken(ctx.app, sessionId)).toEqual({ seatsTaken: 3, capacity: 3 });
    const statuses = [];
    for (const l of learners) statuses.push((await getCourse(ctx.app, l, id)).json().sessions[0].myEnrolment.status);
    expect(statuses).toEqual(['active', 'active', 'active', 'waitlisted']);
  });

  it('cancelling a session drops its enrolments (active and waitlisted) and frees its seats', async () => {
    const { courseId: id, sessionId } = await makePublishedCourse(ctx.app, ctx.educator, { session: { capacity: 1 } });
    const a = await createSignedInUser(ctx.app);
    const b = await createSignedInUser(ctx.app);
    expect((await enrol(ctx.app, a, id, sessionId)).json().enrolment.status).toBe('active');
    expect((await enrol(ctx.app, b, id, sessionId)).json().enrolment.status).toBe('waitlisted');

    const res = await patchSession(ctx.app, ctx.educator, id, sessionId, { status: 'cancelled' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toMatch(/2 learners were unenrolled/);
    expect(await enrolmentCounts(ctx.app, sessionId)).toEqual({ dropped: 2 });
    for (const learner of [a, b]) {
      const mail = (await get(ctx.app, `/api/dev/outbox?to=${encodeURIComponent(learner.email)}`)).json() as { subject: string }[];
      expect(mail.map((m) => m.subject)).toContainEqual(expect.stringMatching(/was cancelled/));
    }
    expect((await seatsTaken(ctx.app, sessionId)).seatsTaken).toBe(0);

    const view = (await getCourse(ctx.app, a, id)).json();
    expect(view.sessions[0]).toMatchObject({ status: 'cancelled', myEnrolment: null });
    const dash = (await get(ctx.app, '/api/dashboard', { cookie: a.cookie })).json();
    expect(dash.courses.map((c: { sessionId: string }) => c.sessionId)).not.toContain(sessionId);
    expect(dash.thisWeek.concat(dash.later)).toEqual([]);

    // No new class times on a cancelled session, and nobody can enrol again.
    expect((await addClassTimes(ctx.app, ctx.educator, id, sessionId, classTimeBody(50))).statusCode).toBe(400);
    expect((await enrol(ctx.app, a, id, sessionId)).statusCode).toBe(400);
  });
});
