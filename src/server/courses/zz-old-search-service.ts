import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { CourseCard, SearchResult, searchQuery } from '../../shared/courses-schemas.js';
import type { Db } from '../db/client.js';

/**
 * Course search (GET /api/courses/search). Design and measurements:
 * docs/decisions/0005-course-search.md. In short:
 *
 *   - Relevance never ranks every match. Tier 1 is the courses whose title or educator
 *     name matches (the narrow `search_title` vector, weight A), tier 2 the ones that match
 *     only in the summary or description (`search`). Within a tier, courses with a session
 *     to come first, then by `quality` (Bayesian average rating): one btree index
 *     (course_relevance_idx, which INCLUDEs search_title and the filter columns), so
 *     PostgreSQL takes the top k of a common word by walking that index, index-only, and
 *     stops after k rows, or for a rare word takes the few matches from the GIN index.
 *     The tiers yield ids; the cards are read for the page's rows only. Tier 2 runs only when tier 1 has fewer rows than the page needs
 *     (a one-time filter in the same statement, not a second round trip).
 *   - `total` is exact up to TOTAL_CAP and TOTAL_CAP beyond (counting stops there).
 *   - Items and total come back in one statement. A typo (nothing or almost nothing
 *     found) costs two more: the nearest known words (trigram KNN over the words of titles
 *     and educator names, checked by edit distance here), then the corrected search.
 */
export type SearchParams = z.output<typeof searchQuery>;

/** Counting stops here: a total of TOTAL_CAP means "that many or more". */
export const TOTAL_CAP = 1000;
/** Fewer exact matches than this on the first page: typo-tolerant matches are added. */
const FEW = 3;

/**
 * A course card (search results, explore shelves) as PostgreSQL builds it, and the columns
 * a card is built from (plus `quality`, the order of relevance within a tier).
 */
export const CARD_JSON = sql.raw(`json_build_object(
  'id', id, 'title', title, 'summary', summary, 'category', category, 'level', level, 'format', format, 'city', city,
  'coverImage', cover_image, 'priceCents', price_cents, 'currency', currency,
  'ratingAvg', round(rating_avg::numeric, 2), 'ratingCount', rating_count, 'educatorName', educator_name,
  'nextStartOn', next_start_on, 'seatsLeft', seats_left)`);
export const CARD_COLUMNS = sql.raw(
  'id, title, summary, category, level, format, city, cover_image, price_cents, currency, rating_avg, rating_count, educator_name, next_start_on, seats_left, quality',
);

const tsq = (q: string) => sql`websearch_to_tsquery('english', ${q})`;

/** The search text as the cache and the queries see it: trimmed, single spaces, lower case. */
export function normalizeQuery(q: string | undefined): string | undefined {
  const v = q?.replace(/\s+/g, ' ').trim().toLowerCase();
  return v ? v : undefined;
}

/** WHERE conditions of the filters; `status = 'published'` literally, so partial indexes apply. */
export function filterConditions(p: SearchParams): SQL[] {
  const w: SQL[] = [sql`status = 'published'`];
  if (p.category) w.push(sql`category = ${p.category}`);
  // A course for all levels suits a beginner too.
  if (p.level) w.push(p.level === 'all' ? sql`level = 'all'` : sql`level in (${p.level}, 'all')`);
  if (p.format) w.push(sql`format = ${p.format}`);
  if (p.city) w.push(sql`lower(city) = ${p.city.trim().toLowerCase()}`);
  if (p.free === 'true') w.push(sql`price_cents = 0`);
  if (p.free === 'false') w.push(sql`price_cents > 0`);
  if (p.minPrice !== undefined) w.push(sql`price_cents >= ${p.minPrice}`);
  if (p.maxPrice !== undefined) w.push(sql`price_cents <= ${p.maxPrice}`);
  if (p.startsAfter) w.push(sql`next_start_on >= ${p.startsAfter}::date`);
  if (p.hasSeats === 'true') w.push(sql`seats_left > 0`);
  return w;
}

const and = (conds: SQL[]) => sql.join(conds, sql` and `);

/** ORDER BY of a non-relevance sort; each matches a partial btree index. */
function orderBy(sort: 'soonest' | 'price' | 'rating'): SQL {
  switch (sort) {
    case 'soonest':
      return sql`next_start_on asc nulls last, id`;
    case 'price':
      return sql`price_cents asc, id`;
    case 'rating':
      return sql`rating_avg desc nulls last, rating_count desc nulls last, id`;
  }
}

