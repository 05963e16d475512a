import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app.js';
import { clubRows, count, eventBody, join, localIn, makeClub, makeEvents, makeUser, recordClubEvents, rows } from '../../support/clubs.js';
import { call, get, post } from '../../support/http.js';

const ctx = useTestApp();
const put = (url: string, body: unknown, cookie: string) => call(ctx.app, 'PUT', url, body, { cookie });

/** The wall-clock weekday and time an instant shows in a zone. */
function localTime(iso: string, timeZone: string) {
  const f = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const parts = Object.fromEntries(f.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return { weekday: parts.weekday, day: +parts.day, time: `${parts.hour}:${parts.minute}` };
}

/** The second Tuesday of the month after next (YYYY-MM-DD). */
function secondTuesday(monthsAhead: number) {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + monthsAhead, 1));
  const day = 1 + ((2 - first.getUTCDay() + 7) % 7) + 7;
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), day)).toISOString().slice(0, 10);
}

describe('creating events', () => {
  it('organisers only: members 403, outsiders 403/404', async () => {
    const owner = await makeUser(ctx.app);
    const member = await makeUser(ctx.app);
    const outsider = await makeUser(ctx.app);
    const clubId = await makeClub(ctx.app, owner);
    await join(ctx.app, member, clubId);
    expect((await post(ctx.app, `/api/clubs/${clubId}/events`, eventBody(), { cookie: member.cookie })).statusCode).toBe(403);
    expect([403, 404]).toContain((await post(ctx.app, `/api/clubs/${clubId}/events`, eventBody(), { cookie: outsider.cookie })).statusCode);
    expect(await count(ctx.app, sql`select count(*)::int as n from club_event where club_id = ${clubId}`)).toBe(0);
  });

  it('refuses invalid events with a message per field and writes nothing', async () => {
    const owner = await makeUser(ctx.app);
    const clubId = await makeClub(ctx.app, owner);
    const cases: [Record<string, unknown>, string][] = [
      [{ endsAt: localIn(7, '18:00') }, 'endsAt'],
      [{ startsAt: localIn(-2, '19:00'), endsAt: localIn(-2, '21:00') }, 'startsAt'],
      [{ timeZone: 'Mars/Olympus_Mons' }, 'timeZone'],
      [{ repeat: { frequency: 'weekly', interval: 1, count: 0 } }, 'repeat.count'],
      [{ repeat: { frequency: 'weekly', interval: 1, count: 10_001 } }, 'repeat.count'],
      [{ title: 'Blitz\u0000night' }, 'title'],
      [{ startsAt: '2027-02-30T19:00', endsAt: '2027-02-30T21:00' }, 'startsAt'],
      [{ capacity: 0 }, 'capacity'],
      [{ address: null, onlineUrl: null }, 'address'],
      [{ onlineUrl: 'javascript:alert(1)' }, 'onlineUrl'],
      [{ rsvpDeadline: localIn(8, '10:00') }, 'rsvpDeadline'],
      // A repeat ending on a date: before the first event, impossible, too many events, or neither/both ends.
      [{ repeat: { frequency: 'weekly', interval: 1, until: localIn(6).slice(0, 10) } }, 'repeat.until'],
      [{ repeat: { frequency: 'monthly', until: '2027-02-30' } }, 'repeat.until'],
      [{ repeat: { frequency: 'weekly', interval: 1, until: localIn(3 * 365).slice(0, 10) } }, 'repeat.until'],
      [{ repeat: { frequency: 'weekly', interval: 1 } }, 'repeat.count'],
      [{ repeat: { frequency: 'weekly', interval: 1, count: 3, until: localIn(30).slice(0, 10) } }, 'repeat.until'],
      [{ repeat: { frequency: 'yearly', count: 3 } }, 'repeat.frequency'],
    ];
    for (const [override, field] of cases) {
      const res = await post(ctx.app, `/api/clubs/${clubId}/events`, eventBody(override), { cookie: owner.cookie });
      expect(res.statusCode, `${JSON.stringify(override)} ${res.body}`).toBe(400);
      expect(Object.keys(res.json().error.fields ?? {}), JSON.stringify(override)).toContain(field);
    }
    expect(await count(ctx.app, sql`select count(*)::int as n from club_event where club_id = ${clubId}`)).toBe(0);
  });

  it('"every second Tuesday 19:00 for 6 months": separate events, 19:00 local across DST, changeable one by one', async () => {
    const owner = await makeUser(ctx.app);
    const heard = recordClubEvents(ctx.app);
    const clubId = await makeClub(ctx.app, owner);
    const date = secondTuesday(1);
    const ids = await makeEvents(ctx.app, owner, clubId, {
      startsAt: `${date}T19:00`,
      endsAt: `${date}T21:00`,
      timeZone: 'Europe/London',
      repeat: { frequency: 'monthly', interval: 1, count: 6 },
    });
    expect(ids).toHaveLength(6);
    const events = await rows<{ id: string; starts_at: Date; series_id: string }>(
      ctx.app,
      sql`select id, starts_at, series_id from club_event where club_id = ${clubId} order by starts_at`,
    );
    expect(new Set(events.map((e) => e.series_id)).size).toBe(1);
    for (const e of events) {
      const t = localTime(new Date(e.starts_at).toISOString(), 'Europe/London');
      expect(t.weekday).toBe('Tue');
      expect(t.time).toBe('19:00');
      expect(t.day).toBeGreaterThanOrEqual(8);
      expect(t.day).toBeLessThanOrEqual(14);
    }
    expect(heard.find((h) => h.name === 'club-event.created' && h.event.clubId === clubId)?.event.eventIds).toEqual(ids);
    // Change the third one only.
    const third = events[2].id;
    const view = (await get(ctx.app, `/api/clubs/${clubId}/events/${third}`, { cookie: owner.cookie })).json();
    const changed = await put(
      `/api/clubs/${clubId}/events/${third}`,
      eventBody({
        ...view.local,
        title: 'Simultaneous exhibition',
        timeZone: 'Europe/London',
        startsAt: view.local.startsAt.replace('19:00', '18:00'),
      }),
      owner.cookie,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const titles = await rows<{ title: string }>(ctx.app, sql`select title from club_event where club_id = ${clubId} order by starts_at`);
    expect(titles.map((t) => t.title)).toEqual([
      'Blitz night',
      'Blitz night',
      'Simultaneous exhibition',
      'Blitz night',
      'Blitz night',
      'Blitz night',
    ]);
    // Search sees the next event of this public club.
    expect((await clubRows(ctx.app, clubId))[0].next_event_at).not.toBeNull();
  });

  it('weekly repeats keep the wall-clock time across a DST change', async () => {
    const owner = await makeUser(ctx.app);
    const clubId = await makeClub(ctx.app, owner);
    const ids = await makeEvents(ctx.app, owner, clubId, {
      startsAt: localIn(3, '18:30'),
      endsAt: localIn(3, '20:00'),
      timeZone: 'America/New_York',
      repeat: { frequency: 'weekly', interval: 2, count: 20 },
    });
    expect(ids).toHaveLength(20);
    const starts = await rows<{ starts_at: Date }>(
      ctx.app,
      sql`select starts_at from club_event where club_id = ${clubId} order by starts_at`,
    );
    for (const s of starts) expect(localTime(new Date(s.starts_at).toISOString(), 'America/New_York').time).toBe('18:30');
    // Two weeks apart in local days, whatever the offset did.
    const offsets = new Set(starts.map((s) => new Date(s.starts_at).getUTCHours()));
    expect(offsets.size).toBe(2);
  });
});

/** The last Sunday of March of a year: when Europe/London moves to summer time. */
function lastSundayOfMarch(year: number) {
  const d = new Date(Date.UTC(year, 2, 31));
  d.setUTCDate(31 - d.getUTCDay());
  return d;
}
const dayOf = (d: Date) => d.toISOString().slice(0, 10);
const plusDays = (d: Date, n: number) => new Date(d.getTime() + n * 86400_000);

describe('repeats that end on a date', () => {
  it('weekly until a date across the spring DST change: every Tuesday at 19:00 London time, the last date included', async () => {
    const owner = await makeUser(ctx.app);
    const clubId = await makeClub(ctx.app, owner);
    const change = lastSundayOfMarch(new Date().getUTCFullYear() + 1);
    const first = plusDays(change, -12); // the Tuesday two weeks before the change
    const until = plusDays(first, 5 * 7); // the sixth Tuesday, included
    const ids = await makeEvents(ctx.app, owner, clubId, {
      startsAt: `${dayOf(first)}T19:00`,
      endsAt: `${dayOf(first)}T21:00`,
      timeZone: 'Europe/London',
      repeat: { frequency: 'weekly', interval: 1, until: dayOf(until) },
    });
    expect(ids).toHaveLength(6);
    const starts = await rows<{ starts_at: Date }>(
      ctx.app,
      sql`select starts_at from club_event where club_id = ${clubId} order by starts_at`,
    );
    const iso = starts.map((s) => new Date(s.starts_at).toISOString());
    // 19:00 GMT before the change, 19:00 BST (18:00 UTC) after it.
    expect(iso).toEqual([0, 1, 2, 3, 4, 5].map((k) => `${dayOf(plusDays(first, 7 * k))}T${k < 2 ? '19' : '18'}:00:00.000Z`));
    for (const s of iso) expect(localTime(s, 'Europe/London')).toMatchObject({ weekday: 'Tue', time: '19:00' });
  });

  it('"every second Tuesday 19:00 for 6 months": exactly the six second Tuesdays', async () => {
    const owner = await makeUser(ctx.app);
    const clubId = await makeClub(ctx.app, owner);
    const year = new Date().getUTCFullYear() + 1;
    // The second Tuesday of each month from January to June, found independently of the app's code.
    const expected = Array.from({ length: 6 }, (_, month) => {
      let day = 1;
      while (new Date(Date.UTC(year, month, day)).getUTCDay() !== 2) day++;
      return dayOf(new Date(Date.UTC(year, month, day + 7)));
    });
    const ids = await makeEvents(ctx.app, owner, clubId, {
      startsAt: `${expected[0]}T19:00`,
      endsAt: `${expected[0]}T21:00`,
      timeZone: 'Europe/London',
      // Six months: to the day before the seventh month begins.
      repeat: { frequency: 'monthly', until: `${year}-07-07` },
    });
    expect(ids).toHaveLength(6);
    const starts = await rows<{ starts_at: Date }>(
      ctx.app,
      sql`select starts_at from club_event where club_id = ${clubId} order by starts_at`,
    );
    expect(starts.map((s) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date(s.starts_at)))).toEqual(
      expected,
    );
    for (const s of starts) expect(localTime(new Date(s.starts_at).toISOString(), 'Europe/London').time).toBe('19:00');
  });

  it('an end date before the start is a 400 on the end date, and nothing is written', async () => {
    const owner = await makeUser(ctx.app);
    const clubId = await makeClub(ctx.app, owner);
    const res = await post(
      ctx.app,
      `/api/clubs/${clubId}/events`,
      eventBody({ repeat: { frequency: 'monthly', until: localIn(1).slice(0, 10) } }),
      { cookie: owner.cookie },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ 'repeat.until': 'The end date must be on or after the first event' });
    expect(await count(ctx.app, sql`select count(*)::int as n from club_event where club_id = ${clubId}`)).toBe(0);
  });
});

