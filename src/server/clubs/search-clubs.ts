import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { ClubCard, ClubSearchResult, clubSearchQuery } from '../../shared/clubs-schemas.js';
import type { Db } from '../db/client.js';
import { correctTypos, normalizeQuery } from '../courses/search-service.js';

/**
 * Club search (GET /api/clubs/search), the design of course search (docs/decisions/0005)
 * sharing its code: the query normalised as there, full text over name and city (weight A)
 * and description (C) through the GIN index on club.search, and typo tolerance by the same
 * trigram nearest-word correction (correctTypos over club_search_word) when nothing or
 * almost nothing is found. The total is exact up to TOTAL_CAP. An approval club is found
 * (its name, description and member count are public) but its events never show: the
 * "has upcoming events" filter, the "next event" sort and the card's date read public clubs only.
 */
export type ClubSearchParams = z.output<typeof clubSearchQuery>;
const TOTAL_CAP = 1000;
const FEW = 3;

const PUBLIC_NEXT_SQL = `case when visibility = 'public' and next_event_at > now() then next_event_at end`;
const PUBLIC_NEXT = sql.raw(PUBLIC_NEXT_SQL);

function conditions(p: ClubSearchParams, q: string | undefined): SQL[] {
  const w: SQL[] = [];
  if (q) w.push(sql`search @@ websearch_to_tsquery('english', ${q})`);
  if (p.category) w.push(sql`category = ${p.category}`);
  if (p.city) w.push(sql`lower(city) = ${p.city.trim().toLowerCase()}`);
  if (p.online === 'true') w.push(sql`online`);
  if (p.online === 'false') w.push(sql`not online`);
  if (p.upcoming === 'true') w.push(sql`visibility = 'public' and next_event_at > now()`);
  if (p.upcoming === 'false') w.push(sql`not (visibility = 'public' and coalesce(next_event_at > now(), false))`);
  return w;
}

function order(p: ClubSearchParams, q: string | undefined): SQL {
  if (p.sort === 'next_event') return sql`${PUBLIC_NEXT} asc nulls last, member_count desc, id`;
  if (p.sort === 'relevance' && q) return sql`ts_rank(search, websearch_to_tsquery('english', ${q})) desc, member_count desc, id`;
  return sql`member_count desc, id`;
}

/** A card's line of a Markdown description: its lines joined as sentences, without the marks. */
const summarize = (markdown: string) =>
  markdown
    .split('\n')
    .map((line) =>
      line
        .replace(/[#*_>`~[\]()!|-]+/g, ' ')
        .replace(/\s+/g, ' ')
        .replace(/\s+([.,;:!?])/g, '$1')
        .trim(),
    )
    .filter(Boolean)
    .map((line, i, all) => (i < all.length - 1 && !/[.,;:!?]$/.test(line) ? `${line}.` : line))
    .join(' ')
    .slice(0, 160);

interface Row {
  id: string;
  name: string;
  description: string;
  category: string;
  city: string | null;
  online: boolean;
  cover_image: string | null;
  visibility: 'public' | 'approval';
  member_count: number;
  next_at: string | Date | null;
  total: number;
}

export const toCard = (r: Omit<Row, 'total'>): ClubCard => ({
  id: r.id,
  name: r.name,
  summary: summarize(r.description),
  category: r.category,
  city: r.city,
  online: r.online,
  coverImage: r.cover_image,
  visibility: r.visibility,
  memberCount: r.member_count,
  nextEventAt: r.next_at ? new Date(r.next_at).toISOString() : null,
});

export const CLUB_CARD_COLUMNS = sql.raw(
  `id, name, left(description, 600) as description, category, city, online, cover_image, visibility, member_count, ${PUBLIC_NEXT_SQL} as next_at`,
);

async function run(db: Db, p: ClubSearchParams, q: string | undefined) {
  const w = conditions(p, q);
  const where = w.length ? sql`where ${sql.join(w, sql` and `)}` : sql``;
  const offset = (p.page - 1) * p.pageSize;
  const res = (await db.execute(sql`
    with page as (
      select ${CLUB_CARD_COLUMNS} from club ${where} order by ${order(p, q)} limit ${p.pageSize} offset ${offset}
    )
    select page.*, (select count(*)::int from (select 1 from club ${where} limit ${TOTAL_CAP}) x) as total from page`)) as unknown as {
    rows: Row[];
  };
  let total = res.rows[0]?.total;
  if (total === undefined) {
    // An empty page: the total still says how many there are (a page beyond the last).
    const c = (await db.execute(sql`select count(*)::int as n from (select 1 from club ${where} limit ${TOTAL_CAP}) x`)) as unknown as {
      rows: { n: number }[];
    };
    total = c.rows[0].n;
  }
  return { items: res.rows.map(toCard), total };
}

export async function searchClubs(db: Db, p: ClubSearchParams): Promise<ClubSearchResult> {
  const q = normalizeQuery(p.q);
  const first = await run(db, p, q);
  if (q && first.total < FEW && p.page === 1) {
    const corrected = await correctTypos(db, q, 'club_search_word');
    if (corrected) {
      const second = await run(db, p, corrected);
      if (second.total > first.total) return { ...second, page: p.page, pageSize: p.pageSize, correctedQuery: corrected };
    }
  }
  return { ...first, page: p.page, pageSize: p.pageSize, correctedQuery: null };
}
