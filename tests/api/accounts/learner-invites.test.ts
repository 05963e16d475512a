import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { newUser, signIn, signUp } from '../../support/factories.js';
import { del, get, post, randomIp } from '../../support/http.js';
import { makePublishedCourse, queryRows } from '../../support/courses.js';
import { enrolLearners } from '../../support/family.js';
import { becomeEducator } from '../../support/test-data.js';
import { sendAs } from '../../support/http.js';
import { startSmtpServer, type LocalSmtpServer } from '../../support/smtp.js';
import { mailTo, textOf, verifiedUser } from '../../support/mail.js';

/**
 * Family accounts (ADR 0074): a learner profile becomes an account of its own. The invitation
 * goes by email (real SMTP, a local server); its one-time link opens sign-up; the account is
 * made with its email verified, and the profile's enrolments (live and past) move to it in the
 * same transaction (courses hears `learner-profile.became-account`).
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

/** A verified, signed-in user (the verification link arrives over SMTP). */
const user = (firstName: string, lastName = 'Parent') => verifiedUser(app, smtp, { firstName, lastName });
type User = Awaited<ReturnType<typeof user>>;

const addLearner = async (p: User, firstName: string) => {
  const res = await post(app, '/api/me/learners', { firstName, age: '15' }, { cookie: p.cookie });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().learner.id as string;
};
const invite = (p: User, id: string, email: string) =>
  post(app, `/api/me/learners/${id}/invite`, { email }, { cookie: p.cookie, ip: randomIp() });
const inviteToken = async (email: string) => {
  const link = /https?:\/\/\S+/.exec(textOf((await mailTo(smtp, email, /invites you to your own Agora account/))[0]))![0];
  expect(new URL(link).pathname).toBe('/signup');
  return new URL(link).searchParams.get('invite')!;
};