type Rows<T> = { rows: T[] };

/**
 * Runs the statements of a search. `prepared` runs a statement of a fixed shape as a named
 * prepared statement planned once per connection (a generic plan); without it, or for the
 * other shapes, every statement is parsed and planned for its own values.
 */
export interface SearchRunner {
  db: Db;
  prepared?: (name: string, query: SQL) => Promise<Rows<unknown>>;
}

async function one<T>(run: SearchRunner, query: SQL, name?: string): Promise<T> {
  const res = (name && run.prepared ? await run.prepared(name, query) : await run.db.execute(query)) as unknown as Rows<T>;
  return res.rows[0];
}

/** The order of relevance within a tier (course_relevance_idx), over the columns a tier CTE selects. */
const TIER_ORDER = sql.raw('unbookable, quality desc nulls last, id');
/** What a tier CTE selects: the order keys only, all in course_relevance_idx (an index-only walk). */
const TIER_KEYS = sql.raw('id, (next_start_on is null) as unbookable, quality');

/**
 * Relevance with words and no filter: a tier is walked in index order (and the walk stops
 * after k rows) when it has at least this many matches, and otherwise its few matches are
 * taken from the GIN index and sorted.
 */
const WALK_FROM = 300;

/** The one shape run as a prepared statement: relevance, words, no filter, no excluded word. */
export const PREPARED_RELEVANCE = 'course_search_relevance';

/** Whether a search takes the prepared shape (relevanceSql). */
export function isPreparedShape(p: SearchParams): boolean {
  const q = normalizeQuery(p.q);
  return !!q && p.sort === 'relevance' && filterConditions(p).length === 1 && !/(^|\s)-\S/.test(q);
}

/**
 * The SQL of a relevance search with words and no filter, in one fixed shape whatever the
 * words, so that it is planned once (prepared, generic plan) rather than on every request,
 * where planning cost as much as running it. A generic plan cannot know how many courses
 * a word matches, so the statement decides at run time from the capped counts it needs for
 * the total anyway: a tier with many matches is walked along course_relevance_idx (tier 1
 * index-only) and the walk stops after k rows; a tier with few is read from its GIN index
 * and sorted. Each branch sits behind a one-time filter (only one runs), and `coalesce`
 * keeps the walk branch off the GIN index and the `offset 0` keeps the other on it, so the
 * plan of each branch is the same for every word. Same answer as searchSql's other shapes.
 */
function relevanceSql(q: string, offset: number, pageSize: number): SQL {
  const need = offset + pageSize;
  // The query parsed once (an init plan): in a generic plan, websearch_to_tsquery of a
  // parameter would be evaluated again for every row a filter looks at.
  const w = sql`(select w from qq)`;
  const keys = sql`id, (next_start_on is null) as unbookable, quality`;
  const walkTitle = sql`(select n from ct) >= greatest(${WALK_FROM}::int, 10 * ${need}::int)`;
  const t2Runs = sql`(select count(*) from t1) < ${need}::int`;
  return sql`
    with qq as materialized (select ${tsq(q)} as w),
    ct as materialized (
      select count(*)::int as n from (select from course where status = 'published' and search_title @@ ${w} limit ${TOTAL_CAP}::int) x
    ), ca as materialized (
      select count(*)::int as n from (select from course where status = 'published' and search @@ ${w} limit ${TOTAL_CAP}::int) x
    ), t1 as materialized (
      (select ${keys}, 1 as tier from course
        where ${walkTitle} and status = 'published' and coalesce(search_title @@ ${w}, false)
        order by (next_start_on is null), quality desc nulls last, id limit ${need}::int)
      union all
      (select id, unbookable, quality, 1 as tier from (
          select ${keys} from course where not ${walkTitle} and status = 'published' and search_title @@ ${w} offset 0) m
        order by ${TIER_ORDER} limit ${need}::int)
    ), t2 as materialized (
      (select ${keys}, 2 as tier from course
        where case when ${t2Runs} then (select n from ca) >= ${TOTAL_CAP}::int else false end
          and status = 'published' and coalesce(search @@ ${w}, false) and not coalesce(search_title @@ ${w}, false)
        order by (next_start_on is null), quality desc nulls last, id limit ${need}::int)
      union all
      (select id, unbookable, quality, 2 as tier from (
          select ${keys} from course
          where case when ${t2Runs} then (select n from ca) < ${TOTAL_CAP}::int else false end
            and status = 'published' and search @@ ${w} and not (search_title @@ ${w}) offset 0) m
        order by ${TIER_ORDER} limit ${need}::int)
    ), page as (
      select * from (select * from t1 union all select * from t2) r
      order by tier, ${TIER_ORDER}
      offset ${offset}::int limit ${pageSize}::int
    )
    select case when (select n from ct) >= ${TOTAL_CAP}::int then ${TOTAL_CAP}::int else (select n from ca) end as total,
      coalesce((select json_agg((select ${CARD_JSON} from course c where c.id = page.id) order by tier, ${TIER_ORDER}) from page), '[]'::json) as items`;
}

