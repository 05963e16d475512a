import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { count, eventBody, join, makeClub, makeEvents, makeUser, recordClubEvents, rows } from '../../support/clubs.js';
import { call, get, post } from '../../support/http.js';
import { sendReminder } from '../../../src/server/clubs/reminders.js';

const ctx = useTestApp();
const put = (url: string, body: unknown, cookie: string) => call(ctx.app, 'PUT', url, body, { cookie });
const keysFor = (eventId: string) =>
  rows<{ key: string; run_at: Date }>(
    ctx.app,
    sql`select key, run_at from job where state = 'queued' and key like ${`%:${eventId}:%`} order by key`,
  );
/** Makes an event's reminders due now and runs them (as a poll would, at their time). */
async function fireDue(eventId: string) {
  await ctx.app.database.db.execute(sql`update job set run_at = now() where state = 'queued' and key like ${`%:${eventId}:%`}`);
  await ctx.app.jobs.runDue();
}

describe('event reminders (keyed jobs)', () => {
  it('are scheduled 24 h and 1 h before for each member going, moved with the event, dropped on not-going and cancel', async () => {
    const owner = await makeUser(ctx.app);
    const a = await makeUser(ctx.app);
    const b = await makeUser(ctx.app);
    const clubId = await makeClub(ctx.app, owner);
    await join(ctx.app, a, clubId);
    await join(ctx.app, b, clubId);
    const [eventId] = await makeEvents(ctx.app, owner, clubId);
    const url = `/api/clubs/${clubId}/events/${eventId}`;
    await put(`${url}/rsvp`, { answer: 'going' }, a.cookie);
    await put(`${url}/rsvp`, { answer: 'going' }, b.cookie);
    // Answering twice does not add a job (keyed).
    await put(`${url}/rsvp`, { answer: 'going' }, a.cookie);
    const jobs = await keysFor(eventId);
    expect(jobs.map((j) => j.key)).toEqual(
      [`${a.id}:1h`, `${a.id}:24h`, `${b.id}:1h`, `${b.id}:24h`].map((k) => `club-reminder:${clubId}:${eventId}:${k}`).sort(),
    );
    const [event] = await rows<{ starts_at: Date }>(ctx.app, sql`select starts_at from club_event where id = ${eventId}`);
    const start = new Date(event.starts_at).getTime();
    const a24 = jobs.find((j) => j.key.endsWith(`${a.id}:24h`))!;
    expect(new Date(a24.run_at).getTime()).toBe(start - 24 * 3600_000);

    // Moving the event moves the reminders.
    const view = (await get(ctx.app, url, { cookie: owner.cookie })).json();
    const later = view.local.startsAt.replace(/T\d\d:\d\d/, 'T20:00');
    expect((await put(url, eventBody({ ...view.local, startsAt: later, timeZone: view.timeZone }), owner.cookie)).statusCode).toBe(200);
    const moved = (await keysFor(eventId)).find((j) => j.key.endsWith(`${a.id}:24h`))!;
    expect(new Date(moved.run_at).getTime()).toBe(start + 3600_000 - 24 * 3600_000);

    await put(`${url}/rsvp`, { answer: 'not_going' }, b.cookie);
    expect((await keysFor(eventId)).map((j) => j.key).filter((k) => k.includes(b.id))).toEqual([]);
    await post(ctx.app, `${url}/cancel`, undefined, { cookie: owner.cookie });
    expect(await keysFor(eventId)).toEqual([]);
  });

  it('fire once each, and never for a cancelled event or a member who left', async () => {
    const owner = await makeUser(ctx.app);
    const stays = await makeUser(ctx.app);
    const leaves = await makeUser(ctx.app);
    const heard = recordClubEvents(ctx.app);
    const clubId = await makeClub(ctx.app, owner);
    await join(ctx.app, stays, clubId);
    await join(ctx.app, leaves, clubId);
    const [eventId, cancelledId] = await makeEvents(ctx.app, owner, clubId, { repeat: { frequency: 'weekly', interval: 1, count: 2 } });
    for (const id of [eventId, cancelledId])
      for (const u of [stays, leaves]) await put(`/api/clubs/${clubId}/events/${id}/rsvp`, { answer: 'going' }, u.cookie);

    // Jobs left behind on purpose (as if unscheduling had been missed): the handler re-checks.
    await ctx.app.database.db.execute(sql`update club_event set status = 'cancelled' where id = ${cancelledId}`);
    await ctx.app.database.db.execute(sql`delete from club_membership where club_id = ${clubId} and user_id = ${leaves.id}`);
    await fireDue(eventId);
    await fireDue(cancelledId);
    const due = heard.filter((h) => h.name === 'event.reminder-due');
    expect(due.map((h) => `${h.event.eventId}:${h.event.userId}:${h.event.before}`).sort()).toEqual(
      [`${eventId}:${stays.id}:1h`, `${eventId}:${stays.id}:24h`].sort(),
    );
    expect(await keysFor(eventId)).toEqual([]);

    // Delivered again (at least once): announced no second time.
    expect(await sendReminder(ctx.app, { clubId, eventId, userId: stays.id, before: '24h' })).toBe(false);
    // No reminder job of the club is left behind.
    expect(await count(ctx.app, sql`select count(*)::int as n from job where key like ${`club-reminder:${clubId}:%`}`)).toBe(0);
    expect(heard.filter((h) => h.name === 'event.reminder-due')).toHaveLength(2);
  });
});