describe('a learner profile becomes an account of its own', () => {
  it('the invitation link creates a verified account and moves the enrolments, live and past, in one go', async () => {
    const parent = await user('Paula', 'Garcia');
    const educator = await user('Grace', 'Hopper');
    await becomeEducator(sendAs(app, educator.cookie));
    const live = await makePublishedCourse(app, educator, { course: { title: 'Chemistry club' } });
    const past = await makePublishedCourse(app, educator, { course: { title: 'Summer camp' } });
    const maya = await addLearner(parent, 'Maya');
    const other = await addLearner(parent, 'Noah');

    // Maya's seats, taken as a parent takes them: one live, one completed; Paula's own seat (in the live session) stays hers.
    const seat = async (courseId: string, sessionId: string, who: string) => {
      const res = await enrolLearners(app, parent, courseId, sessionId, [who]);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().enrolments[0].id as string;
    };
    const liveSeat = await seat(live.courseId, live.sessionId, maya);
    const pastSeat = await seat(past.courseId, past.sessionId, maya);
    await app.database.db.execute(sql`update enrolment set status = 'completed' where id = ${pastSeat}`);
    const ownSeat = await seat(live.courseId, live.sessionId, 'me');
    // Maya was marked present at a class (attendance's row for her seat): it moves with her.
    const [firstClass] = await queryRows<{ id: string }>(
      app,
      sql`select id from class_time where session_id = ${live.sessionId} order by starts_at limit 1`,
    );
    await app.database.db.execute(
      sql`insert into attendance_mark (class_time_id, learner_id, learner_profile_id, session_id, mark)
          values (${firstClass!.id}, ${parent.id}, ${maya}, ${live.sessionId}, 'present')`,
    );

    const email = `maya.${Date.now()}@example.com`;
    const sent = await invite(parent, maya, email);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().message).toBe(
      `We sent an invitation to ${email}. When Maya creates the account (within 7 days), their classes move to it.`,
    );
    const [mail] = await mailTo(smtp, email, /^Paula Garcia invites you to your own Agora account$/);
    expect(textOf(mail)).toContain('Hi Maya,');
    const token = await inviteToken(email);

    const preview = await get(app, `/api/accounts/learner-invite?token=${token}`);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toEqual({ email, firstName: 'Maya', holderName: 'Paula Garcia' });

    const weak = await post(app, '/api/accounts/learner-invite', { token, lastName: 'Garcia', password: 'short', birthdate: '2010-05-01' });
    expect(weak.statusCode).toBe(400);
    expect(Object.keys(weak.json().error.fields)).toEqual(['password']);

    const made = await post(app, '/api/accounts/learner-invite', {
      token,
      lastName: 'Garcia',
      password: 'Periodic-Table-1869',
      birthdate: '2010-05-01',
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ email });

    // The new account signs in at once (email verified) and holds Maya's seats, no longer as a profile.
    const mayaCookie = await signIn(app, email, 'Periodic-Table-1869');
    const me = (await get(app, '/api/me', { cookie: mayaCookie })).json();
    expect(me).toMatchObject({ email, firstName: 'Maya', lastName: 'Garcia' });
    const seats = await queryRows<{ id: string; learner_id: string; learner_profile_id: string | null; status: string }>(
      app,
      sql`select id, learner_id, learner_profile_id, status from enrolment where id in (${liveSeat}, ${pastSeat}, ${ownSeat}) order by status, id`,
    );
    expect(seats.find((s) => s.id === liveSeat)).toMatchObject({ learner_id: me.id, learner_profile_id: null, status: 'active' });
    expect(seats.find((s) => s.id === pastSeat)).toMatchObject({ learner_id: me.id, learner_profile_id: null, status: 'completed' });
    expect(seats.find((s) => s.id === ownSeat)).toMatchObject({ learner_id: parent.id, learner_profile_id: null });
    const marks = await queryRows<{ learner_id: string; learner_profile_id: string | null; mark: string }>(
      app,
      sql`select learner_id, learner_profile_id, mark from attendance_mark where class_time_id = ${firstClass!.id}`,
    );
    expect(marks).toEqual([{ learner_id: me.id, learner_profile_id: null, mark: 'present' }]);
    const page = await get(app, `/api/courses/${live.courseId}`, { cookie: mayaCookie });
    expect(page.json().sessions[0].myEnrolment).toMatchObject({ id: liveSeat, status: 'active' });
    const parentsPage = await get(app, `/api/courses/${live.courseId}`, { cookie: parent.cookie });
    expect(parentsPage.json().sessions[0].myEnrolment).toMatchObject({ id: ownSeat });

    // The profile is kept (history), hidden from the list, pointing to the new account.
    expect((await get(app, '/api/me/learners', { cookie: parent.cookie })).json().items.map((l: { id: string }) => l.id)).toEqual([other]);
    const [kept] = await queryRows<{ became_user_id: string }>(app, sql`select became_user_id from learner_profile where id = ${maya}`);
    expect(kept!.became_user_id).toBe(me.id);
    expect((await del(app, `/api/me/learners/${maya}`, { cookie: parent.cookie })).statusCode).toBe(404);

    // The link works once.
    const again = await post(app, '/api/accounts/learner-invite', {
      token,
      lastName: 'Garcia',
      password: 'Periodic-Table-1869',
      birthdate: '2010-05-01',
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe('This invitation link is invalid, used or expired. Ask for a new one.');
    expect((await get(app, `/api/accounts/learner-invite?token=${token}`)).statusCode).toBe(404);
  });

  it("refuses another account's learner (404), an address with an account (409), one's own address (400)", async () => {
    const parent = await user('Paula');
    const stranger = await user('Mallory');
    const kid = await addLearner(parent, 'Kim');
    const unknown = await invite(stranger, kid, `kim.${Date.now()}@example.com`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('This learner was not found');

    const taken = await invite(parent, kid, stranger.email);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.fields).toEqual({ email: 'Already has an account' });
    const own = await invite(parent, kid, parent.email.toUpperCase());
    expect(own.statusCode).toBe(400);
    const bad = await invite(parent, kid, 'not an email');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.email).toBe('Enter a valid email address');
  });

  it('a newer invitation replaces the older link; an address taken meanwhile is refused at sign-up', async () => {
    const parent = await user('Paula');
    const kid = await addLearner(parent, 'Leo');
    const first = `leo.a.${Date.now()}@example.com`;
    const second = `leo.b.${Date.now()}@example.com`;
    expect((await invite(parent, kid, first)).statusCode).toBe(200);
    const oldToken = await inviteToken(first);
    expect((await invite(parent, kid, second)).statusCode).toBe(200);
    const newToken = await inviteToken(second);
    expect((await get(app, `/api/accounts/learner-invite?token=${oldToken}`)).statusCode).toBe(404);

    // Someone signs up with the invited address first.
    expect((await signUp(app, newUser({ email: second }))).statusCode).toBe(201);
    const late = await post(app, '/api/accounts/learner-invite', {
      token: newToken,
      lastName: 'Doe',
      password: 'Periodic-Table-1869',
      birthdate: '2011-01-01',
    });
    expect(late.statusCode, late.body).toBe(409);
    expect((await get(app, '/api/me/learners', { cookie: parent.cookie })).json().items).toHaveLength(1);
  });

  it('settings list the open invitation (address, end of its link); cancelling it stops the link, and only the parent can', async () => {
    const parent = await user('Paula');
    const kid = await addLearner(parent, 'Ana');
    const email = `ana.${Date.now()}@example.com`;
    const before = Date.now();
    expect((await invite(parent, kid, email)).statusCode).toBe(200);
    const token = await inviteToken(email);
    const list = (await get(app, '/api/me/learners', { cookie: parent.cookie })).json();
    expect(list.invites).toEqual([{ learnerProfileId: kid, email, expiresAt: expect.any(String) }]);
    const ends = Date.parse(list.invites[0].expiresAt) - before;
    expect(ends).toBeGreaterThan(6.9 * 86_400_000);
    expect(ends).toBeLessThan(7.1 * 86_400_000);

    // Another account: neither sees it nor cancels it (404, as for any learner not theirs); the link still works.
    const stranger = await user('Sam');
    expect((await get(app, '/api/me/learners', { cookie: stranger.cookie })).json().invites).toEqual([]);
    const foreign = await del(app, `/api/me/learners/${kid}/invite`, { cookie: stranger.cookie });
    expect(foreign.statusCode).toBe(404);
    expect((await get(app, `/api/accounts/learner-invite?token=${token}`)).statusCode).toBe(200);

    const cancelled = await del(app, `/api/me/learners/${kid}/invite`, { cookie: parent.cookie });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().message).toBe(`The invitation to ${email} was cancelled: its link no longer works.`);
    expect((await get(app, `/api/accounts/learner-invite?token=${token}`)).statusCode).toBe(404);
    expect((await get(app, '/api/me/learners', { cookie: parent.cookie })).json().invites).toEqual([]);
    const again = await del(app, `/api/me/learners/${kid}/invite`, { cookie: parent.cookie });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe('No invitation for Ana is waiting');
  });

  it('sending it again gives a new link: the list still shows one invitation, the old link stops working', async () => {
    const parent = await user('Paula');
    const kid = await addLearner(parent, 'Tom');
    const email = `tom.${Date.now()}@example.com`;
    expect((await invite(parent, kid, email)).statusCode).toBe(200);
    const first = await inviteToken(email);
    expect((await invite(parent, kid, email)).statusCode).toBe(200);
    const mails = await mailTo(smtp, email, /invites you to your own Agora account/, 2);
    const second = new URL(/https?:\/\/\S+/.exec(textOf(mails[1]))![0]).searchParams.get('invite')!;
    expect(second).not.toBe(first);
    expect((await get(app, `/api/accounts/learner-invite?token=${first}`)).statusCode).toBe(404);
    expect((await get(app, `/api/accounts/learner-invite?token=${second}`)).statusCode).toBe(200);
    expect((await get(app, '/api/me/learners', { cookie: parent.cookie })).json().invites).toHaveLength(1);
  });
});
