import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Viewer } from '../accounts/viewer.js';
import { user } from '../db/schema/accounts.js';
import { club } from '../db/schema/clubs.js';
import { createClub } from '../clubs/create-club.js';
import { joinClub, manageMember } from '../clubs/membership.js';
import { createEvents } from '../clubs/manage-events.js';
import { rsvpEvent } from '../clubs/rsvp-event.js';
import { removeClub } from '../clubs/delete-club.js';
import { markStepDone, stepDone } from './setup-steps.js';
import { DEMO_USERS } from './demo-users.js';
import { demoViewer } from './demo-viewer.js';
import { localDate } from './demo-dates.js';
import { CITY_CLUBS } from './demo-clubs-data.js';
import { seededRandom } from '../../shared/random.js';

const CLUBS_STARTED = 'demo:clubs';

/**
 * Demo clubs and events for a newcomer (only when there is no club yet): Ada runs a public
 * chess club with weekly events (full: Ada's own place came from its waitlist), Alan an
 * approval-only running club (Ada's request approved), Grace an online book circle with a
 * monthly repeat; and a club or two in every city of the demo catalogue, with members from
 * that city and a month of events they answered (demo-clubs-data.ts). Everything goes
 * through the clubs' own use cases, so counts, waitlists and notifications are real. Resumable: the start is
 * recorded before the first club, and each club once it is whole (setup_step), so an attempt
 * cut short finishes the clubs it had not made (a club half made is removed and made again).
 */
export async function seedDemoClubs(app: FastifyInstance): Promise<void> {
  const db = app.database.db;
  if (!(await stepDone(db, CLUBS_STARTED))) {
    // Clubs and no record of starting them: a database from before the records, or with clubs of its own.
    const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(club);
    if (n > 0) return;
    await markStepDone(db, CLUBS_STARTED);
  }
  await createDemoClubs(app);
}

/**
 * Makes one demo club whole, once: skipped when recorded; a club of that name and owner left
 * by an attempt cut short is removed first (its rows go with it, and nobody is told: it was
 * never finished), then `make` runs and the club is recorded.
 */
async function demoClub(app: FastifyInstance, owner: Viewer, name: string, make: () => Promise<void>): Promise<void> {
  const db = app.database.db;
  const step = `${CLUBS_STARTED}:${name}`;
  if (await stepDone(db, step)) return;
  const half = await db
    .select({ id: club.id, name: club.name })
    .from(club)
    .where(and(eq(club.name, name), eq(club.createdBy, owner.user.id)));
  for (const c of half) await db.transaction((tx) => removeClub(app, tx, async () => {}, c));
  await make();
  await markStepDone(db, step);
}

/** The demo clubs themselves (for the seed, and its test): needs the demo users. */
export async function createDemoClubs(app: FastifyInstance): Promise<void> {
  const db = app.database.db;
  const rows = await db
    .select()
    .from(user)
    .where(
      inArray(
        user.email,
        DEMO_USERS.map((u) => u.email),
      ),
    );
  const as = (email: string): Viewer | null => {
    const u = rows.find((r) => r.email === email);
    return u ? demoViewer(u) : null;
  };
  const ada = as('ada@agora.local');
  const grace = as('grace@agora.local');
  const alan = as('alan@agora.local');
  if (!ada || !grace || !alan) return;
  const local = (days: number, time: string, zone: string) => `${localDate(days, zone)}T${time}`;

  await demoClub(app, ada, 'London Chess Evenings', async () => {
    const chess = await createClub(app, ada, {
      name: 'London Chess Evenings',
      description:
        'Friendly **chess** for all levels in central London.\n\n- Boards and clocks provided\n- Beginners get a short lesson at 18:30\n- Blitz tournament on the last week of the month',
      category: 'social',
      city: 'London',
      online: false,
      visibility: 'public',
      joinQuestion: null,
      rules: 'Be kind to newcomers. Touch-move applies in rated games.',
    });
    await joinClub(app, grace, chess, null);
    await joinClub(app, alan, chess, null);
    const chessEvents = await createEvents(app, ada, chess, {
      title: 'Chess night',
      description: 'Casual games, then a short analysis of a classic game.',
      startsAt: local(3, '19:00', 'Europe/London'),
      endsAt: local(3, '21:30', 'Europe/London'),
      timeZone: 'Europe/London',
      address: 'The Library Café, 12 Gower Street, London',
      onlineUrl: null,
      capacity: 2,
      rsvpDeadline: null,
      repeat: { frequency: 'weekly', interval: 1, count: 8 },
    });
    await rsvpEvent(app, grace, chess, chessEvents[0], 'going');
    await rsvpEvent(app, alan, chess, chessEvents[0], 'going');
    // Chess night is full (capacity 2): Ada waits, Alan can no longer come, and Ada gets his place.
    await rsvpEvent(app, ada, chess, chessEvents[0], 'going');
    await rsvpEvent(app, alan, chess, chessEvents[0], 'not_going');
  });

  await demoClub(app, alan, 'Manchester Morning Runners', async () => {
    const running = await createClub(app, alan, {
      name: 'Manchester Morning Runners',
      description: 'Easy 5–10 km runs along the canals before work. Members only: tell us your usual pace when you ask to join.',
      category: 'sport',
      city: 'Manchester',
      online: false,
      visibility: 'approval',
      joinQuestion: 'What is your usual pace per km?',
      rules: 'Nobody is left behind.',
    });
    await createEvents(app, alan, running, {
      title: 'Canal loop, 7 km',
      description: 'Meet at the bridge.',
      startsAt: local(2, '07:00', 'Europe/London'),
      endsAt: local(2, '08:00', 'Europe/London'),
      timeZone: 'Europe/London',
      address: 'Castlefield Bridge, Manchester',
      onlineUrl: null,
      capacity: null,
      rsvpDeadline: null,
      repeat: { frequency: 'weekly', interval: 1, count: 4 },
    });
    await joinClub(app, ada, running, '6:00 on a good day');
    // Ada's request is approved (Alan was told of it; Ada is told it was approved).
    await manageMember(app, alan, running, ada.user.id, 'approve');
  });

  await demoClub(app, grace, 'Science Fiction Book Circle', async () => {
    const books = await createClub(app, grace, {
      name: 'Science Fiction Book Circle',
      description: 'Every month we read a science-fiction novel and talk about it **online**. Suggestions welcome!',
      category: 'writing',
      city: null,
      online: true,
      visibility: 'public',
      joinQuestion: null,
      rules: '',
    });
    await createEvents(app, grace, books, {
      title: 'This month: The Left Hand of Darkness',
      description: 'Bring one passage you loved.',
      startsAt: local(10, '20:00', 'America/New_York'),
      endsAt: local(10, '21:30', 'America/New_York'),
      timeZone: 'America/New_York',
      address: null,
      onlineUrl: 'https://meet.example.com/sf-books',
      capacity: null,
      rsvpDeadline: null,
      repeat: { frequency: 'monthly', interval: 1, count: 6 },
    });
    await joinClub(app, ada, books, null);
    // Ada hears of the circle's next event (a club_new_event notification).
    await createEvents(app, grace, books, {
      title: 'Authors’ evening: writing short fiction',
      description: 'A member reads a story of their own; we talk about how it is made.',
      startsAt: local(17, '19:00', 'America/New_York'),
      endsAt: local(17, '20:00', 'America/New_York'),
      timeZone: 'America/New_York',
      address: null,
      onlineUrl: 'https://meet.example.com/sf-books',
      capacity: null,
      rsvpDeadline: null,
    });
  });

  await createCityClubs(app, rows, local);
}