describe('editing and cancelling', () => {
  it('capacity cannot go below those going; raising it promotes the waitlist; cancelling tells attendees', async () => {
    const owner = await makeUser(ctx.app);
    const a = await makeUser(ctx.app);
    const b = await makeUser(ctx.app);
    const heard = recordClubEvents(ctx.app);
    const clubId = await makeClub(ctx.app, owner);
    await join(ctx.app, a, clubId);
    await join(ctx.app, b, clubId);
    const [eventId] = await makeEvents(ctx.app, owner, clubId, { capacity: 1 });
    const url = `/api/clubs/${clubId}/events/${eventId}`;
    expect((await put(`${url}/rsvp`, { answer: 'going' }, a.cookie)).json().status).toBe('going');
    expect((await put(`${url}/rsvp`, { answer: 'going' }, b.cookie)).json().status).toBe('waitlisted');
    const view = (await get(ctx.app, url, { cookie: owner.cookie })).json();
    const body = eventBody({ ...view.local, timeZone: view.timeZone });
    expect((await put(url, { ...body, capacity: 2 }, a.cookie)).statusCode).toBe(403);
    expect((await put(url, { ...body, capacity: 2 }, owner.cookie)).statusCode).toBe(200);
    expect(heard.find((h) => h.name === 'rsvp.promoted' && h.event.eventId === eventId)?.event.userIds).toEqual([b.id]);
    const low = await put(url, { ...body, capacity: 1 }, owner.cookie);
    expect(low.statusCode).toBe(400);
    expect(low.json().error.fields).toHaveProperty('capacity');
    expect((await get(ctx.app, url, { cookie: owner.cookie })).json().capacity).toBe(2);

    expect((await post(ctx.app, `${url}/cancel`, undefined, { cookie: a.cookie })).statusCode).toBe(403);
    expect((await post(ctx.app, `${url}/cancel`, undefined, { cookie: owner.cookie })).statusCode).toBe(200);
    expect(
      (heard.find((h) => h.name === 'club-event.cancelled' && h.event.eventId === eventId)?.event.attendeeIds as string[]).sort(),
    ).toEqual([a.id, b.id].sort());
    expect(await count(ctx.app, sql`select count(*)::int as n from job where key like ${`club-reminder:${clubId}:${eventId}:%`}`)).toBe(0);
    expect((await put(`${url}/rsvp`, { answer: 'going' }, a.cookie)).statusCode).toBe(400);
  });
});

