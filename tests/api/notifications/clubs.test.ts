import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { count, eventBody, join, makeClub, makeEvents, makeUser, rows } from '../../support/clubs.js';
import { call, get, post } from '../../support/http.js';
import { sendReminder } from '../../../src/server/clubs/reminders.js';
import { runFanOut, type FanOut } from '../../../src/server/notifications/fan-out.js';
import type { Tx } from '../../../src/server/db/transaction.js';
import { formatClassTime } from '../../../src/shared/time.js';

/** Clubs tell people through notifications (issue 11, "Notifications"): each type from its real cause. */
const ctx = useTestApp();
type Who = { cookie: string };
interface Note {
  type: string;
  title: string;
  body: string;
  link: string;
}
const put = (url: string, body: unknown, who: Who) => call(ctx.app, 'PUT', url, body, { cookie: who.cookie });
const notes = async (who: Who, type?: string) =>
  ((await get(ctx.app, '/api/notifications?limit=100', { cookie: who.cookie })).json().notifications as Note[]).filter(
    (n) => !type || n.type === type,
  );
const rsvp = (clubId: string, eventId: string, who: Who, answer = 'going') =>
  put(`/api/clubs/${clubId}/events/${eventId}/rsvp`, { answer }, who);
/** The event's time as notifications write it: in the event's zone, named. */
async function whenOf(eventId: string) {
  const [e] = await rows<{ starts_at: Date; ends_at: Date; time_zone: string }>(
    ctx.app,
    sql`select starts_at, ends_at, time_zone from club_event where id = ${eventId}`,
  );
  return formatClassTime(new Date(e.starts_at).toISOString(), new Date(e.ends_at).toISOString(), e.time_zone);
}