type UserRow = Parameters<typeof demoViewer>[0] & { email: string; city: string | null };

/**
 * A club or two in every city of the demo catalogue: its organiser, members from the city
 * (and a few from elsewhere), a month of events, and who is going; each club made whole once
 * (demoClub). Clubs whose organiser is not in the database (a test with only the first demo
 * users) are skipped.
 */
async function createCityClubs(app: FastifyInstance, known: UserRow[], local: (days: number, time: string, zone: string) => string) {
  const db = app.database.db;
  const all = (await db.select().from(user)) as UserRow[];
  const byEmail = new Map([...known, ...all].map((u) => [u.email, u]));
  const learners = all.filter((u) => u.email.endsWith('@agora.local') && u.email !== 'admin@agora.local');
  for (const [index, c] of CITY_CLUBS.entries()) {
    const owner = byEmail.get(c.organiser);
    if (!owner) continue;
    const viewer = demoViewer(owner);
    // Each club draws from its own seeded sequence: a club made again after a cut-short attempt gets the same people.
    const random = seededRandom(2026 + index);
    await demoClub(app, viewer, c.name, async () => {
      const clubId = await createClub(app, viewer, {
        name: c.name,
        description: c.description,
        category: c.category,
        city: c.city,
        online: c.city === null,
        visibility: 'public',
        joinQuestion: null,
        rules: c.rules,
      });
      const events = await createEvents(app, viewer, clubId, {
        title: c.event.title,
        description: c.event.description,
        startsAt: local(c.event.inDays, c.event.time, c.timeZone),
        endsAt: local(c.event.inDays, c.event.ends, c.timeZone),
        timeZone: c.timeZone,
        address: c.event.address,
        onlineUrl: c.city === null ? 'https://meet.example.com/agora-club' : null,
        capacity: c.event.capacity,
        rsvpDeadline: null,
        repeat: { frequency: 'weekly', interval: c.event.everyWeeks, count: Math.max(2, Math.ceil(5 / c.event.everyWeeks)) },
      });
      // Members: people of the club's city first, then a few from anywhere (online clubs: anyone).
      const near = learners.filter((u) => u.id !== owner.id && (c.city === null || u.city === c.city));
      const others = learners.filter((u) => u.id !== owner.id && !near.includes(u));
      const members = [...near, ...others.filter(() => random() < 0.15)].slice(0, c.members);
      for (const m of members) await joinClub(app, demoViewer(m), clubId, null);
      // Most members answer the first event, fewer the second.
      for (const [i, m] of members.entries()) {
        if (random() < 0.75) await rsvpEvent(app, demoViewer(m), clubId, events[0], 'going');
        if (events[1] && random() < 0.4 + (i === 0 ? 0.6 : 0)) await rsvpEvent(app, demoViewer(m), clubId, events[1], 'going');
      }
    });
  }
}
