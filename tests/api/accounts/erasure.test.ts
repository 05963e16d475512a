import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { buildTestApp, type TestApp } from '../../support/app.js';
import { count, makeClub, makeEvents, join, rows } from '../../support/clubs.js';
import { createSignedInUser, type SignedInUser } from '../../support/factories.js';
import { call, get, post, randomIp } from '../../support/http.js';
import { enrol, makeEducator, makePublishedCourse } from '../../support/courses.js';

/**
 * Deleting an account reaches every domain holding its rows, in the deleting transaction
 * (user.erased; docs/decisions/0024-erasure-reaches-every-domain.md): messages lose their
 * text but the other member keeps the conversation, club memberships and answers go (the
 * waitlist moves up, an owned club goes to its longest-standing organiser or is deleted with
 * its attendees told), notifications, preferences, blocks, reports and contact messages go.
 */
let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(async () => {
  await app.close();
});

const user = (firstName: string) => createSignedInUser(app, { firstName });
const send = (from: SignedInUser, to: SignedInUser, body: string) =>
  post(app, `/api/mailbox/conversations/${to.id}/messages`, { body, clientId: randomUUID() }, { cookie: from.cookie });
const act = (by: SignedInUser, clubId: string, userId: string, action: string) =>
  post(app, `/api/clubs/${clubId}/members/${userId}`, { action }, { cookie: by.cookie });
const rsvp = (by: SignedInUser, clubId: string, eventId: string) =>
  call(app, 'PUT', `/api/clubs/${clubId}/events/${eventId}/rsvp`, { answer: 'going' }, { cookie: by.cookie });
const n = (query: ReturnType<typeof sql>) => count(app, query);