describe('club notifications from their real causes', () => {
  it('a request to join an approval club tells its organisers; approving it tells the requester', async () => {
    const owner = await makeUser(ctx.app, 'Olga');
    const asker = await makeUser(ctx.app, 'Ines');
    const clubId = await makeClub(ctx.app, owner, { name: 'Endgame Study Group', visibility: 'approval', joinQuestion: 'Why?' });
    expect(await join(ctx.app, asker, clubId, 'Rook endings')).toBe('pending');

    const [request] = await notes(owner, 'club_join_request');
    expect(request).toMatchObject({ link: `/club/${clubId}` });
    expect(request.title).toMatch(/^Ines .* asked to join Endgame Study Group$/);
    expect(await notes(asker)).toEqual([]);

    const approve = await post(ctx.app, `/api/clubs/${clubId}/members/${asker.id}`, { action: 'approve' }, { cookie: owner.cookie });
    expect(approve.statusCode, approve.body).toBe(200);
    expect(await notes(asker, 'club_request_approved')).toEqual([
      expect.objectContaining({ title: 'Welcome to Endgame Study Group', link: `/club/${clubId}` }),
    ]);
  });

  it("gives the time in the reader's own zone when they have one, the event's otherwise (issue 23)", async () => {
    const owner = await makeUser(ctx.app);
    const tokyo = await makeUser(ctx.app);
    const unset = await makeUser(ctx.app);
    await rows(ctx.app, sql`update "user" set time_zone = 'Asia/Tokyo' where id = ${tokyo.id}`);
    await rows(ctx.app, sql`update "user" set time_zone = 'Europe/Lisbon' where id = ${owner.id}`);
    const clubId = await makeClub(ctx.app, owner, { name: 'Zone Walkers' });
    for (const m of [tokyo, unset]) await join(ctx.app, m, clubId);
    const [eventId] = await makeEvents(ctx.app, owner, clubId, { title: 'Harbour walk', timeZone: 'America/New_York' });
    await ctx.app.jobs.runDue();
    const [e] = await rows<{ starts_at: Date; ends_at: Date }>(
      ctx.app,
      sql`select starts_at, ends_at from club_event where id = ${eventId}`,
    );
    const inZone = (zone: string) => formatClassTime(new Date(e.starts_at).toISOString(), new Date(e.ends_at).toISOString(), zone);
    const [forTokyo] = await notes(tokyo, 'club_new_event');
    expect(forTokyo.body).toBe(`${inZone('Asia/Tokyo')}.`);
    expect(forTokyo.body).toContain('(Asia/Tokyo)');
    const [forUnset] = await notes(unset, 'club_new_event');
    expect(forUnset.body).toBe(`${inZone('America/New_York')}.`);
    // The one notification read by its id answers the same words.
    const one = await get(ctx.app, `/api/notifications/${(forTokyo as Note & { id: string }).id}`, { cookie: tokyo.cookie });
    expect(one.json().body).toBe(forTokyo.body);
  });

  it('a new event tells each member once (a 6-date repeat too), never its organiser, with the time in the event zone', async () => {
    const owner = await makeUser(ctx.app);
    const members = [await makeUser(ctx.app), await makeUser(ctx.app)];
    const clubId = await makeClub(ctx.app, owner, { name: 'Lisbon Runners' });
    for (const m of members) await join(ctx.app, m, clubId);

    const [single] = await makeEvents(ctx.app, owner, clubId, { title: 'Sunrise 10k', timeZone: 'America/New_York' });
    const ids = await makeEvents(ctx.app, owner, clubId, {
      title: 'Track Tuesdays',
      repeat: { frequency: 'weekly', interval: 1, count: 6 },
    });
    expect(ids).toHaveLength(6);
    await ctx.app.jobs.runDue(); // members are told by a background job, after the commit

    for (const m of members) {
      const news = await notes(m, 'club_new_event');
      expect(news).toHaveLength(2);
      const series = news.filter((n) => n.title === 'New event in Lisbon Runners: Track Tuesdays');
      expect(series).toHaveLength(1);
      expect(series[0].body).toBe(`6 dates, the first ${await whenOf(ids[0])}.`);
      expect(series[0].link).toBe(`/club/${clubId}/event/${ids[0]}`);
      const one = news.find((n) => n.title === 'New event in Lisbon Runners: Sunrise 10k')!;
      expect(one.body).toBe(`${await whenOf(single)}.`);
      expect(one.body).toContain('(America/New_York)');
    }
    expect(await notes(owner, 'club_new_event')).toEqual([]);
    // The default for club news is a daily digest: no email at once.
    expect(
      await count(
        ctx.app,
        sql`select count(*)::int as n from job where kind = 'notification.email' and payload->>'type' = 'club_new_event'`,
      ),
    ).toBe(0);
  });

  it('a change and a cancellation tell the attendees (going and waitlisted), not the other members', async () => {
    const owner = await makeUser(ctx.app);
    const [going, waiting, away] = [await makeUser(ctx.app), await makeUser(ctx.app), await makeUser(ctx.app)];
    const clubId = await makeClub(ctx.app, owner);
    for (const u of [going, waiting, away]) await join(ctx.app, u, clubId);
    const [eventId] = await makeEvents(ctx.app, owner, clubId, { title: 'Blitz night', capacity: 1 });
    expect((await rsvp(clubId, eventId, going)).json().status).toBe('going');
    expect((await rsvp(clubId, eventId, waiting)).json().status).toBe('waitlisted');

    const url = `/api/clubs/${clubId}/events/${eventId}`;
    const view = (await get(ctx.app, url, { cookie: owner.cookie })).json();
    const later = view.local.startsAt.replace(/T\d\d:\d\d/, 'T20:00');
    const moved = await put(url, eventBody({ ...view.local, startsAt: later, timeZone: view.timeZone, capacity: 1 }), owner);
    expect(moved.statusCode, moved.body).toBe(200);
    for (const u of [going, waiting])
      expect(await notes(u, 'club_event_changed')).toEqual([
        expect.objectContaining({
          title: 'Blitz night changed',
          body: expect.stringContaining(`it is now ${await whenOf(eventId)}`),
          link: `/club/${clubId}/event/${eventId}`,
        }),
      ]);
    expect(await notes(away, 'club_event_changed')).toEqual([]);

    expect((await post(ctx.app, `${url}/cancel`, undefined, { cookie: owner.cookie })).statusCode).toBe(200);
    for (const u of [going, waiting])
      expect((await notes(u, 'club_event_changed')).map((n) => n.title)).toContain('Blitz night was cancelled');
    expect(await notes(away, 'club_event_changed')).toEqual([]);
  });

  it('deleting a club tells the attendees of its upcoming events', async () => {
    const owner = await makeUser(ctx.app);
    const attendee = await makeUser(ctx.app);
    const member = await makeUser(ctx.app);
    const clubId = await makeClub(ctx.app, owner, { name: 'Doomed Club' });
    await join(ctx.app, attendee, clubId);
    await join(ctx.app, member, clubId);
    const [eventId] = await makeEvents(ctx.app, owner, clubId, { title: 'Last game' });
    await rsvp(clubId, eventId, attendee);
    const when = await whenOf(eventId);
    const del = await post(ctx.app, `/api/clubs/${clubId}/delete`, { confirmName: 'Doomed Club' }, { cookie: owner.cookie });
    expect(del.statusCode, del.body).toBe(200);
    await ctx.app.jobs.runDue();
    expect(await notes(attendee, 'club_event_changed')).toEqual([
      {
        type: 'club_event_changed',
        title: 'Last game is cancelled: Doomed Club was deleted',
        body: `The club was deleted, so its event of ${when} will not take place.`,
        link: '/club/search',
        read: false,
        id: expect.any(String),
        createdAt: expect.any(String),
      },
    ]);
    expect(await notes(member, 'club_event_changed')).toEqual([]);
  });

  it('a cancelled RSVP promotes the first waitlisted, who is told', async () => {
    const owner = await makeUser(ctx.app);
    const [a, b, c] = [await makeUser(ctx.app), await makeUser(ctx.app), await makeUser(ctx.app)];
    const clubId = await makeClub(ctx.app, owner);
    for (const u of [a, b, c]) await join(ctx.app, u, clubId);
    const [eventId] = await makeEvents(ctx.app, owner, clubId, { title: 'Simul', capacity: 1 });
    await rsvp(clubId, eventId, a);
    await rsvp(clubId, eventId, b);
    await rsvp(clubId, eventId, c);
    expect((await rsvp(clubId, eventId, a, 'not_going')).statusCode).toBe(200);
    expect(await notes(b, 'club_waitlist_promoted')).toEqual([
      expect.objectContaining({ title: 'A place opened up: you are going to Simul', link: `/club/${clubId}/event/${eventId}` }),
    ]);
    expect(await notes(c, 'club_waitlist_promoted')).toEqual([]);
  });

  it('a due reminder tells a member going once, and never a member who left or for a cancelled event', async () => {
    const owner = await makeUser(ctx.app);
    const stays = await makeUser(ctx.app);
    const leaves = await makeUser(ctx.app);
    const clubId = await makeClub(ctx.app, owner, { name: 'Night Owls' });
    await join(ctx.app, stays, clubId);
    await join(ctx.app, leaves, clubId);
    const [eventId, cancelledId] = await makeEvents(ctx.app, owner, clubId, {
      title: 'Stargazing',
      repeat: { frequency: 'weekly', interval: 1, count: 2 },
    });
    for (const id of [eventId, cancelledId]) for (const u of [stays, leaves]) await rsvp(clubId, id, u);
    // Left behind on purpose (as if unscheduling had been missed): the job re-checks.
    await ctx.app.database.db.execute(sql`update club_event set status = 'cancelled' where id = ${cancelledId}`);
    await ctx.app.database.db.execute(sql`delete from club_membership where club_id = ${clubId} and user_id = ${leaves.id}`);
    await ctx.app.database.db.execute(
      sql`update job set run_at = now() where state = 'queued' and key like ${`club-reminder:${clubId}:%`}`,
    );
    await ctx.app.jobs.runDue();
    await ctx.app.jobs.runDue();

    const reminders = await notes(stays, 'club_event_reminder');
    expect(reminders.map((n) => n.title).sort()).toEqual(['In an hour: Stargazing', 'Tomorrow: Stargazing']);
    for (const n of reminders) {
      expect(n.link).toBe(`/club/${clubId}/event/${eventId}`);
      expect(n.body).toContain(`Night Owls, ${await whenOf(eventId)}.`);
    }
    expect(await notes(leaves, 'club_event_reminder')).toEqual([]);
    // Delivered again (at least once): no second reminder.
    expect(await sendReminder(ctx.app, { clubId, eventId, userId: stays.id, before: '24h' })).toBe(false);
    expect(await notes(stays, 'club_event_reminder')).toHaveLength(2);
    // Reminders are emailed at once by default.
    const [u] = await rows<{ email: string }>(ctx.app, sql`select email from "user" where id = ${stays.id}`);
    expect(
      await count(ctx.app, sql`select count(*)::int as n from email_outbox where "to" = ${u.email} and subject like '%Stargazing'`),
    ).toBe(2);
  });
});

