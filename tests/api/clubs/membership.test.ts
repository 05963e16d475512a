import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { clubBody, clubRows, count, join, makeClub, makeEvents, makeUser, recordClubEvents, rows } from '../../support/clubs.js';
import { get, post, call } from '../../support/http.js';

const ctx = useTestApp();
const put = (url: string, body: unknown, cookie: string) => call(ctx.app, 'PUT', url, body, { cookie });
const act = (clubId: string, userId: string, action: string, cookie: string) =>
  post(ctx.app, `/api/clubs/${clubId}/members/${userId}`, { action }, { cookie });

describe('starting and editing a club', () => {
  it('makes the creator its owner and first member', async () => {
    const owner = await makeUser(ctx.app);
    const clubId = await makeClub(ctx.app, owner);
    const view = (await get(ctx.app, `/api/clubs/${clubId}`, { cookie: owner.cookie })).json();
    expect(view).toMatchObject({
      name: 'Tuesday Chess Circle',
      memberCount: 1,
      myMembership: { role: 'owner', state: 'active' },
      canManage: true,
      isOwner: true,
    });
    expect(view.organisers.map((o: { id: string }) => o.id)).toEqual([owner.id]);
    expect(await count(ctx.app, sql`select count(*)::int as n from club_membership where club_id = ${clubId} and role = 'owner'`)).toBe(1);
  });

  it('refuses invalid input with a message per field and writes nothing', async () => {
    const owner = await makeUser(ctx.app);
    const before = await count(ctx.app, sql`select count(*)::int as n from club`);
    const cases: [Record<string, unknown>, string][] = [
      [{ category: 'astrology' }, 'category'],
      [{ name: 'Chess\u0000Club' }, 'name'],
      [{ city: null, online: false }, 'city'],
      [{ name: 'ab' }, 'name'],
      [{ visibility: 'secret' }, 'visibility'],
    ];
    for (const [override, field] of cases) {
      const res = await post(ctx.app, '/api/clubs', clubBody(override), { cookie: owner.cookie });
      expect(res.statusCode, JSON.stringify(override)).toBe(400);
      expect(Object.keys(res.json().error.fields ?? {}), JSON.stringify(override)).toContain(field);
    }
    expect(await count(ctx.app, sql`select count(*)::int as n from club`)).toBe(before);
  });

  it('lets the owner and organisers edit settings, and nobody else', async () => {
    const owner = await makeUser(ctx.app);
    const organiser = await makeUser(ctx.app);
    const member = await makeUser(ctx.app);
    const outsider = await makeUser(ctx.app);
    const clubId = await makeClub(ctx.app, owner);
    await join(ctx.app, organiser, clubId);
    await join(ctx.app, member, clubId);
    expect((await act(clubId, organiser.id, 'promote', owner.cookie)).statusCode).toBe(200);
    const edit = clubBody({ name: 'Chess on Tuesdays', visibility: 'approval', joinQuestion: 'What is your rating?' });
    expect((await put(`/api/clubs/${clubId}`, edit, member.cookie)).statusCode).toBe(403);
    expect((await put(`/api/clubs/${clubId}`, edit, outsider.cookie)).statusCode).toBe(403);
    expect((await put(`/api/clubs/${clubId}`, edit, organiser.cookie)).statusCode).toBe(200);
    const view = (await get(ctx.app, `/api/clubs/${clubId}`, { cookie: owner.cookie })).json();
    expect(view).toMatchObject({ name: 'Chess on Tuesdays', visibility: 'approval', joinQuestion: 'What is your rating?' });
    // Organisers cannot promote, demote or transfer: the owner's call.
    expect((await act(clubId, member.id, 'promote', organiser.cookie)).statusCode).toBe(403);
    expect((await act(clubId, owner.id, 'remove', organiser.cookie)).statusCode).toBe(403);
  });
});

