import { and, asc, eq, gt, inArray, or, sql } from 'drizzle-orm';
import type { ClubsHome } from '../../shared/clubs-schemas.js';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { cityOf } from '../accounts/people.js';
import { clubEvent, clubMembership } from '../db/schema/clubs.js';
import type { Conn } from '../db/transaction.js';
import { eventCards } from './club-view.js';
import { CLUB_CARD_COLUMNS, toCard } from './search-clubs.js';

/** The viewer's clubs and the events they answered going (or waitlisted) to come: the dashboard. */
export async function myClubs(app: AppServices, viewer: Viewer): Promise<ClubsHome> {
  const db = app.database.db;
  const uid = viewer.user.id;
  const res = (await db.execute(sql`
    select ${CLUB_CARD_COLUMNS}, m.role from club join club_membership m on m.club_id = club.id
    where m.user_id = ${uid} and m.state = 'active' order by club.name limit 100`)) as unknown as {
    rows: (Parameters<typeof toCard>[0] & { role: 'member' })[];
  };
  const events = await eventCards(
    db,
    uid,
    and(
      gt(clubEvent.endsAt, new Date()),
      sql`${clubEvent.id} in (select event_id from club_rsvp where user_id = ${uid} and status in ('going', 'waitlisted'))`,
      // Still a member (a removed member's answers were released, this is a second guard).
      sql`${clubEvent.clubId} in (select club_id from club_membership where user_id = ${uid} and state = 'active')`,
    ),
    'asc',
    20,
  );
  return { clubs: res.rows.map((r) => ({ ...toCard(r), role: r.role })), events };
}

/**
 * The explore page's clubs shelf (clubs in the viewer's city first, then the biggest) and
 * upcoming events of public clubs (members-only events never show here): the next date of
 * each repeat once, with how many more dates it has.
 */
export async function exploreClubs(app: AppServices, viewer: Viewer): Promise<ClubsHome> {
  const db = app.database.db;
  const city = (await cityOf(db, viewer.user.id))?.trim().toLowerCase() ?? '';
  const res = (await db.execute(sql`
    (select ${CLUB_CARD_COLUMNS}, 0 as near from club where ${city} <> '' and lower(city) = ${city} order by member_count desc, id limit 8)
    union all
    (select ${CLUB_CARD_COLUMNS}, 1 as near from club order by member_count desc, id limit 16)`)) as unknown as {
    rows: Parameters<typeof toCard>[0][];
  };
  const seen = new Set<string>();
  const clubs = res.rows
    .filter((r) => !seen.has(r.id) && seen.add(r.id))
    .slice(0, 8)
    .map((r) => ({ ...toCard(r), role: null }));
  const visible = and(
    eq(clubEvent.status, 'scheduled'),
    gt(clubEvent.startsAt, new Date()),
    or(
      sql`${clubEvent.clubId} in (select id from club where visibility = 'public')`,
      inArray(
        clubEvent.clubId,
        db
          .select({ id: clubMembership.clubId })
          .from(clubMembership)
          .where(and(eq(clubMembership.userId, viewer.user.id), eq(clubMembership.state, 'active'))),
      ),
    ),
  );
  const { ids, series } = await nextOfEachSeries(db, visible, EXPLORE_EVENTS);
  const cards = ids.length ? await eventCards(db, viewer.user.id, inArray(clubEvent.id, ids), 'asc', EXPLORE_EVENTS) : [];
  const more = series.length
    ? await db
        .select({ seriesId: clubEvent.seriesId, n: sql<number>`count(*)::int` })
        .from(clubEvent)
        .where(and(inArray(clubEvent.seriesId, series), eq(clubEvent.status, 'scheduled'), gt(clubEvent.startsAt, new Date())))
        .groupBy(clubEvent.seriesId)
    : [];
  const left = new Map(more.map((m) => [m.seriesId, m.n - 1]));
  const events = cards.map((c) => ({ ...c, moreDates: (c.seriesId && left.get(c.seriesId)) || 0 }));
  return { clubs, events };
}

const EXPLORE_EVENTS = 8;

/**
 * The next `limit` events to come, one per series (the next date of a weekly repeat, not six
 * of its dates): read in start order a page at a time (the upcoming index), skipping dates of
 * a series already taken.
 */
async function nextOfEachSeries(db: Conn, visible: ReturnType<typeof and>, limit: number) {
  const taken = new Set<string>();
  const ids: string[] = [];
  const series: string[] = [];
  let after: { startsAt: Date; id: string } | null = null;
  for (let page = 0; page < 10 && ids.length < limit; page++) {
    const rows = await db
      .select({ id: clubEvent.id, seriesId: clubEvent.seriesId, startsAt: clubEvent.startsAt })
      .from(clubEvent)
      .where(
        and(
          visible,
          after
            ? sql`(${clubEvent.startsAt}, ${clubEvent.id}) > (${after.startsAt.toISOString()}::timestamptz, ${after.id}::uuid)`
            : undefined,
        ),
      )
      .orderBy(asc(clubEvent.startsAt), asc(clubEvent.id))
      .limit(PAGE);
    for (const r of rows) {
      const key = r.seriesId ?? r.id;
      if (taken.has(key) || ids.length >= limit) continue;
      taken.add(key);
      ids.push(r.id);
      if (r.seriesId) series.push(r.seriesId);
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1];
  }
  return { ids, series };
}
const PAGE = 64;