/** A club with `n` more active members, written directly (signing up 500 people would take minutes). */
async function clubWithMembers(owner: { id: string }, clubId: string, n: number) {
  const tag = randomUUID().slice(0, 8);
  const ids = await rows<{ id: string }>(
    ctx.app,
    sql`insert into "user" (id, email, name, first_name, last_name, verified)
        select gen_random_uuid(), 'fan-' || ${tag} || '-' || i || '@example.test', 'Fan ' || i, 'Fan', i::text, true
        from generate_series(1, ${n}) i returning id`,
  );
  await ctx.app.database.db.execute(sql`
    insert into club_membership (club_id, user_id, role, state)
    select ${clubId}::uuid, u.id, 'member', 'active' from "user" u where u.email like ${`fan-${tag}-%`}`);
  await ctx.app.database.db.execute(sql`update club set member_count = member_count + ${n} where id = ${clubId}`);
  return ids.map((r) => r.id);
}

/** How many rows of each table the transaction `tx` has written so far (rows whose xmin is its id). */
async function writtenHere(tx: Tx, tables: string[]) {
  const out: Record<string, number> = {};
  for (const table of tables) {
    const res = (await tx.execute(
      sql`select count(*)::int as n from ${sql.identifier(table)}
          where xmin = (select backend_xid from pg_stat_activity where pid = pg_backend_pid())`,
    )) as unknown as { rows: { n: number }[] };
    out[table] = res.rows[0].n;
  }
  return out;
}