/** The SQL of the page of matches (items and capped total in one row), without running it. */
export function searchSql(p: SearchParams): SQL {
  if (isPreparedShape(p)) return relevanceSql(normalizeQuery(p.q)!, (p.page - 1) * p.pageSize, p.pageSize);
  const q = normalizeQuery(p.q);
  const where = filterConditions(p);
  const offset = (p.page - 1) * p.pageSize;
  const need = offset + p.pageSize;
  const sort = p.sort === 'relevance' && !q ? 'soonest' : p.sort;
  // An excluded word ("python -data"): a title match is then no match of the whole course.
  const excludes = !!q && /(^|\s)-\S/.test(q);

  const matchAll = q ? [...where, sql`search @@ ${tsq(q)}`] : where;
  const capped = (conds: SQL[]) => sql`(select count(*)::int from (select from course where ${and(conds)} limit ${TOTAL_CAP}) capped)`;
  // Every title (or educator name) match is a match of the whole course (`search` starts
  // with the same words at the same positions), so TOTAL_CAP title matches settle the
  // total without reading `search`, the wide and often compressed vector; only a word
  // with fewer title matches counts over `search` (the ELSE subquery runs only then).
  // Not with filters: they leave fewer title matches, and the count would run twice.
  const total =
    q && !excludes && where.length === 1
      ? sql`(case when ${capped([...where, sql`search_title @@ ${tsq(q)}`])} >= ${TOTAL_CAP} then ${TOTAL_CAP} else ${capped(matchAll)} end)`
      : capped(matchAll);

  if (q && sort === 'relevance') {
    const titleMatch = excludes ? [sql`search_title @@ ${tsq(q)}`, sql`search @@ ${tsq(q)}`] : [sql`search_title @@ ${tsq(q)}`];
    // The tiers select their order keys only (tier 1 walks course_relevance_idx index-only,
    // the index holds search_title and every filter column); the cards are read for the
    // page's rows alone, one primary-key lookup each.
    return sql`
      with t1 as materialized (
        select ${TIER_KEYS}, 1 as tier from course
        where ${and([...where, ...titleMatch])}
        order by (next_start_on is null), quality desc nulls last, id
        limit ${need}
      ), t2 as materialized (
        select ${TIER_KEYS}, 2 as tier from course
        where (select count(*) from t1) < ${need}
          and ${and([...where, sql`search @@ ${tsq(q)}`, sql`not (search_title @@ ${tsq(q)})`])}
        order by (next_start_on is null), quality desc nulls last, id
        limit ${need}
      ), page as (
        select * from (select * from t1 union all select * from t2) r
        order by tier, ${TIER_ORDER}
        offset ${offset} limit ${p.pageSize}
      )
      select ${total} as total,
        coalesce((select json_agg((select ${CARD_JSON} from course c where c.id = page.id) order by tier, ${TIER_ORDER}) from page), '[]'::json) as items`;
  }
  return sql`
    with page as (
      select ${CARD_COLUMNS} from course
      where ${and(matchAll)}
      order by ${orderBy(sort as 'soonest' | 'price' | 'rating')}
      offset ${offset} limit ${p.pageSize}
    )
    select ${total} as total,
      coalesce((select json_agg(${CARD_JSON} order by ${orderBy(sort as 'soonest' | 'price' | 'rating')}) from page), '[]'::json) as items`;
}

/**
 * One page of published courses matching the text and the filters. Without text the
 * default order is the soonest start.
 */
