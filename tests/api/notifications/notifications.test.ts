import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/app.js';
import {
  addClassTimes,
  classTimeBody,
  drop,
  enrol,
  makeEducator,
  makeLearner,
  makePublishedCourse,
  patchSession,
  putReview,
  queryRows,
  useCoursesApp,
} from '../../support/courses.js';
import { dateIn, wallTimeIn } from '../../../src/shared/time.js';
import { dayBounds } from '../../../src/server/notifications/notify.js';
import { call, get, post, type CallOptions } from '../../support/http.js';
import { enrolLearners, makeLearnerProfile } from '../../support/family.js';
import { render } from '../../../src/server/notifications/render.js';

const ctx = useCoursesApp();

interface Mail {
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string> | null;
}
/** The local outbox for one address (with the extra headers), newest first; calendar invitations (ADR 0068) aside. */
const mails = (app: TestApp, to: string) =>
  queryRows<Mail>(
    app,
    sql`select subject, text, html, headers from email_outbox where "to" = ${to} and ical_event is null order by created_at desc`,
  );
/**
 * The newest email to `to` once its subject is `subject`. The email job runs right after the
 * request, in this app, unless another app on the shared database polls first and sends it a
 * moment later: wait for it (the 20 s ceiling is never reached when it comes).
 */
async function newestMail(app: TestApp, to: string, subject: string): Promise<Mail> {
  await expect.poll(async () => (await mails(app, to))[0]?.subject, { timeout: 20_000 }).toBe(subject);
  return (await mails(app, to))[0];
}
const list = (app: TestApp, who: { cookie: string }, query = '') => get(app, `/api/notifications${query}`, { cookie: who.cookie });
const notificationsOf = async (app: TestApp, who: { cookie: string }) =>
  (await list(app, who)).json().notifications as { id: string; type: string; title: string; body: string; link: string; read: boolean }[];
const newMessageNotices = async (app: TestApp, who: { cookie: string }) =>
  (await notificationsOf(app, who)).filter((n) => n.type === 'new_message');
const putPrefs = (app: TestApp, who: { cookie: string }, preferences: unknown) =>
  call(app, 'PUT', '/api/notifications/preferences', { preferences }, { cookie: who.cookie });
/** Runs the queued jobs of a kind now (a digest waits for the end of the day, an unread-message email 10 minutes). */
async function runJobsNow(app: TestApp, kind: string) {
  await app.database.db.execute(sql`update job set run_at = now() where kind = ${kind} and state = 'queued'`);
  // A poll claims at most 20 jobs, and other test files share the database: poll until none is due.
  const due = async () =>
    (
      await queryRows<{ n: number }>(
        app,
        sql`select count(*)::int as n from job where kind = ${kind} and state = 'queued' and run_at <= now()`,
      )
    )[0].n;
  for (let i = 0; i < 50 && (await due()) > 0; i++) await app.jobs.runDue();
}

describe('notify through a real cause: a free enrolment', () => {
  it('tells the learner (in the app, live, and by email with one-click unsubscribe) and the educator (in the app, email in the digest)', async () => {
    const { app, educator } = ctx;
    const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { title: 'Watercolour evenings', priceCents: 0 } });
    const learner = await makeLearner(app, { firstName: 'Ada', lastName: 'Lovelace' });
    const pushed: unknown[] = [];
    const stop = app.realtime.subscribe(learner.id, (e) => pushed.push(e));
    expect((await enrol(app, learner, courseId, sessionId)).statusCode).toBe(200);
    stop();

    const [n] = await notificationsOf(app, learner);
    expect(n).toMatchObject({
      type: 'enrolled',
      title: "You're enrolled in Watercolour evenings",
      read: false,
      link: `/course/${courseId}`,
    });
    expect(pushed).toEqual([
      { type: 'notification.new', notificationId: n.id },
      { type: 'unread.changed', counter: 'notifications' },
    ]);
    expect((await list(app, learner)).json().unreadCount).toBe(1);
    expect(await app.realtime.unreadCounts(learner.id)).toMatchObject({ notifications: 1 });

    // Issue 14 friction 10: a free enrolment is confirmed by email too.
    const mail = await newestMail(app, learner.email, "You're enrolled in Watercolour evenings");
    expect(mail.headers?.['List-Unsubscribe']).toMatch(/^<http.*\/api\/notifications\/unsubscribe\?token=.+>$/);
    expect(mail.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.text).toContain('/api/notifications/unsubscribe?token=');

    const forEducator = await notificationsOf(app, educator);
    expect(forEducator.find((x) => x.type === 'learner_enrolled' && x.link === `/course/${courseId}`)?.title).toBe(
      'Ada Lovelace enrolled in Watercolour evenings',
    );
    expect((await mails(app, educator.email)).filter((m) => /enrolled in Watercolour/.test(m.subject))).toHaveLength(0);
  });
});

