import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { call, get, patch, post, sendAs } from '../../support/http.js';
import { becomeEducator, classTimeBody, createClassTimes, createCourse, createSession, publishCourse } from '../../support/test-data.js';
import { startSmtpServer, type LocalSmtpServer } from '../../support/smtp.js';
import { invitationOf, mailTo, mailsTo, verifiedUser } from '../../support/mail.js';
import { sendClassReminder, type ClassReminderJob } from '../../../src/server/courses/class-reminders.js';
import { formatClassTime } from '../../../src/shared/time.js';

/**
 * Class reminders and calendar invitations (issue 25, ADR 0068), over a real SMTP server:
 * the invitations are parsed with ical.js (a library nobody here wrote), the reminders come
 * from their keyed jobs, once, and never for a class that moved away, was removed, or a
 * learner who left.
 */
let smtp: LocalSmtpServer;
let app: TestApp;
beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await buildTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Agora <hello@agora.test>' });
});
afterAll(async () => {
  await app?.close();
  await smtp?.stop();
});

const user = (firstName: string) => verifiedUser(app, smtp, { firstName });
type User = Awaited<ReturnType<typeof user>>;

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const res = await app.database.db.execute(query);
  return ((res as unknown as { rows?: T[] }).rows ?? (res as unknown as T[])) as T[];
}

interface Note {
  type: string;
  title: string;
  body: string;
  link: string;
}
const notes = async (who: User, type = 'class_reminder') =>
  ((await get(app, '/api/notifications?limit=100', { cookie: who.cookie })).json().notifications as Note[]).filter((n) => n.type === type);

/** A published free course with one session (Europe/London) and the class times given. */
async function course(educator: User, title: string, times: Record<string, unknown>[], courseExtra: Record<string, unknown> = {}) {
  const send = sendAs(app, educator.cookie);
  const courseId = await createCourse(send, { title, priceCents: 0, ...courseExtra });
  const sessionId = await createSession(send, courseId);
  const classTimeIds: string[] = [];
  for (const t of times) classTimeIds.push(...(await createClassTimes(send, courseId, sessionId, t)));
  await publishCourse(send, courseId);
  return { courseId, sessionId, classTimeIds };
}

/** A class time `hours` from now (whole minutes), lasting 90 minutes. */
function inHours(hours: number, extra: Record<string, unknown> = {}) {
  const start = new Date(Math.floor((Date.now() + hours * 3600_000) / 60_000) * 60_000);
  return { startsAt: start.toISOString(), endsAt: new Date(start.getTime() + 90 * 60_000).toISOString(), ...extra };
}

const enrol = async (who: User, c: { courseId: string; sessionId: string }) => {
  const res = await post(app, `/api/courses/${c.courseId}/sessions/${c.sessionId}/enrol`, undefined, { cookie: who.cookie });
  expect(res.statusCode, res.body).toBe(200);
};

/** Queued reminder jobs of a class time: their offset, when they run, and the start they were made for. */
const reminderJobs = (classTimeId: string) =>
  rows<{ key: string; run_at: Date; payload: ClassReminderJob }>(
    sql`select key, run_at, payload from job where kind = 'courses.class-reminder' and state = 'queued' and key like ${`class-reminder:${classTimeId}:%`} order by run_at`,
  );

/** Makes a class time's reminder jobs due now and runs what is due. */
async function runRemindersOf(classTimeId: string) {
  await app.database.db.execute(
    sql`update job set run_at = now() where kind = 'courses.class-reminder' and state = 'queued' and key like ${`class-reminder:${classTimeId}:%`}`,
  );
  await app.jobs.runDue();
}

