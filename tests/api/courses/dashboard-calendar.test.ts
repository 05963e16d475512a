import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type SignedInUser } from '../../support/factories.js';
import { get, pathOf, post } from '../../support/http.js';
import {
  classTimeBody,
  drop,
  enrol,
  makeClassTimes,
  makeCourse,
  makeSession,
  publish,
  queryRows,
  useCoursesApp,
} from '../../support/courses.js';

const ctx = useCoursesApp();
let learner: SignedInUser;
let soonCourse: string;
let soonSession: string;
let fullCourse: string;
let fullSession: string;
let droppedCourse: string;
let droppedSession: string;
let soonTimes: string[];
beforeAll(async () => {
  learner = await createSignedInUser(ctx.app);

  // A course with a class in 2 days and a weekly series starting in 10 days.
  soonCourse = await makeCourse(ctx.app, ctx.educator, { title: 'Sketching, quickly; and well' });
  soonSession = await makeSession(ctx.app, ctx.educator, soonCourse, { startsOn: new Date().toISOString().slice(0, 10) });
  soonTimes = [
    ...(await makeClassTimes(ctx.app, ctx.educator, soonCourse, soonSession, classTimeBody(2, { location: 'Room 4, Main St' }))),
    ...(await makeClassTimes(ctx.app, ctx.educator, soonCourse, soonSession, { ...classTimeBody(10), repeatWeeks: 3 })),
  ];
  await publish(ctx.app, ctx.educator, soonCourse);
  expect((await enrol(ctx.app, learner, soonCourse, soonSession)).json().enrolment.status).toBe('active');

  // A full course: the learner waits.
  fullCourse = await makeCourse(ctx.app, ctx.educator, { title: 'Oil painting' });
  fullSession = await makeSession(ctx.app, ctx.educator, fullCourse, { capacity: 1 });
  await makeClassTimes(ctx.app, ctx.educator, fullCourse, fullSession, classTimeBody(3));
  await publish(ctx.app, ctx.educator, fullCourse);
  await enrol(ctx.app, await createSignedInUser(ctx.app), fullCourse, fullSession);
  expect((await enrol(ctx.app, learner, fullCourse, fullSession)).json().enrolment.status).toBe('waitlisted');

  // A course the learner dropped.
  droppedCourse = await makeCourse(ctx.app, ctx.educator, { title: 'Pottery' });
  droppedSession = await makeSession(ctx.app, ctx.educator, droppedCourse);
  await makeClassTimes(ctx.app, ctx.educator, droppedCourse, droppedSession, classTimeBody(4));
  await publish(ctx.app, ctx.educator, droppedCourse);
  await enrol(ctx.app, learner, droppedCourse, droppedSession);
  expect((await drop(ctx.app, learner, droppedCourse, droppedSession)).statusCode).toBe(200);
}, 60_000);