describe('the list and one notification', () => {
  it('pages by cursor, filters unread, opens and marks one read, marks all read', async () => {
    const { app, educator } = ctx;
    const learner = await makeLearner(app);
    for (let i = 0; i < 5; i++) {
      const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { title: `Course ${i}`, priceCents: 0 } });
      expect((await enrol(app, learner, courseId, sessionId)).statusCode).toBe(200);
    }
    const first = (await list(app, learner, '?limit=2')).json();
    expect(first.notifications.map((n: { title: string }) => n.title)).toEqual([
      "You're enrolled in Course 4",
      "You're enrolled in Course 3",
    ]);
    const second = (await list(app, learner, `?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`)).json();
    const third = (await list(app, learner, `?limit=2&cursor=${encodeURIComponent(second.nextCursor)}`)).json();
    expect(second.notifications.map((n: { title: string }) => n.title)).toEqual([
      "You're enrolled in Course 2",
      "You're enrolled in Course 1",
    ]);
    expect(third.notifications).toHaveLength(1);
    expect(third.nextCursor).toBeNull();

    const id = first.notifications[0].id;
    const one = await get(app, `/api/notifications/${id}`, { cookie: learner.cookie });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id, read: false, body: expect.stringContaining('Course 4') });
    const read = await post(app, `/api/notifications/${id}/read`, undefined, { cookie: learner.cookie });
    expect(read.json().read).toBe(true);
    const unread = (await list(app, learner, '?unread=true')).json();
    expect(unread.notifications).toHaveLength(4);
    expect(unread.unreadCount).toBe(4);
    expect((await post(app, '/api/notifications/read-all', undefined, { cookie: learner.cookie })).json()).toEqual({ marked: 4 });
    expect((await list(app, learner, '?unread=true')).json()).toMatchObject({ notifications: [], unreadCount: 0 });
  });

  it("another user's notification is not found (404) on every route; signed out is 401", async () => {
    const { app, educator } = ctx;
    const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: 0 } });
    const owner = await makeLearner(app);
    const other = await makeLearner(app);
    await enrol(app, owner, courseId, sessionId);
    const [n] = await notificationsOf(app, owner);
    const as: CallOptions = { cookie: other.cookie };
    expect((await get(app, `/api/notifications/${n.id}`, as)).statusCode).toBe(404);
    expect((await post(app, `/api/notifications/${n.id}/read`, undefined, as)).statusCode).toBe(404);
    expect((await post(app, '/api/notifications/read-all', undefined, as)).json()).toEqual({ marked: 0 });
    expect((await notificationsOf(app, other)).find((x) => x.id === n.id)).toBeUndefined();
    expect((await get(app, `/api/notifications/${n.id}`)).statusCode).toBe(401);
    expect((await get(app, `/api/notifications/${n.id}`, { cookie: owner.cookie })).json().read).toBe(false);
  });

  it('bad input answers 400 with a message per field, never 500', async () => {
    const { app } = ctx;
    const u = await makeLearner(app);
    const as = { cookie: u.cookie };
    const cases: [Promise<{ statusCode: number; json(): { error: { fields?: Record<string, string> } } }>, string][] = [
      [get(app, '/api/notifications/not-a-uuid', as), 'notificationId'],
      [get(app, '/api/notifications?cursor=nonsense', as), 'cursor'],
      [get(app, '/api/notifications?limit=1000', as), 'limit'],
      [get(app, '/api/notifications?unread=maybe', as), 'unread'],
      [putPrefs(app, u, { sms_blast: { inApp: true } }), 'preferences.sms_blast'],
      [putPrefs(app, u, { enrolled: { email: 'weekly' } }), 'preferences.enrolled.email'],
      [putPrefs(app, u, { enrolled: { pigeon: true } }), 'preferences.enrolled.pigeon'],
      [putPrefs(app, u, { enrolled: { inApp: 'yes' } }), 'preferences.enrolled.inApp'],
      [putPrefs(app, u, {}), 'preferences'],
    ];
    for (const [res, field] of cases) {
      const r = await res;
      expect(r.statusCode, field).toBe(400);
      expect(Object.keys(r.json().error.fields ?? {}), field).toContain(field);
    }
    expect((await get(app, `/api/notifications/${randomUUID()}`, as)).statusCode).toBe(404);
  });
});