describe('joining, requests and leaving', () => {
  it('joins a public club at once and keeps member_count exact under concurrent joins', async () => {
    const owner = await makeUser(ctx.app);
    const clubId = await makeClub(ctx.app, owner);
    const users = await Promise.all(Array.from({ length: 8 }, () => makeUser(ctx.app)));
    const states = await Promise.all(users.map((u) => join(ctx.app, u, clubId)));
    expect(states.every((s) => s === 'active')).toBe(true);
    expect((await clubRows(ctx.app, clubId))[0].member_count).toBe(9);
    expect(await count(ctx.app, sql`select count(*)::int as n from club_membership where club_id = ${clubId} and state = 'active'`)).toBe(
      9,
    );
  });

  it('an approval club takes requests with the answer; organisers approve or decline; the requester is told', async () => {
    const owner = await makeUser(ctx.app);
    const asker = await makeUser(ctx.app);
    const other = await makeUser(ctx.app);
    const heard = recordClubEvents(ctx.app);
    const clubId = await makeClub(ctx.app, owner, { visibility: 'approval', joinQuestion: 'Why chess?' });
    expect(await join(ctx.app, asker, clubId, 'I love endgames')).toBe('pending');
    expect(await join(ctx.app, other, clubId)).toBe('pending');
    expect((await clubRows(ctx.app, clubId))[0].member_count).toBe(1);
    expect(heard.find((h) => h.name === 'club.join-requested' && h.event.userId === asker.id)?.event).toMatchObject({
      clubId,
      organiserIds: [owner.id],
    });
    const members = (await get(ctx.app, `/api/clubs/${clubId}/members`, { cookie: owner.cookie })).json();
    expect(members.requests.map((r: { answer: string | null }) => r.answer).sort()).toEqual(['I love endgames', null].sort());
    // A pending requester sees the public part only.
    expect((await get(ctx.app, `/api/clubs/${clubId}/members`, { cookie: asker.cookie })).statusCode).toBe(403);

    expect((await act(clubId, asker.id, 'approve', owner.cookie)).statusCode).toBe(200);
    expect((await act(clubId, other.id, 'decline', owner.cookie)).statusCode).toBe(200);
    expect(heard.some((h) => h.name === 'club.request-approved' && h.event.userId === asker.id)).toBe(true);
    expect((await clubRows(ctx.app, clubId))[0].member_count).toBe(2);
    expect((await get(ctx.app, `/api/clubs/${clubId}`, { cookie: asker.cookie })).json()).toMatchObject({
      membersVisible: true,
      myMembership: { state: 'active' },
    });
    expect((await get(ctx.app, `/api/clubs/${clubId}`, { cookie: other.cookie })).json().myMembership).toBeNull();
  });

  it('removed and banned members cannot rejoin; the owner cannot leave', async () => {
    const owner = await makeUser(ctx.app);
    const a = await makeUser(ctx.app);
    const b = await makeUser(ctx.app);
    const clubId = await makeClub(ctx.app, owner);
    await join(ctx.app, a, clubId);
    await join(ctx.app, b, clubId);
    expect((await act(clubId, a.id, 'remove', owner.cookie)).statusCode).toBe(200);
    expect((await act(clubId, b.id, 'ban', owner.cookie)).statusCode).toBe(200);
    for (const u of [a, b])
      expect((await post(ctx.app, `/api/clubs/${clubId}/join`, undefined, { cookie: u.cookie })).statusCode).toBe(403);
    expect((await clubRows(ctx.app, clubId))[0].member_count).toBe(1);
    const leave = await post(ctx.app, `/api/clubs/${clubId}/leave`, undefined, { cookie: owner.cookie });
    expect(leave.statusCode).toBe(400);
  });

  it('transfers ownership: exactly one owner, the old owner becomes an organiser', async () => {
    const owner = await makeUser(ctx.app);
    const next = await makeUser(ctx.app);
    const clubId = await makeClub(ctx.app, owner);
    await join(ctx.app, next, clubId);
    expect((await act(clubId, next.id, 'transfer', owner.cookie)).statusCode).toBe(200);
    const roles = await rows<{ user_id: string; role: string }>(
      ctx.app,
      sql`select user_id, role from club_membership where club_id = ${clubId}`,
    );
    expect(Object.fromEntries(roles.map((r) => [r.user_id, r.role]))).toEqual({ [owner.id]: 'organiser', [next.id]: 'owner' });
    // The new owner is told, in the app (and by email, per the type's default), by whom.
    const told = (await get(ctx.app, '/api/notifications', { cookie: next.cookie })).json().notifications as {
      type: string;
      title: string;
      body: string;
      link: string;
    }[];
    const handedOver = told.filter((n) => n.type === 'club_ownership');
    expect(handedOver).toHaveLength(1);
    expect(handedOver[0]).toMatchObject({ title: 'You now own Tuesday Chess Circle', link: `/club/${clubId}` });
    expect(handedOver[0].body).toContain('handed Tuesday Chess Circle over to you');
    expect(
      (await get(ctx.app, '/api/notifications', { cookie: owner.cookie }))
        .json()
        .notifications.filter((n: { type: string }) => n.type === 'club_ownership'),
    ).toEqual([]);
    // The old owner can no longer delete, the new one can leave no more.
    expect(
      (await post(ctx.app, `/api/clubs/${clubId}/delete`, { confirmName: 'Tuesday Chess Circle' }, { cookie: owner.cookie })).statusCode,
    ).toBe(403);
    expect((await post(ctx.app, `/api/clubs/${clubId}/leave`, undefined, { cookie: next.cookie })).statusCode).toBe(400);
  });

  it('leaving cancels the member\u2019s RSVPs and promotes the first waitlisted', async () => {
    const owner = await makeUser(ctx.app);
    const leaver = await makeUser(ctx.app);
    const waiting = await makeUser(ctx.app);
    const heard = recordClubEvents(ctx.app);
    const clubId = await makeClub(ctx.app, owner);
    await join(ctx.app, leaver, clubId);
    await join(ctx.app, waiting, clubId);
    const [eventId] = await makeEvents(ctx.app, owner, clubId, { capacity: 1 });
    const rsvp = (cookie: string, answer: string) => put(`/api/clubs/${clubId}/events/${eventId}/rsvp`, { answer }, cookie);
    expect((await rsvp(leaver.cookie, 'going')).json().status).toBe('going');
    expect((await rsvp(waiting.cookie, 'going')).json()).toMatchObject({ status: 'waitlisted', waitlistPosition: 1 });
    expect((await post(ctx.app, `/api/clubs/${clubId}/leave`, undefined, { cookie: leaver.cookie })).statusCode).toBe(200);
    const statuses = await rows<{ user_id: string; status: string }>(
      ctx.app,
      sql`select user_id, status from club_rsvp where event_id = ${eventId}`,
    );
    expect(Object.fromEntries(statuses.map((s) => [s.user_id, s.status]))).toEqual({ [leaver.id]: 'not_going', [waiting.id]: 'going' });
    expect(heard.find((h) => h.name === 'rsvp.promoted' && h.event.eventId === eventId)?.event.userIds).toEqual([waiting.id]);
    expect(await count(ctx.app, sql`select going_count as n from club_event where id = ${eventId}`)).toBe(1);
    expect(
      await count(ctx.app, sql`select count(*)::int as n from job where key like ${`club-reminder:${clubId}:${eventId}:${leaver.id}:%`}`),
    ).toBe(0);
    expect(
      await count(ctx.app, sql`select count(*)::int as n from job where key like ${`club-reminder:${clubId}:${eventId}:${waiting.id}:%`}`),
    ).toBe(2);
    expect((await clubRows(ctx.app, clubId))[0].member_count).toBe(2);
  });
});