describe('telling a big club: a background job in batches, never the request', () => {
  it('500 members: the request stores one job and no notification; the job tells each member exactly once', async () => {
    const owner = await makeUser(ctx.app);
    const clubId = await makeClub(ctx.app, owner, { name: 'Big Chess Club' });
    const memberIds = await clubWithMembers(owner, clubId, 500);
    // What the request's transaction wrote, seen from inside it (after the notifications listener ran).
    const inRequest: Record<string, number>[] = [];
    ctx.app.clubEvents.inTransaction('club-event.created', async (tx, e) => {
      if (e.clubId === clubId) inRequest.push(await writtenHere(tx, ['notification', 'job', 'club_event', 'club_membership']));
    });
    const [eventId] = await makeEvents(ctx.app, owner, clubId, { title: 'Club championship' });
    // One event and the fan-out job (and the next-event refresh's): nothing per member.
    expect(inRequest).toEqual([{ notification: 0, job: expect.any(Number), club_event: 1, club_membership: 0 }]);
    expect(inRequest[0].job).toBeGreaterThanOrEqual(1);
    expect(inRequest[0].job).toBeLessThanOrEqual(2);

    // Delivered again at the same time (at least once): the cursor in the job row keeps it exactly once.
    const [job] = await rows<{ payload: FanOut }>(ctx.app, sql`select payload from job where key = ${`club-new-event:${eventId}`}`);
    if (job) await Promise.allSettled([runFanOut(ctx.app, job.payload), runFanOut(ctx.app, job.payload)]);
    await ctx.app.jobs.runDue();

    const told = await rows<{ user_id: string; n: number }>(
      ctx.app,
      sql`select user_id, count(*)::int as n from notification
          where type = 'club_new_event' and data->>'eventId' = ${eventId} group by user_id`,
    );
    expect(told.map((t) => t.user_id).sort()).toEqual([...memberIds].sort());
    expect(told.every((t) => t.n === 1)).toBe(true);
    expect(await count(ctx.app, sql`select count(*)::int as n from job where key = ${`club-new-event:${eventId}`}`)).toBe(0);
    // A job delivered once more after it finished finds no job row: nobody is told again.
    if (job) await runFanOut(ctx.app, job.payload);
    expect(
      await count(
        ctx.app,
        sql`select count(*)::int as n from notification where type = 'club_new_event' and data->>'eventId' = ${eventId}`,
      ),
    ).toBe(500);
  });

  it('deleting a club tells the attendees of its events from a job, each once', async () => {
    const owner = await makeUser(ctx.app);
    const clubId = await makeClub(ctx.app, owner, { name: 'Short-lived Club' });
    const memberIds = await clubWithMembers(owner, clubId, 150);
    const [eventId] = await makeEvents(ctx.app, owner, clubId, { title: 'Final game' });
    await ctx.app.database.db.execute(sql`
      insert into club_rsvp (event_id, user_id, status) select ${eventId}::uuid, user_id, 'going'
      from club_membership where club_id = ${clubId} and role = 'member'`);
    await ctx.app.jobs.runDue();
    const inRequest: Record<string, number>[] = [];
    ctx.app.clubEvents.inTransaction('club.deleted', async (tx, e) => {
      if (e.clubId === clubId) inRequest.push(await writtenHere(tx, ['notification', 'job']));
    });
    const del = await post(ctx.app, `/api/clubs/${clubId}/delete`, { confirmName: 'Short-lived Club' }, { cookie: owner.cookie });
    expect(del.statusCode, del.body).toBe(200);
    expect(inRequest).toEqual([{ notification: 0, job: 1 }]);
    await ctx.app.jobs.runDue();
    const told = await rows<{ user_id: string; n: number }>(
      ctx.app,
      sql`select user_id, count(*)::int as n from notification
          where type = 'club_event_changed' and data->>'eventId' = ${eventId} group by user_id`,
    );
    expect(told.map((t) => t.user_id).sort()).toEqual([...memberIds].sort());
    expect(told.every((t) => t.n === 1)).toBe(true);
    expect(await count(ctx.app, sql`select count(*)::int as n from job where key like ${`%${clubId}%`}`)).toBe(0);
  });
});