describe('preferences are honoured', () => {
  it("list to each only the types they can get: educators see their courses' news, learners do not", async () => {
    const { app, educator } = ctx;
    const typesOf = async (who: { cookie: string }) =>
      ((await get(app, '/api/notifications/preferences', { cookie: who.cookie })).json().preferences as { type: string }[]).map(
        (p) => p.type,
      );
    const learner = await makeLearner(app);
    const learnerTypes = await typesOf(learner);
    expect(learnerTypes).toEqual(expect.arrayContaining(['new_message', 'enrolled', 'refund_issued', 'club_new_event']));
    for (const t of ['learner_enrolled', 'new_review', 'club_join_request']) expect(learnerTypes).not.toContain(t);
    // What a learner stores for a type they cannot get changes nothing they see (and is accepted).
    const put = await putPrefs(app, learner, { new_review: { email: 'off' } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().preferences.map((p: { type: string }) => p.type)).not.toContain('new_review');

    const educatorTypes = await typesOf(educator);
    expect(educatorTypes).toEqual(expect.arrayContaining(['learner_enrolled', 'new_review', 'enrolled']));
    expect(educatorTypes).not.toContain('club_join_request');
    const prefs = (await get(app, '/api/notifications/preferences', { cookie: educator.cookie })).json().preferences;
    expect(prefs.find((p: { type: string }) => p.type === 'learner_enrolled')).toMatchObject({ inApp: true, email: 'digest' });
  });

  it('shows defaults per type and channel, and stores only what changed', async () => {
    const { app } = ctx;
    const u = await makeLearner(app);
    const prefs = (await get(app, '/api/notifications/preferences', { cookie: u.cookie })).json().preferences;
    expect(prefs.find((p: { type: string }) => p.type === 'enrolled')).toMatchObject({
      inApp: true,
      email: 'instant',
      label: 'Enrolment confirmations',
    });
    const res = await putPrefs(app, u, { enrolled: { email: 'digest' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().preferences.find((p: { type: string }) => p.type === 'enrolled')).toMatchObject({ inApp: true, email: 'digest' });
  });

  it('type off -> no notification and no email; email off -> the notification without an email', async () => {
    const { app, educator } = ctx;
    const off = await makeLearner(app);
    const quiet = await makeLearner(app);
    expect((await putPrefs(app, off, { enrolled: { inApp: false, email: 'off' } })).statusCode).toBe(200);
    expect((await putPrefs(app, quiet, { enrolled: { email: 'off' } })).statusCode).toBe(200);
    const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: 0 } });
    await enrol(app, off, courseId, sessionId);
    await enrol(app, quiet, courseId, sessionId);
    await app.jobs.runDue();
    expect(await notificationsOf(app, off)).toEqual([]);
    expect((await mails(app, off.email)).filter((m) => /enrolled/.test(m.subject))).toEqual([]);
    expect((await notificationsOf(app, quiet)).map((n) => n.type)).toEqual(['enrolled']);
    expect((await mails(app, quiet.email)).filter((m) => /enrolled/.test(m.subject))).toEqual([]);
  });

  it('in-app off -> no list entry, the email still goes', async () => {
    const { app, educator } = ctx;
    const u = await makeLearner(app);
    await putPrefs(app, u, { enrolled: { inApp: false } });
    const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: 0, title: 'Inbox only' } });
    await enrol(app, u, courseId, sessionId);
    expect(await notificationsOf(app, u)).toEqual([]);
    expect((await mails(app, u.email)).map((m) => m.subject)).toContain("You're enrolled in Inbox only");
  });

  it('digest -> one email a day with the day\u2019s items, sent once', async () => {
    const { app } = ctx;
    const teacher = await makeEducator(app);
    const a = await makePublishedCourse(app, teacher, { course: { priceCents: 0, title: 'Digest one' } });
    const b = await makePublishedCourse(app, teacher, { course: { priceCents: 0, title: 'Digest two' } });
    for (const name of ['Alan', 'Barbara']) {
      const l = await makeLearner(app, { firstName: name, lastName: 'Test' });
      await enrol(app, l, a.courseId, a.sessionId);
      await enrol(app, l, b.courseId, b.sessionId);
    }
    const jobs = await queryRows<{ key: string; run_at: Date }>(
      app,
      sql`select key, run_at from job where key like ${`digest:${teacher.id}:%`}`,
    );
    expect(jobs).toHaveLength(1);
    expect(new Date(jobs[0].run_at).getTime()).toBeGreaterThan(Date.now());
    await runJobsNow(app, 'notification.digest');
    const digests = (await mails(app, teacher.email)).filter((m) => /digest/.test(m.subject));
    expect(digests).toHaveLength(1);
    expect(digests[0].subject).toMatch(/4 updates/);
    for (const line of ['Alan Test enrolled in Digest one', 'Barbara Test enrolled in Digest two']) expect(digests[0].text).toContain(line);
    expect(digests[0].headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    // Running it again (a retry, a second process) sends nothing new.
    await app.database.db.execute(
      sql`insert into job (kind, payload) values ('notification.digest', ${JSON.stringify({ userId: teacher.id, day: new Date().toISOString().slice(0, 10) })}::jsonb)`,
    );
    await app.jobs.runDue();
    expect((await mails(app, teacher.email)).filter((m) => /digest/.test(m.subject))).toHaveLength(1);
  });

  it('each user\u2019s digest goes at the end of their own day, with the items of that day in their zone', async () => {
    const { app } = ctx;
    const zones = ['Pacific/Auckland', 'America/Los_Angeles'];
    const teachers = [];
    for (const timeZone of zones) {
      const teacher = await makeEducator(app);
      const res = await call(app, 'PATCH', `/api/users/${teacher.id}`, { timeZone }, { cookie: teacher.cookie });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().timeZone).toBe(timeZone);
      const course = await makePublishedCourse(app, teacher, { course: { priceCents: 0, title: `Zoned ${timeZone}` } });
      await enrol(app, await makeLearner(app, { firstName: 'Zoe', lastName: 'Zoned' }), course.courseId, course.sessionId);
      teachers.push(teacher);
    }
    const bad = await call(app, 'PATCH', `/api/users/${teachers[0].id}`, { timeZone: 'Mars/Olympus' }, { cookie: teachers[0].cookie });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.timeZone).toBeTruthy();

    const runAts: number[] = [];
    for (const [i, teacher] of teachers.entries()) {
      const zone = zones[i];
      const [job] = await queryRows<{ run_at: Date; payload: { day: string; timeZone: string } }>(
        app,
        sql`select run_at, payload from job where key like ${`digest:${teacher.id}:%`}`,
      );
      // Scheduled for midnight of the next day on the user's own clock.
      const today = dateIn(new Date(), zone);
      expect(job.payload).toEqual({ userId: teacher.id, day: today, timeZone: zone });
      const runAt = new Date(job.run_at);
      expect(wallTimeIn(runAt, zone)).toMatchObject({ hour: 0, minute: 0 });
      expect(dateIn(new Date(runAt.getTime() - 60_000), zone)).toBe(today);
      expect(runAt.getTime()).toBeGreaterThan(Date.now());
      runAts.push(runAt.getTime());
    }
    // The two local days end at different instants (Auckland is many hours ahead of Los Angeles).
    expect(runAts[0]).not.toBe(runAts[1]);

    // An item from the minute before the user's local midnight belongs to yesterday's digest, not today's.
    const [nz] = teachers;
    const { start } = dayBounds(dateIn(new Date(), zones[0]), zones[0]);
    await app.database.db.execute(sql`
      insert into notification (user_id, type, data, in_app, created_at)
      values (${nz.id}, 'learner_enrolled', ${JSON.stringify({ courseId: randomUUID(), courseTitle: 'Yesterday there', learnerName: 'Old News' })}::jsonb,
        true, ${new Date(start.getTime() - 60_000).toISOString()}::timestamptz)`);
    await runJobsNow(app, 'notification.digest');
    for (const [i, teacher] of teachers.entries()) {
      const digests = (await mails(app, teacher.email)).filter((m) => /digest/.test(m.subject));
      expect(digests, zones[i]).toHaveLength(1);
      expect(digests[0].text).toContain(`Zoe Zoned enrolled in Zoned ${zones[i]}`);
      expect(digests[0].text).not.toContain('Old News');
    }
  });

  it("the unsubscribe link (GET page, one-click POST, no sign-in) stops that type's email, not the others", async () => {
    const { app, educator } = ctx;
    const u = await makeLearner(app);
    const first = await makePublishedCourse(app, educator, { course: { priceCents: 0, title: 'Before unsubscribing' } });
    await enrol(app, u, first.courseId, first.sessionId);
    const mail = await newestMail(app, u.email, "You're enrolled in Before unsubscribing");
    const link = /<(.+)>/.exec(mail.headers!['List-Unsubscribe'])![1];
    const path = new URL(link).pathname + new URL(link).search;

    const page = await get(app, path, { headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('Stop emails about enrolment confirmations?');
    expect(page.body).toContain('<form method="post"');
    // A GET (a link scanner) changes nothing.
    expect((await get(app, '/api/notifications/preferences', { cookie: u.cookie })).json().preferences[1]).toMatchObject({
      email: 'instant',
    });

    const oneClick = await call(app, 'POST', path, 'List-Unsubscribe=One-Click', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);
    expect(oneClick.json()).toEqual({ ok: true });
    const prefs = (await get(app, '/api/notifications/preferences', { cookie: u.cookie })).json().preferences;
    expect(prefs.find((p: { type: string }) => p.type === 'enrolled')).toMatchObject({ inApp: true, email: 'off' });

    const second = await makePublishedCourse(app, educator, { course: { priceCents: 0, title: 'After unsubscribing' } });
    await enrol(app, u, second.courseId, second.sessionId);
    expect((await mails(app, u.email)).map((m) => m.subject)).not.toContain("You're enrolled in After unsubscribing");
    expect((await notificationsOf(app, u)).map((n) => n.title)).toContain("You're enrolled in After unsubscribing");

    const forged = path.replace(/token=[^.]+/, `token=${randomUUID()}`);
    expect(
      (await call(app, 'POST', forged, 'List-Unsubscribe=One-Click', { headers: { 'content-type': 'application/x-www-form-urlencoded' } }))
        .statusCode,
    ).toBe(400);
    const broken = await get(app, '/api/notifications/unsubscribe?token=abc', { headers: { accept: 'text/html' } });
    expect(broken.statusCode).toBe(400);
    expect(broken.body).toContain('This link does not work');
  });
});