describe('removing and banning', () => {
  it('release the member\u2019s places like leaving: RSVPs not going, reminders gone, the waitlist promoted', async () => {
    const owner = await makeUser(ctx.app);
    const removed = await makeUser(ctx.app);
    const banned = await makeUser(ctx.app);
    const waiting = await makeUser(ctx.app);
    const clubId = await makeClub(ctx.app, owner);
    for (const u of [removed, banned, waiting]) await join(ctx.app, u, clubId);
    const [eventId] = await makeEvents(ctx.app, owner, clubId, { capacity: 2 });
    const rsvp = (cookie: string) => put(`/api/clubs/${clubId}/events/${eventId}/rsvp`, { answer: 'going' }, cookie);
    expect((await rsvp(removed.cookie)).json().status).toBe('going');
    expect((await rsvp(banned.cookie)).json().status).toBe('going');
    expect((await rsvp(waiting.cookie)).json().status).toBe('waitlisted');
    expect((await act(clubId, removed.id, 'remove', owner.cookie)).statusCode).toBe(200);
    expect((await act(clubId, banned.id, 'ban', owner.cookie)).statusCode).toBe(200);
    const statuses = await rows<{ user_id: string; status: string }>(
      ctx.app,
      sql`select user_id, status from club_rsvp where event_id = ${eventId}`,
    );
    expect(Object.fromEntries(statuses.map((r) => [r.user_id, r.status]))).toEqual({
      [removed.id]: 'not_going',
      [banned.id]: 'not_going',
      [waiting.id]: 'going',
    });
    expect(await count(ctx.app, sql`select going_count as n from club_event where id = ${eventId}`)).toBe(1);
    for (const u of [removed, banned])
      expect(
        await count(ctx.app, sql`select count(*)::int as n from job where key like ${`club-reminder:${clubId}:${eventId}:${u.id}:%`}`),
      ).toBe(0);
    // Outside now: the event is not theirs to answer.
    expect((await rsvp(removed.cookie)).statusCode).toBe(403);
  });
});