describe('dashboard', () => {
  it("the learner's upcoming class times (next 7 days first), their courses and waitlists", async () => {
    const res = await get(ctx.app, '/api/dashboard', { cookie: learner.cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const d = res.json();
    expect(d.thisWeek.map((t: { id: string }) => t.id)).toEqual([soonTimes[0]]);
    expect(d.thisWeek[0]).toMatchObject({
      courseId: soonCourse,
      courseTitle: 'Sketching, quickly; and well',
      timeZone: 'Europe/London',
      location: 'Room 4, Main St',
    });
    expect(d.later.map((t: { id: string }) => t.id)).toEqual(soonTimes.slice(1));
    expect(d.later.map((t: { startsAt: string }) => t.startsAt)).toEqual([...d.later.map((t: { startsAt: string }) => t.startsAt)].sort());
    expect(d.courses.map((c: { sessionId: string; status: string }) => [c.sessionId, c.status])).toEqual([[soonSession, 'active']]);
    expect(d.waitlists.map((c: { sessionId: string; courseTitle: string }) => [c.sessionId, c.courseTitle])).toEqual([
      [fullSession, 'Oil painting'],
    ]);
    expect(d.teaching).toBeNull();
  });

  it("an educator's teaching list with enrolment counts", async () => {
    const d = (await get(ctx.app, '/api/dashboard', { cookie: ctx.educator.cookie })).json();
    const byTitle = Object.fromEntries(d.teaching.map((c: { title: string }) => [c.title, c]));
    expect(byTitle['Sketching, quickly; and well']).toMatchObject({
      id: soonCourse,
      status: 'published',
      active: 1,
      waitlisted: 0,
      seatsLeft: 9,
    });
    expect(byTitle['Oil painting']).toMatchObject({ id: fullCourse, active: 1, waitlisted: 1, seatsLeft: 0 });
    expect(byTitle['Pottery']).toMatchObject({ id: droppedCourse, active: 0, waitlisted: 0, seatsLeft: 10 });
  });
});

describe('calendar', () => {
  /** The VEVENTs of an iCalendar document as property maps (lines unfolded). */
  function events(ics: string): Record<string, string>[] {
    const unfolded = ics.replace(/\r\n[ \t]/g, '');
    return [...unfolded.matchAll(/BEGIN:VEVENT\r\n([\s\S]*?)\r\nEND:VEVENT/g)].map((m) =>
      Object.fromEntries(m[1].split('\r\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)])),
    );
  }
  const icsTime = (d: Date) =>
    d
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');

  it('GET /api/calendar.ics is text/calendar with one VEVENT per class time, DTSTART in UTC matching the stored instant', async () => {
    const res = await get(ctx.app, '/api/calendar.ics', { cookie: learner.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/calendar/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename=".*\.ics"/);
    expect(res.body.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(res.body.trimEnd().endsWith('END:VCALENDAR')).toBe(true);
    for (const line of res.body.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);

    const list = events(res.body);
    // Only the active session's class times: not the waitlisted, not the dropped.
    expect(list.map((e) => e.UID).sort()).toEqual(soonTimes.map((id) => `${id}@agora`).sort());
    const stored = await queryRows<{ id: string; starts_at: string | Date; ends_at: string | Date }>(
      ctx.app,
      sql`select id, starts_at, ends_at from class_time where session_id = ${soonSession}`,
    );
    for (const row of stored) {
      const e = list.find((x) => x.UID === `${row.id}@agora`)!;
      expect(e.DTSTART).toMatch(/^\d{8}T\d{6}Z$/);
      expect(e.DTSTART).toBe(icsTime(new Date(row.starts_at)));
      expect(e.DTEND).toBe(icsTime(new Date(row.ends_at)));
      expect(e.SUMMARY).toBe('Sketching\\, quickly\\; and well');
      expect(e.URL).toBe(`${ctx.app.config.publicUrl}/course/${soonCourse}`);
    }
    expect(list.find((e) => e.UID === `${soonTimes[0]}@agora`)!.LOCATION).toBe('Room 4\\, Main St');
  });

  it('the private feed URL works without a session cookie; an unknown token answers 404; rotating kills the old URL', async () => {
    const res = await post(ctx.app, '/api/calendar/feed', undefined, { cookie: learner.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const url: string = res.json().url;
    expect(url).toMatch(new RegExp(`^${ctx.app.config.publicUrl}/api/calendar/feed/[A-Za-z0-9_-]{20,64}\\.ics$`));
    // The same URL until rotated.
    expect((await post(ctx.app, '/api/calendar/feed', {}, { cookie: learner.cookie })).json().url).toBe(url);

    const feed = await get(ctx.app, pathOf(url));
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toMatch(/^text\/calendar/);
    expect(events(feed.body)).toHaveLength(soonTimes.length);

    expect((await get(ctx.app, '/api/calendar/feed/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics')).statusCode).toBe(404);
    expect((await get(ctx.app, '/api/calendar/feed/short.ics')).statusCode).toBe(400);

    const rotated = await post(ctx.app, '/api/calendar/feed', { rotate: true }, { cookie: learner.cookie });
    expect(rotated.statusCode).toBe(200);
    const newUrl: string = rotated.json().url;
    expect(newUrl).not.toBe(url);
    expect((await get(ctx.app, pathOf(url))).statusCode).toBe(404);
    expect((await get(ctx.app, pathOf(newUrl))).statusCode).toBe(200);
  });

  it('the .ics and the feed set-up need a session', async () => {
    expect((await get(ctx.app, '/api/calendar.ics')).statusCode).toBe(401);
    expect((await post(ctx.app, '/api/calendar/feed')).statusCode).toBe(401);
  });

  it("each user's feed shows only their own class times", async () => {
    const other = await createSignedInUser(ctx.app);
    const url = (await post(ctx.app, '/api/calendar/feed', undefined, { cookie: other.cookie })).json().url;
    const feed = await get(ctx.app, pathOf(url));
    expect(feed.statusCode).toBe(200);
    expect(events(feed.body)).toEqual([]);
  });
});