describe('RSVPs', () => {
  it('20 RSVPs at once for 3 places: 3 going, 17 waitlisted in order; one cancellation promotes exactly one', async () => {
    const owner = await makeUser(ctx.app);
    const clubId = await makeClub(ctx.app, owner);
    const users = [];
    for (let i = 0; i < 20; i++) users.push(await makeUser(ctx.app, `Member${i}`));
    await Promise.all(users.map((u) => join(ctx.app, u, clubId)));
    const [eventId] = await makeEvents(ctx.app, owner, clubId, { capacity: 3 });
    const url = `/api/clubs/${clubId}/events/${eventId}/rsvp`;
    const answers = await Promise.all(users.map((u) => put(url, { answer: 'going' }, u.cookie)));
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    const going = answers.filter((r) => r.json().status === 'going');
    const waitlisted = answers.filter((r) => r.json().status === 'waitlisted');
    expect(going).toHaveLength(3);
    expect(waitlisted).toHaveLength(17);
    // Positions 1..17, each once, in the order the answers took the lock.
    expect(waitlisted.map((r) => r.json().waitlistPosition).sort((x: number, y: number) => x - y)).toEqual(
      Array.from({ length: 17 }, (_, i) => i + 1),
    );
    expect(await count(ctx.app, sql`select going_count as n from club_event where id = ${eventId}`)).toBe(3);

    const first = users[answers.findIndex((r) => r.json().waitlistPosition === 1)];
    const second = users[answers.findIndex((r) => r.json().waitlistPosition === 2)];
    const leaver = users[answers.indexOf(going[0])];
    expect((await put(url, { answer: 'not_going' }, leaver.cookie)).json().status).toBe('not_going');
    const statuses = await rows<{ user_id: string; status: string }>(
      ctx.app,
      sql`select user_id, status from club_rsvp where event_id = ${eventId}`,
    );
    const by = Object.fromEntries(statuses.map((s) => [s.user_id, s.status]));
    expect(by[first.id]).toBe('going');
    expect(by[second.id]).toBe('waitlisted');
    expect(statuses.filter((s) => s.status === 'going')).toHaveLength(3);
    expect(statuses.filter((s) => s.status === 'waitlisted')).toHaveLength(16);
    const view = (await get(ctx.app, `/api/clubs/${clubId}/events/${eventId}`, { cookie: second.cookie })).json();
    expect(view).toMatchObject({ goingCount: 3, waitlistCount: 16, myRsvp: { status: 'waitlisted', waitlistPosition: 1 } });
  });

  it('non-members cannot RSVP; the deadline closes "going"', async () => {
    const owner = await makeUser(ctx.app);
    const outsider = await makeUser(ctx.app);
    const clubId = await makeClub(ctx.app, owner);
    const [eventId] = await makeEvents(ctx.app, owner, clubId);
    expect((await put(`/api/clubs/${clubId}/events/${eventId}/rsvp`, { answer: 'going' }, outsider.cookie)).statusCode).toBe(403);
    await ctx.app.database.db.execute(sql`update club_event set rsvp_deadline = now() - interval '1 minute' where id = ${eventId}`);
    await join(ctx.app, outsider, clubId);
    expect((await put(`/api/clubs/${clubId}/events/${eventId}/rsvp`, { answer: 'going' }, outsider.cookie)).statusCode).toBe(400);
  });
});