describe('club notification preferences', () => {
  it('the preferences list the club types with their defaults', async () => {
    const u = await makeUser(ctx.app);
    const prefs = (await get(ctx.app, '/api/notifications/preferences', { cookie: u.cookie })).json().preferences as {
      type: string;
      label: string;
      inApp: boolean;
      email: string;
    }[];
    const byType = Object.fromEntries(prefs.map((p) => [p.type, p]));
    expect(byType.club_new_event).toMatchObject({ inApp: true, email: 'digest', label: 'New events in your clubs' });
    // Requests to join reach organisers only: a member of no club is not offered the row.
    expect(byType.club_join_request).toBeUndefined();
    for (const t of ['club_request_approved', 'club_event_changed', 'club_waitlist_promoted', 'club_event_reminder'])
      expect(byType[t]).toMatchObject({ inApp: true, email: 'instant', label: expect.any(String) });
  });

  it('offers requests to join to those who organise a club, not to its members', async () => {
    const owner = await makeUser(ctx.app);
    const member = await makeUser(ctx.app);
    const typesOf = async (who: Who) =>
      ((await get(ctx.app, '/api/notifications/preferences', { cookie: who.cookie })).json().preferences as { type: string }[]).map(
        (p) => p.type,
      );
    expect(await typesOf(owner)).not.toContain('club_join_request');
    const clubId = await makeClub(ctx.app, owner);
    await join(ctx.app, member, clubId);
    const prefs = (await get(ctx.app, '/api/notifications/preferences', { cookie: owner.cookie })).json().preferences as { type: string }[];
    expect(prefs.find((p) => p.type === 'club_join_request')).toMatchObject({ inApp: true, email: 'digest' });
    expect(await typesOf(member)).not.toContain('club_join_request');
    expect(await typesOf(member)).toContain('club_new_event');
  });

  it('a type turned off -> no notification and no email; the other types still come', async () => {
    const owner = await makeUser(ctx.app);
    const off = await makeUser(ctx.app);
    const on = await makeUser(ctx.app);
    const clubId = await makeClub(ctx.app, owner);
    await join(ctx.app, off, clubId);
    await join(ctx.app, on, clubId);
    const res = await put('/api/notifications/preferences', { preferences: { club_new_event: { inApp: false, email: 'off' } } }, off);
    expect(res.statusCode, res.body).toBe(200);
    const [eventId] = await makeEvents(ctx.app, owner, clubId, { capacity: 1 });
    await ctx.app.jobs.runDue();
    expect(await notes(off, 'club_new_event')).toEqual([]);
    expect(await notes(on, 'club_new_event')).toHaveLength(1);
    expect(
      await count(
        ctx.app,
        sql`select count(*)::int as n from job where payload->>'userId' = ${off.id} and (payload->>'type' = 'club_new_event' or kind = 'notification.digest')`,
      ),
    ).toBe(0);
    await rsvp(clubId, eventId, on);
    await rsvp(clubId, eventId, off);
    await rsvp(clubId, eventId, on, 'not_going');
    expect(await notes(off, 'club_waitlist_promoted')).toHaveLength(1);
  });
});