describe('each type fires from its real cause', () => {
  it('waitlist promoted: a drop gives the first waitlisted learner the seat', async () => {
    const { app, educator } = ctx;
    const { courseId, sessionId } = await makePublishedCourse(app, educator, {
      course: { priceCents: 0, title: 'Tiny class' },
      session: { capacity: 1, minToRun: 1 },
    });
    const seated = await makeLearner(app);
    const waiting = await makeLearner(app);
    await enrol(app, seated, courseId, sessionId);
    await enrol(app, waiting, courseId, sessionId);
    expect((await notificationsOf(app, waiting))[0].title).toBe("You're on the waitlist for Tiny class");
    expect((await drop(app, seated, courseId, sessionId)).statusCode).toBe(200);
    expect((await notificationsOf(app, waiting))[0]).toMatchObject({
      type: 'waitlist_promoted',
      title: 'A seat opened up: you are enrolled in Tiny class',
    });
    await newestMail(app, waiting.email, 'A seat opened up: you are enrolled in Tiny class');
  });

  it("waitlist promoted for one of a family's learners: the notification and the email say whose seat it is", async () => {
    const { app, educator } = ctx;
    const { courseId, sessionId } = await makePublishedCourse(app, educator, {
      course: { priceCents: 0, title: 'Chess club' },
      session: { capacity: 1, minToRun: 1 },
    });
    const seated = await makeLearner(app);
    const parent = await makeLearner(app);
    const mia = await makeLearnerProfile(app, parent, { firstName: 'Mia', age: 9 });
    await enrol(app, seated, courseId, sessionId);
    expect((await enrolLearners(app, parent, courseId, sessionId, [mia.id])).json().message).toBe('Mia is number 1 on the waitlist');
    expect((await drop(app, seated, courseId, sessionId)).statusCode).toBe(200);
    expect((await notificationsOf(app, parent))[0]).toMatchObject({
      type: 'waitlist_promoted',
      title: 'A seat opened up: Mia is enrolled in Chess club',
      body: 'Mia has moved from the waitlist to enrolled in "Chess club".',
    });
    const mail = await newestMail(app, parent.email, 'A seat opened up: Mia is enrolled in Chess club');
    expect(mail.text).toContain(`it is Mia's. Mia has moved from the waitlist to enrolled.`);
  });

  it("an offered seat, and one that lapsed, name the family's learner they were for (the holder's own say 'you')", () => {
    const base = { courseId: randomUUID(), courseTitle: 'Chess club', sessionId: randomUUID(), expiresAt: '2026-12-01T18:00:00.000Z' };
    expect(render('waitlist_offer', { ...base, forLearner: 'Leo' }, 'UTC')).toMatchObject({
      title: 'A seat in Chess club is held for Leo',
      body: expect.stringContaining('it is held for Leo until'),
    });
    expect(render('waitlist_offer', { ...base, lapsed: true, forLearner: 'Leo' }).title).toBe(
      'The seat held for Leo in Chess club has gone to the next learner',
    );
    expect(render('waitlist_offer', base, 'UTC').title).toBe('A seat in Chess club is held for you');
    expect(render('waitlist_offer', { ...base, lapsed: true }).title).toBe(
      'The seat held for you in Chess club has gone to the next learner',
    );
  });

  it('session cancelled, and class times changed', async () => {
    const { app, educator } = ctx;
    const { courseId, sessionId } = await makePublishedCourse(app, educator, { course: { priceCents: 0, title: 'Pottery' } });
    const learner = await makeLearner(app);
    await enrol(app, learner, courseId, sessionId);
    expect((await addClassTimes(app, educator, courseId, sessionId, classTimeBody(40))).statusCode).toBe(201);
    expect((await notificationsOf(app, learner))[0]).toMatchObject({ type: 'session_changed', title: 'The schedule of Pottery changed' });
    expect((await patchSession(app, educator, courseId, sessionId, { status: 'cancelled' })).statusCode).toBe(200);
    expect((await notificationsOf(app, learner))[0]).toMatchObject({
      type: 'session_changed',
      title: 'A session of Pottery was cancelled',
    });
    await newestMail(app, learner.email, 'A session of Pottery was cancelled');
  });

  it('a new review of your course (educator); an edit of it is not news', async () => {
    const { app } = ctx;
    const teacher = await makeEducator(app);
    const { courseId, sessionId } = await makePublishedCourse(app, teacher, { course: { priceCents: 0, title: 'Reviewed course' } });
    const learner = await makeLearner(app, { firstName: 'Mary', lastName: 'Somerville' });
    await enrol(app, learner, courseId, sessionId);
    const res = await putReview(app, learner, courseId, { rating: 4, text: 'Clear and kind' });
    if (res.statusCode !== 200) return; // a stricter review rule (after the first class) is tested with the reviews
    expect((await putReview(app, learner, courseId, { rating: 5, text: 'Even better' })).statusCode).toBe(200);
    const reviews = (await notificationsOf(app, teacher)).filter((n) => n.type === 'new_review');
    expect(reviews).toHaveLength(1);
    expect(reviews[0]).toMatchObject({ title: 'New 4-star review of Reviewed course', body: expect.stringContaining('Mary Somerville') });
    expect((await mails(app, teacher.email)).map((m) => m.subject)).toContain('New 4-star review of Reviewed course');
  });

  it('new messages: one entry per conversation, derived from the unread state; one delayed email only while still unread', async () => {
    const { app } = ctx;
    const sender = await makeLearner(app, { firstName: 'Hedy', lastName: 'Lamarr' });
    const recipient = await makeLearner(app);
    const send = async (body: string) => {
      const res = await post(
        app,
        `/api/mailbox/conversations/${recipient.id}/messages`,
        { body, clientId: randomUUID() },
        { cookie: sender.cookie },
      );
      expect(res.statusCode, res.body).toBe(201);
    };
    await send('Hello!');
    await send('Are you coming on Tuesday?');
    await send('Bring the spare tuner please');
    // Derived from the unread state when the list is read (ADR 0029): there as soon as the sends answered.
    const mine = await newMessageNotices(app, recipient);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      title: '3 new messages from Hedy Lamarr',
      body: 'Bring the spare tuner please',
      link: `/mailbox/${sender.id}`,
      read: false,
    });
    // Its detail page opens by its id, for the conversation's people only.
    expect((await get(app, `/api/notifications/${mine[0].id}`, { cookie: recipient.cookie })).json()).toMatchObject({
      title: '3 new messages from Hedy Lamarr',
    });
    const stranger = await makeLearner(app);
    expect((await get(app, `/api/notifications/${mine[0].id}`, { cookie: stranger.cookie })).statusCode).toBe(404);
    // The list's unread count holds it; the app shell counts it once: on the Mailbox badge, as one unread conversation.
    expect((await list(app, recipient)).json()).toMatchObject({ unreadCount: 1, unreadConversations: 1 });
    expect(await app.realtime.unreadCounts(recipient.id)).toMatchObject({ messages: 1, notifications: 0 });
    // One reminder for the conversation, stored by the send itself, due in ten minutes.
    const jobs = await queryRows<{ run_at: Date; kind: string }>(
      app,
      sql`select run_at, kind from job where key = ${`unread-message:${recipient.id}:${sender.id}`} and state = 'queued'`,
    );
    expect(jobs).toHaveLength(1);
    expect(jobs[0].kind).toBe('mailbox.unread-reminder');
    expect(new Date(jobs[0].run_at).getTime()).toBeGreaterThan(Date.now() + 9 * 60_000);
    expect((await mails(app, recipient.email)).filter((m) => /Hedy/.test(m.subject))).toHaveLength(0);
    await runJobsNow(app, 'mailbox.unread-reminder');
    await expect
      .poll(async () => (await mails(app, recipient.email)).filter((m) => /Hedy/.test(m.subject)).map((m) => m.subject))
      .toEqual(['3 new messages from Hedy Lamarr']);
    const [email] = await mails(app, recipient.email);
    expect(email.text).toContain('Bring the spare tuner please');
    expect(email.headers?.['List-Unsubscribe']).toBeTruthy();

    // The thread read in the mailbox before the delay: the entry is gone and no email goes.
    await send('One more thing');
    expect(await newMessageNotices(app, recipient)).toMatchObject([{ title: '4 new messages from Hedy Lamarr', body: 'One more thing' }]);
    expect((await post(app, `/api/mailbox/conversations/${sender.id}/read`, {}, { cookie: recipient.cookie })).statusCode).toBe(200);
    expect(await newMessageNotices(app, recipient)).toEqual([]);
    expect((await list(app, recipient, '?unread=true')).json().unreadCount).toBe(0);
    await runJobsNow(app, 'mailbox.unread-reminder');
    await app.jobs.runDue();
    expect((await mails(app, recipient.email)).filter((m) => /Hedy/.test(m.subject))).toHaveLength(1);
  });

  it('a new-message entry: marking it read reads the thread; mark all reads every thread; preferences hide it or send it to the digest', async () => {
    const { app } = ctx;
    const sender = await makeLearner(app, { firstName: 'Grace', lastName: 'Hopper' });
    const recipient = await makeLearner(app);
    const stranger = await makeLearner(app);
    const send = (body: string) =>
      post(app, `/api/mailbox/conversations/${recipient.id}/messages`, { body, clientId: randomUUID() }, { cookie: sender.cookie });
    const answers = await Promise.all(['one', 'two', 'three', 'four', 'five'].map(send));
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201, 201]);
    let [entry] = await newMessageNotices(app, recipient);
    const newest = answers
      .map((a) => a.json().message)
      .sort((a, b) => Number(a.id) - Number(b.id))
      .at(-1);
    expect(entry).toMatchObject({ title: '5 new messages from Grace Hopper', body: newest.body, read: false });

    // Nobody else reads or marks it.
    expect((await post(app, `/api/notifications/${entry.id}/read`, {}, { cookie: stranger.cookie })).statusCode).toBe(404);
    expect((await get(app, `/api/notifications/${entry.id}`, { cookie: stranger.cookie })).statusCode).toBe(404);
    expect(await app.realtime.unreadCounts(recipient.id)).toMatchObject({ messages: 1 }); // one conversation

    // Marking it read reads the conversation (the mailbox agrees); its page then shows it read.
    const marked = await post(app, `/api/notifications/${entry.id}/read`, {}, { cookie: recipient.cookie });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toMatchObject({ id: entry.id, read: true });
    expect(await app.realtime.unreadCounts(recipient.id)).toMatchObject({ messages: 0 });
    expect(await newMessageNotices(app, recipient)).toEqual([]);
    expect((await get(app, `/api/notifications/${entry.id}`, { cookie: recipient.cookie })).json()).toMatchObject({ read: true });

    // A message after the read brings one back; "mark all read" reads its thread too.
    expect((await send('after the read')).statusCode).toBe(201);
    [entry] = await newMessageNotices(app, recipient);
    expect(entry).toMatchObject({ title: 'New message from Grace Hopper', body: 'after the read', read: false });
    const all = await post(app, '/api/notifications/read-all', {}, { cookie: recipient.cookie });
    expect(all.json().marked).toBeGreaterThanOrEqual(1);
    expect(await app.realtime.unreadCounts(recipient.id)).toMatchObject({ messages: 0 });
    expect(await newMessageNotices(app, recipient)).toEqual([]);

    // In-app off: no entry (the messages are still in the mailbox); digest: still unread after the delay -> in the day's digest.
    expect((await putPrefs(app, recipient, { new_message: { inApp: false, email: 'digest' } })).statusCode).toBe(200);
    expect((await send('for the digest')).statusCode).toBe(201);
    expect(await newMessageNotices(app, recipient)).toEqual([]);
    expect(await app.realtime.unreadCounts(recipient.id)).toMatchObject({ messages: 1 });
    await runJobsNow(app, 'mailbox.unread-reminder');
    const digested = await queryRows<{ in_app: boolean; data: { count?: number; preview?: string } }>(
      app,
      sql`select in_app, data from notification where user_id = ${recipient.id} and type = 'new_message'`,
    );
    expect(digested).toEqual([{ in_app: false, data: expect.objectContaining({ preview: 'for the digest' }) }]);
    expect(
      (await queryRows<{ n: number }>(app, sql`select count(*)::int as n from job where key like ${`digest:${recipient.id}:%`}`))[0].n,
    ).toBe(1);
  });
});