describe('deleting an account erases its rows in every domain', () => {
  it('messages, clubs (owned, with an organiser or without), RSVPs with a waitlist, notifications, blocks, reports, contact', async () => {
    const gone = await user('Gone');
    const friend = await user('Friend');
    const pest = await user('Pest');
    const [org1, org2, member, host, waiter] = [
      await user('Olga'),
      await user('Otto'),
      await user('Mia'),
      await user('Hana'),
      await user('Wes'),
    ];

    // Mailbox: a conversation both ways; gone blocks a pest, reports one of friend's messages.
    expect((await send(gone, friend, 'My secret pottery plans')).statusCode).toBe(201);
    const fromFriend = await send(friend, gone, 'Tell me more');
    expect(fromFriend.statusCode, fromFriend.body).toBe(201);
    expect((await call(app, 'PUT', `/api/mailbox/blocks/${pest.id}`, undefined, { cookie: gone.cookie })).statusCode).toBe(200);
    expect((await call(app, 'PUT', `/api/mailbox/blocks/${gone.id}`, undefined, { cookie: friend.cookie })).statusCode).toBe(200);
    expect((await call(app, 'DELETE', `/api/mailbox/blocks/${gone.id}`, undefined, { cookie: friend.cookie })).statusCode).toBe(200);
    const report = await post(
      app,
      `/api/mailbox/messages/${fromFriend.json().message.id}/report`,
      { reason: 'Just testing reports' },
      { cookie: gone.cookie },
    );
    expect(report.statusCode, report.body).toBeLessThan(300);

    // Club A: owned by gone, two organisers; Olga joined first, so she takes it over.
    const clubA = await makeClub(app, gone, { name: 'Erasure A' });
    await join(app, org1, clubA);
    await join(app, org2, clubA);
    expect((await act(gone, clubA, org1.id, 'promote')).statusCode).toBe(200);
    expect((await act(gone, clubA, org2.id, 'promote')).statusCode).toBe(200);
    // Club B: owned by gone, no organiser: deleted; Mia was going to its event and is told.
    const clubB = await makeClub(app, gone, { name: 'Erasure B' });
    await join(app, member, clubB);
    const [eventB] = await makeEvents(app, gone, clubB, { title: 'Last ever meetup' });
    expect((await rsvp(member, clubB, eventB)).statusCode).toBe(200);
    // Club C: Hana's; gone holds the one seat of an event, Wes waits for it.
    const clubC = await makeClub(app, host, { name: 'Erasure C' });
    await join(app, gone, clubC);
    await join(app, waiter, clubC);
    const [eventC] = await makeEvents(app, host, clubC, { title: 'One seat only', capacity: 1 });
    expect((await rsvp(gone, clubC, eventC)).json().status).toBe('going');
    expect((await rsvp(waiter, clubC, eventC)).json().status).toBe('waitlisted');

    // Notifications, a preference, a contact message.
    // (Club C's new event reaches its members by a background fan-out: waited for.)
    await expect.poll(() => n(sql`select count(*)::int as n from notification where user_id = ${gone.id}`)).toBeGreaterThan(0);
    const pref = await call(
      app,
      'PUT',
      '/api/notifications/preferences',
      { preferences: { new_message: { inApp: false } } },
      { cookie: gone.cookie },
    );
    expect(pref.statusCode, pref.body).toBe(200);
    await app.database.db.execute(
      sql`insert into contact_message (name, email, topic, message, user_id) values ('Gone', ${gone.email}, 'question', 'A question', ${gone.id})`,
    );
    // Courses: gone holds the one seat of a free session, a learner waits; gone has a calendar feed.
    const teacher = await makeEducator(app);
    const free = await makePublishedCourse(app, teacher, { course: { priceCents: 0, title: 'Erasure seats' }, session: { capacity: 1 } });
    expect((await enrol(app, gone, free.courseId, free.sessionId)).json().enrolment.status).toBe('active');
    const next = await user('Nell');
    expect((await enrol(app, next, free.courseId, free.sessionId)).json().enrolment.status).toBe('waitlisted');
    expect((await post(app, '/api/calendar/feed', undefined, { cookie: gone.cookie })).statusCode).toBe(200);
    expect(await n(sql`select count(*)::int as n from calendar_feed where user_id = ${gone.id}`)).toBe(1);
    const membersOfA = await n(sql`select member_count as n from club where id = ${clubA}`);
    const membersOfC = await n(sql`select member_count as n from club where id = ${clubC}`);

    const res = await post(
      app,
      '/api/accounts/delete',
      { password: gone.password, confirmEmail: gone.email },
      { cookie: gone.cookie, ip: randomIp() },
    );
    expect(res.statusCode, res.body).toBe(200);

    // Mailbox: gone's text is removed, friend's message and the conversation stay.
    const msgs = await rows<{ sender_id: string; body: string }>(
      app,
      sql`select sender_id, body from message where sender_id in (${gone.id}, ${friend.id}) order by id`,
    );
    expect(msgs).toEqual([
      { sender_id: gone.id, body: '' },
      { sender_id: friend.id, body: 'Tell me more' },
    ]);
    expect(await n(sql`select count(*)::int as n from user_block where blocker_id = ${gone.id} or blocked_id = ${gone.id}`)).toBe(0);
    expect(await n(sql`select count(*)::int as n from message_report where reporter_id = ${gone.id}`)).toBe(0);
    // The other member's mailbox still works: the thread, the list, and no message to a deleted account.
    const thread = await get(app, `/api/mailbox/conversations/${gone.id}`, { cookie: friend.cookie });
    expect(thread.statusCode, thread.body).toBe(200);
    expect(thread.json().with.name).toBe('Deleted user');
    expect(thread.json().canMessage).toBe(false);
    expect(thread.json().messages.map((m: { body: string }) => m.body)).toEqual(['', 'Tell me more']);
    const list = await get(app, '/api/mailbox/conversations', { cookie: friend.cookie });
    expect(list.statusCode).toBe(200);
    expect(list.json().items.find((c: { with: { id: string } }) => c.with.id === gone.id)).toBeTruthy();
    const toGone = await send(friend, gone, 'Are you there?');
    expect(toGone.statusCode).toBe(403);
    expect((await send(friend, pest, 'Still working')).statusCode).toBe(201);

    // Clubs: no membership or answer left; A belongs to Olga (the earliest organiser), B is gone, C's waitlist moved up.
    expect(await n(sql`select count(*)::int as n from club_membership where user_id = ${gone.id}`)).toBe(0);
    expect(await n(sql`select count(*)::int as n from club_rsvp where user_id = ${gone.id}`)).toBe(0);
    const ownerOfA = await rows<{ user_id: string }>(
      app,
      sql`select user_id from club_membership where club_id = ${clubA} and role = 'owner'`,
    );
    expect(ownerOfA).toEqual([{ user_id: org1.id }]);
    // Olga is told the club is hers now, without the closed account's name.
    const handedOver = await rows<{ data: { reason: string; fromName?: string } }>(
      app,
      sql`select data from notification where user_id = ${org1.id} and type = 'club_ownership' and data->>'clubId' = ${clubA}`,
    );
    expect(handedOver).toHaveLength(1);
    expect(handedOver[0].data.reason).toBe('account-closed');
    expect(handedOver[0].data.fromName).toBeUndefined();
    expect(await n(sql`select member_count as n from club where id = ${clubA}`)).toBe(membersOfA - 1);
    expect(await n(sql`select count(*)::int as n from club where id = ${clubB}`)).toBe(0);
    expect(await n(sql`select count(*)::int as n from club_event where id = ${eventB}`)).toBe(0);
    expect(
      await n(
        sql`select count(*)::int as n from notification where user_id = ${member.id} and type = 'club_event_changed' and data->>'change' = 'club-deleted'`,
      ),
    ).toBe(1);
    expect(await rows(app, sql`select status from club_rsvp where event_id = ${eventC} and user_id = ${waiter.id}`)).toEqual([
      { status: 'going' },
    ]);
    expect(await n(sql`select going_count as n from club_event where id = ${eventC}`)).toBe(1);
    expect(await n(sql`select member_count as n from club where id = ${clubC}`)).toBe(membersOfC - 1);
    expect(await n(sql`select count(*)::int as n from notification where user_id = ${waiter.id} and type = 'club_waitlist_promoted'`)).toBe(
      1,
    );
    expect((await get(app, `/api/clubs/${clubA}`, { cookie: org1.cookie })).statusCode).toBe(200);

    // Courses: the seat went to the waitlist, the feed is gone.
    const places = await rows<{ learner_id: string; status: string }>(
      app,
      sql`select learner_id, status from enrolment where session_id = ${free.sessionId} order by learner_id`,
    );
    expect(places.find((p) => p.learner_id === next.id)?.status).toBe('active');
    expect(places.find((p) => p.learner_id === gone.id)?.status).toBe('dropped');
    expect(await n(sql`select seats_taken as n from course_session where id = ${free.sessionId}`)).toBe(1);
    expect(await n(sql`select count(*)::int as n from notification where user_id = ${next.id} and type = 'waitlist_promoted'`)).toBe(1);
    expect(await n(sql`select count(*)::int as n from calendar_feed where user_id = ${gone.id}`)).toBe(0);

    // Notifications, preferences, queued emails and contact messages: none left.
    expect(await n(sql`select count(*)::int as n from notification where user_id = ${gone.id}`)).toBe(0);
    expect(await n(sql`select count(*)::int as n from notification_preference where user_id = ${gone.id}`)).toBe(0);
    expect(
      await n(
        sql`select count(*)::int as n from job where state = 'queued' and (payload->>'userId' = ${gone.id} or payload->>'recipientId' = ${gone.id})`,
      ),
    ).toBe(0);
    expect(
      await n(sql`select count(*)::int as n from contact_message where user_id = ${gone.id} or lower(email) = lower(${gone.email})`),
    ).toBe(0);
  });
});