describe('deleting a club', () => {
  it('owner only, with the name typed; upcoming events cancelled and attendees told; no orphan rows', async () => {
    const owner = await makeUser(ctx.app);
    const organiser = await makeUser(ctx.app);
    const member = await makeUser(ctx.app);
    const heard = recordClubEvents(ctx.app);
    const clubId = await makeClub(ctx.app, owner, { name: 'Doomed Club' });
    await join(ctx.app, organiser, clubId);
    await join(ctx.app, member, clubId);
    await act(clubId, organiser.id, 'promote', owner.cookie);
    const eventIds = await makeEvents(ctx.app, owner, clubId, { repeat: { frequency: 'weekly', interval: 1, count: 3 } });
    await put(`/api/clubs/${clubId}/events/${eventIds[0]}/rsvp`, { answer: 'going' }, member.cookie);

    expect(
      (await post(ctx.app, `/api/clubs/${clubId}/delete`, { confirmName: 'Doomed Club' }, { cookie: organiser.cookie })).statusCode,
    ).toBe(403);
    const wrong = await post(ctx.app, `/api/clubs/${clubId}/delete`, { confirmName: 'doomed' }, { cookie: owner.cookie });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields).toHaveProperty('confirmName');
    expect((await post(ctx.app, `/api/clubs/${clubId}/delete`, { confirmName: 'Doomed Club' }, { cookie: owner.cookie })).statusCode).toBe(
      200,
    );

    // The attendees are told by a background job (notifications/fan-out.ts): let it run, then nothing is left.
    await ctx.app.jobs.runDue();
    const deleted = heard.find((h) => h.name === 'club.deleted' && h.event.clubId === clubId)!.event as {
      cancelledEvents: { eventId: string; attendeeIds: string[] }[];
    };
    expect(deleted.cancelledEvents.map((e) => e.eventId).sort()).toEqual([...eventIds].sort());
    expect(deleted.cancelledEvents.find((e) => e.eventId === eventIds[0])!.attendeeIds).toEqual([member.id]);
    for (const table of ['club', 'club_membership', 'club_event'])
      expect(
        await count(
          ctx.app,
          sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(table === 'club' ? 'id' : 'club_id')} = ${clubId}`,
        ),
      ).toBe(0);
    expect(
      await count(
        ctx.app,
        sql`select count(*)::int as n from club_rsvp where event_id in (${sql.join(
          eventIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
      ),
    ).toBe(0);
    expect(await count(ctx.app, sql`select count(*)::int as n from job where key like ${`%${clubId}%`}`)).toBe(0);
    expect((await get(ctx.app, `/api/clubs/${clubId}`, { cookie: owner.cookie })).statusCode).toBe(404);
  });
});