describe('calendar invitations', () => {
  it('enrolling sends a METHOD:REQUEST invitation; a move sends the same UID with a higher SEQUENCE; a drop sends METHOD:CANCEL', async () => {
    const educator = await user('Grace');
    await becomeEducator(sendAs(app, educator.cookie));
    const c = await course(educator, 'Python for Curious Beginners', [classTimeBody(31, {}, 2), classTimeBody(33, { meetingUrl: null })]);
    const learner = await user('Ada');
    await enrol(learner, c);

    const [invite] = await mailTo(smtp, learner.email, /^Invitation: Python for Curious Beginners$/);
    const first = invitationOf(invite);
    expect(first.method).toBe('REQUEST');
    expect(first.contentType).toMatch(/^text\/calendar;.*method=REQUEST/i);
    expect(first.contentType).toMatch(/charset=utf-8/i);
    // An .ics attachment too (clients that read attachments rather than the alternative).
    expect(
      invite.parts.some(
        (p) =>
          /application\/ics|text\/calendar/i.test(p.headers['content-type'] ?? '') &&
          /invite\.ics/.test(p.headers['content-disposition'] ?? p.headers['content-type'] ?? ''),
      ),
    ).toBe(true);
    const [t1, t2] = await rows<{ id: string; starts_at: Date; ends_at: Date }>(
      sql`select id, starts_at, ends_at from class_time where session_id = ${c.sessionId} order by starts_at`,
    );
    const host = new URL(app.config.publicUrl).hostname;
    expect(first.events.map((e) => e.uid)).toEqual([`class-${t1.id}@${host}`, `class-${t2.id}@${host}`]);
    expect(first.events[0]).toMatchObject({
      sequence: 0,
      start: new Date(t1.starts_at).toISOString(),
      end: new Date(t1.ends_at).toISOString(),
      summary: 'Python for Curious Beginners',
      location: 'https://meet.example.com/room-1',
      status: 'CONFIRMED',
      organizer: 'mailto:hello@agora.test',
      attendee: `mailto:${learner.email}`,
    });
    expect(first.events[0].description).toContain(`${app.config.publicUrl}/course/${c.courseId}/session/${c.sessionId}/classroom`);
    expect(first.events[0].description).toContain('Join online: https://meet.example.com/room-1');

    // The educator moves the first class by a day: an update, same UID, SEQUENCE 1, the new times.
    const moved = {
      startsAt: new Date(new Date(t1.starts_at).getTime() + 86400_000).toISOString(),
      endsAt: new Date(new Date(t1.ends_at).getTime() + 86400_000).toISOString(),
    };
    const res = await patch(app, `/api/courses/${c.courseId}/sessions/${c.sessionId}/class-times/${t1.id}`, moved, {
      cookie: educator.cookie,
    });
    expect(res.statusCode, res.body).toBe(200);
    const update = invitationOf((await mailTo(smtp, learner.email, /^Updated invitation: Python for Curious Beginners$/))[0]);
    expect(update.method).toBe('REQUEST');
    expect(update.events).toHaveLength(1);
    expect(update.events[0]).toMatchObject({ uid: first.events[0].uid, sequence: 1, start: moved.startsAt, end: moved.endsAt });
    expect(update.events[0].sequence).toBeGreaterThan(first.events[0].sequence);
    // And in the app: the move, in the session's zone.
    const [note] = await notes(learner, 'session_changed');
    expect(note.title).toBe('A class of Python for Curious Beginners moved');
    expect(note.body).toContain(formatClassTime(moved.startsAt, moved.endsAt, 'Europe/London'));

    // Another user may not move the class (the owner's check).
    const stranger = await patch(app, `/api/courses/${c.courseId}/sessions/${c.sessionId}/class-times/${t1.id}`, moved, {
      cookie: learner.cookie,
    });
    expect(stranger.statusCode).toBe(403);

    // The learner drops: a CANCEL of every class, the same UIDs, the moved one at its new SEQUENCE.
    const drop = await post(app, `/api/courses/${c.courseId}/sessions/${c.sessionId}/drop`, undefined, { cookie: learner.cookie });
    expect(drop.statusCode, drop.body).toBe(200);
    const cancel = invitationOf((await mailTo(smtp, learner.email, /^Cancelled: Python for Curious Beginners$/))[0]);
    expect(cancel.method).toBe('CANCEL');
    expect(cancel.contentType).toMatch(/method=CANCEL/i);
    expect(cancel.events.map((e) => [e.uid, e.status])).toEqual([
      [first.events[0].uid, 'CANCELLED'],
      [first.events[1].uid, 'CANCELLED'],
    ]);
    expect(cancel.events[0].sequence).toBeGreaterThanOrEqual(1);
  });

  it('a removed class time and a cancelled session send METHOD:CANCEL with a SEQUENCE above the last one sent', async () => {
    const educator = await user('Hedy');
    await becomeEducator(sendAs(app, educator.cookie));
    const c = await course(educator, 'Radio for Makers', [classTimeBody(35), classTimeBody(37)]);
    const learner = await user('Lin');
    await enrol(learner, c);
    const first = invitationOf((await mailTo(smtp, learner.email, /^Invitation: Radio for Makers$/))[0]);
    expect(first.events).toHaveLength(2);

    const removed = await call(
      app,
      'DELETE',
      `/api/courses/${c.courseId}/sessions/${c.sessionId}/class-times/${c.classTimeIds[0]}`,
      undefined,
      {
        cookie: educator.cookie,
      },
    );
    expect(removed.statusCode, removed.body).toBe(200);
    const gone = invitationOf((await mailTo(smtp, learner.email, /^Cancelled class: Radio for Makers$/))[0]);
    expect(gone.method).toBe('CANCEL');
    expect(gone.events).toEqual([expect.objectContaining({ uid: first.events[0].uid, status: 'CANCELLED', sequence: 1 })]);

    const cancelled = await patch(
      app,
      `/api/courses/${c.courseId}/sessions/${c.sessionId}`,
      { status: 'cancelled' },
      { cookie: educator.cookie },
    );
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const all = invitationOf((await mailTo(smtp, learner.email, /^Cancelled: Radio for Makers$/))[0]);
    expect(all.method).toBe('CANCEL');
    expect(all.events).toEqual([expect.objectContaining({ uid: first.events[1].uid, status: 'CANCELLED', sequence: 1 })]);
  });

  it('a learner who turned class reminders off by email gets no invitation', async () => {
    const educator = await user('Mary');
    await becomeEducator(sendAs(app, educator.cookie));
    const c = await course(educator, 'Quiet Knitting', [classTimeBody(40)]);
    const learner = await user('Noor');
    const put = await call(
      app,
      'PUT',
      '/api/notifications/preferences',
      { preferences: { class_reminder: { email: 'off' } } },
      { cookie: learner.cookie },
    );
    expect(put.statusCode, put.body).toBe(200);
    await enrol(learner, c);
    await mailTo(smtp, learner.email, /^You're enrolled in Quiet Knitting$/);
    await app.jobs.runDue();
    expect(mailsTo(smtp, learner.email, /Invitation/)).toEqual([]);
  });
});

describe('class reminders', () => {
  it('24 h and 1 h before: the seated learners and the educator, once however many deliveries, none to a learner who dropped', async () => {
    const educator = await user('Ada');
    await becomeEducator(sendAs(app, educator.cookie));
    const c = await course(educator, 'Python for Curious Beginners', [inHours(25, { meetingUrl: 'https://meet.example.com/py' })]);
    const [classTimeId] = c.classTimeIds;
    const stays = await user('Alan');
    const leaves = await user('Barbara');
    await rows(sql`update "user" set time_zone = 'Asia/Tokyo' where id = ${stays.id}`);
    await enrol(stays, c);
    await enrol(leaves, c);
    await post(app, `/api/courses/${c.courseId}/sessions/${c.sessionId}/drop`, undefined, { cookie: leaves.cookie });

    // Scheduled by the class time itself: one job per offset, due 24 h and 1 h before the start.
    const [t] = await rows<{ starts_at: Date; ends_at: Date }>(sql`select starts_at, ends_at from class_time where id = ${classTimeId}`);
    const start = new Date(t.starts_at).getTime();
    const jobs = await reminderJobs(classTimeId);
    expect(jobs.map((j) => [j.payload.before, new Date(j.run_at).getTime()])).toEqual([
      ['24h', start - 24 * 3600_000],
      ['1h', start - 3600_000],
    ]);

    // Both delivered twice at the same moment (at least once, two instances), then by the queue.
    await Promise.all(jobs.flatMap((j) => [sendClassReminder(app, j.payload), sendClassReminder(app, j.payload)]));
    await runRemindersOf(classTimeId);
    await runRemindersOf(classTimeId);

    const mine = await notes(stays);
    expect(mine.map((n) => n.title).sort()).toEqual(['In an hour: Python for Curious Beginners', 'Tomorrow: Python for Curious Beginners']);
    const startsAt = new Date(t.starts_at).toISOString();
    const endsAt = new Date(t.ends_at).toISOString();
    for (const n of mine) {
      expect(n.link).toBe(`/course/${c.courseId}/session/${c.sessionId}/classroom`);
      // The reader's zone (Tokyo) first, the session's (London) beside it.
      expect(n.body).toContain(formatClassTime(startsAt, endsAt, 'Asia/Tokyo'));
      expect(n.body).toContain('in Europe/London, where the class is held');
      expect(n.body).toContain('Join online: https://meet.example.com/py');
    }
    const taught = await notes(educator);
    expect(taught.map((n) => n.title).sort()).toEqual([
      'In an hour: Python for Curious Beginners, which you teach',
      'Tomorrow: Python for Curious Beginners, which you teach',
    ]);
    expect(await notes(leaves)).toEqual([]);

    // One email per reminder, over SMTP, linking to the classroom.
    const [mail] = await mailTo(smtp, stays.email, /^Tomorrow: Python for Curious Beginners$/);
    const text = mail.parts.find((p) => p.headers['content-type']?.startsWith('text/plain'))!.body;
    expect(text).toContain(`/course/${c.courseId}/session/${c.sessionId}/classroom`);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo(smtp, stays.email, /^Tomorrow: Python/)).toHaveLength(1);
    expect(mailsTo(smtp, stays.email, /^In an hour: Python/)).toHaveLength(1);
    expect(mailsTo(smtp, leaves.email, /^(Tomorrow|In an hour): Python/)).toHaveLength(0);
  });

  it('a moved class is reminded at its new time only; a removed class or a cancelled session is not reminded', async () => {
    const educator = await user('Katherine');
    await becomeEducator(sendAs(app, educator.cookie));
    const c = await course(
      educator,
      'Pottery on the Wheel',
      [inHours(26, { meetingUrl: null, location: null }), inHours(30, { meetingUrl: null, location: null })],
      { format: 'in_person', city: 'Lisbon', address: 'Rua da Prata 12' },
    );
    const [movedId, removedId] = c.classTimeIds;
    const learner = await user('Rosalind');
    await enrol(learner, c);
    const old = await reminderJobs(movedId);
    expect(old).toHaveLength(2);

    // Moved two days later: the old jobs are gone, the new ones run 24 h and 1 h before the new start.
    const next = inHours(74);
    const res = await patch(app, `/api/courses/${c.courseId}/sessions/${c.sessionId}/class-times/${movedId}`, next, {
      cookie: educator.cookie,
    });
    expect(res.statusCode, res.body).toBe(200);
    const now = await reminderJobs(movedId);
    expect(now.map((j) => new Date(j.run_at).getTime())).toEqual([
      new Date(next.startsAt).getTime() - 24 * 3600_000,
      new Date(next.startsAt).getTime() - 3600_000,
    ]);
    // An old job delivered anyway (at least once) reminds no one: the class no longer starts then.
    for (const j of old) expect(await sendClassReminder(app, j.payload)).toEqual([]);
    expect(await notes(learner)).toEqual([]);

    // The removed class: its jobs are gone, and one delivered anyway reminds no one.
    const removedJobs = await reminderJobs(removedId);
    await call(app, 'DELETE', `/api/courses/${c.courseId}/sessions/${c.sessionId}/class-times/${removedId}`, undefined, {
      cookie: educator.cookie,
    });
    expect(await reminderJobs(removedId)).toEqual([]);
    for (const j of removedJobs) expect(await sendClassReminder(app, j.payload)).toEqual([]);

    // At the new time: reminded, with the venue and a map link (an in-person course).
    await runRemindersOf(movedId);
    const mine = await notes(learner);
    expect(mine).toHaveLength(2);
    expect(mine[0].body).toContain(formatClassTime(next.startsAt, next.endsAt, 'Europe/London'));
    expect(mine[0].body).toContain(
      'At Rua da Prata 12, Lisbon (map: https://www.openstreetmap.org/search?query=Rua%20da%20Prata%2012%2C%20Lisbon)',
    );

    // A cancelled session: a reminder due later finds it cancelled.
    await rows(sql`delete from class_reminder_sent where class_time_id = ${movedId}`);
    const cancelled = await patch(
      app,
      `/api/courses/${c.courseId}/sessions/${c.sessionId}`,
      { status: 'cancelled' },
      { cookie: educator.cookie },
    );
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await reminderJobs(movedId)).toEqual([]);
    for (const j of now) expect(await sendClassReminder(app, j.payload)).toEqual([]);
  });

  it('the settings list class reminders with their own channels, and turning them off stops them', async () => {
    const educator = await user('Emmy');
    await becomeEducator(sendAs(app, educator.cookie));
    const c = await course(educator, 'Algebra Evenings', [inHours(28)]);
    const learner = await user('Sofia');
    await enrol(learner, c);
    const prefs = (await get(app, '/api/notifications/preferences', { cookie: learner.cookie })).json().preferences as {
      type: string;
      label: string;
      inApp: boolean;
      email: string;
    }[];
    expect(prefs.find((p) => p.type === 'class_reminder')).toEqual({
      type: 'class_reminder',
      label: 'Class reminders (24 h and 1 h before) and calendar invitations',
      inApp: true,
      email: 'instant',
    });
    const off = await call(
      app,
      'PUT',
      '/api/notifications/preferences',
      { preferences: { class_reminder: { inApp: false, email: 'off' } } },
      { cookie: learner.cookie },
    );
    expect(off.statusCode, off.body).toBe(200);
    await runRemindersOf(c.classTimeIds[0]);
    expect(await notes(learner)).toEqual([]);
    expect(await notes(educator)).toHaveLength(2);
    expect(mailsTo(smtp, learner.email, /Algebra Evenings$/).filter((m) => /^(Tomorrow|In an hour)/.test(m.headers.subject ?? ''))).toEqual(
      [],
    );
  });
});