export async function searchCourses(run: SearchRunner, p: SearchParams): Promise<SearchResult> {
  const q = normalizeQuery(p.q);
  const db = run.db;
  const page = (params: SearchParams) => one<Page>(run, searchSql(params), isPreparedShape(params) ? PREPARED_RELEVANCE : undefined);
  const exact = await page(p);
  const base = { page: p.page, pageSize: p.pageSize };
  if (!q || exact.total >= FEW) return { ...base, items: exact.items, total: exact.total, fuzzy: false };

  // Nothing or almost nothing: correct the words that are no word of any title or
  // educator name to the nearest one that is, and search again.
  const corrected = await correctTypos(db, q);
  if (!corrected) return { ...base, items: exact.items, total: exact.total, fuzzy: false };
  const offset = (p.page - 1) * p.pageSize;
  if (exact.total === 0) {
    const fixed = await page({ ...p, q: corrected });
    return { ...base, items: fixed.items, total: fixed.total, fuzzy: fixed.total > 0 };
  }
  // A few exact matches: they come first, then the corrected search's (both lists are short
  // or cut at the page wanted).
  const [exactAll, more] = await Promise.all([
    p.page === 1 ? exact.items : page({ ...p, page: 1, pageSize: FEW }).then((r) => r.items),
    page({ ...p, q: corrected, page: 1, pageSize: Math.min(offset + p.pageSize + FEW, TOTAL_CAP) }),
  ]);
  const seen = new Set(exactAll.map((c) => c.id));
  const merged = [...exactAll, ...more.items.filter((c) => !seen.has(c.id))];
  const total = Math.min(TOTAL_CAP, exactAll.length + more.total - (more.items.length + exactAll.length - merged.length));
  return { ...base, items: merged.slice(offset, offset + p.pageSize), total, fuzzy: merged.length > exactAll.length };
}

type Page = { total: number; items: CourseCard[] };

const STOP_WORDS = new Set(['a', 'an', 'and', 'at', 'by', 'for', 'from', 'in', 'into', 'of', 'on', 'or', 'the', 'to', 'with']);

/** Edits allowed in a word: none up to 3 letters, one up to 6, two beyond. */
const allowedEdits = (word: string) => (word.length <= 3 ? 0 : word.length <= 6 ? 1 : 2);

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions), or max + 1. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length] <= max ? prev[b.length] : max + 1;
}

/**
 * The search with its misspelt words corrected, or null when no word needed (or found) a
 * correction. Candidates are the trigram nearest neighbours of each word among the words
 * of titles and educator names (`search_word`, GiST KNN: a handful of index pages
 * whatever the number of courses); the closest by edit distance wins, within one edit for
 * words of 4-6 letters and two beyond. One statement for every word at once. Club search
 * uses it over its own words (club_search_word).
 */
export async function correctTypos(
  db: Db,
  q: string,
  wordTable: 'search_word' | 'club_search_word' = 'search_word',
): Promise<string | null> {
  const words = q.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 4 && !STOP_WORDS.has(w));
  if (!words.length) return null;
  const res = (await db.execute(sql`
    select w.q, n.word
    from unnest(array[${sql.join(
      words.map((w) => sql`${w}`),
      sql`, `,
    )}]::text[]) as w(q)
    cross join lateral (select word from ${sql.identifier(wordTable)} order by word <-> w.q limit 8) n`)) as unknown as Rows<{
    q: string;
    word: string;
  }>;
  const candidates = new Map<string, string[]>();
  for (const row of res.rows) candidates.set(row.q, [...(candidates.get(row.q) ?? []), row.word]);

  let changed = false;
  const fixed = new Map<string, string>();
  for (const w of words) {
    const list = candidates.get(w) ?? [];
    if (list.includes(w)) continue; // a known word: not a typo
    const max = allowedEdits(w);
    let best: { word: string; edits: number } | null = null;
    for (const c of list) {
      const edits = editDistance(w, c, max);
      if (edits <= max && (!best || edits < best.edits)) best = { word: c, edits };
    }
    if (best) {
      fixed.set(w, best.word);
      changed = true;
    }
  }
  if (!changed) return null;
  return q
    .split(/([^\p{L}\p{N}]+)/u)
    .map((part) => fixed.get(part) ?? part)
    .join('');
}