describe('files', () => {
  it('.ics for an event, and the attendee CSV (organisers) with formulas defused', async () => {
    const owner = await makeUser(ctx.app);
    const evil = await makeUser(ctx.app);
    await ctx.app.database.db.execute(sql`update "user" set first_name = '=HYPERLINK("http://evil")' where id = ${evil.id}`);
    const clubId = await makeClub(ctx.app, owner);
    await join(ctx.app, evil, clubId);
    const [eventId] = await makeEvents(ctx.app, owner, clubId, { title: 'Blitz, night; fun' });
    await put(`/api/clubs/${clubId}/events/${eventId}/rsvp`, { answer: 'going' }, evil.cookie);
    const ics = await get(ctx.app, `/api/clubs/${clubId}/events/${eventId}/event.ics`, { cookie: evil.cookie });
    expect(ics.statusCode).toBe(200);
    expect(ics.headers['content-type']).toContain('text/calendar');
    expect(ics.body).toContain('SUMMARY:Blitz\\, night\\; fun');
    expect(ics.body).toContain(`UID:club-event-${eventId}@agora`);
    expect((await get(ctx.app, `/api/clubs/${clubId}/events/${eventId}/attendees.csv`, { cookie: evil.cookie })).statusCode).toBe(403);
    const csv = await get(ctx.app, `/api/clubs/${clubId}/events/${eventId}/attendees.csv`, { cookie: owner.cookie });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(`"'=HYPERLINK(""http://evil"") Lovelace"`);
    expect(csv.body).not.toMatch(/(^|,)"=/m);

    // The private calendar feed carries the event for the member going.
    const feed = (await post(ctx.app, '/api/calendar/feed', undefined, { cookie: evil.cookie })).json().url as string;
    const body = (await get(ctx.app, new URL(feed).pathname)).body;
    expect(body).toContain(`UID:club-event-${eventId}@agora`);
  });
});
