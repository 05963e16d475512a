import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { CourseCard, SearchResult, searchQuery } from '../../shared/courses-schemas.js';
import { toViewer, viewerBySessionToken, type RequireViewerWith, type Viewer, type ViewerRow } from '../accounts/viewer.js';
import type { Db } from '../db/client.js';
import { fixedText } from '../db/fixed-text.js';

/**
 * Course search (GET /api/courses/search). Design and measurements:
 * docs/decisions/0005-course-search.md, 0028-course-search-postings.md and
 * 0034-search-text-and-lean-statements.md. In short:
 *
 *   - A one-word relevance search (most searches; oneWordSql) reads tier 1 from the word's
 *     title postings (course_term, index-only, filters included) and its total from the
 *     lexeme counts (search_lexeme), both kept by triggers: exact without filters, "about
 *     N" (totalKind) with filters over many matches. The paragraphs below describe the
 *     other searches (several words, other sorts, no words) and tier 2.
 *   - Relevance never ranks every match. Tier 1 is the courses whose title or educator
 *     name matches (the narrow `search_title` vector, weight A), tier 2 the ones that match
 *     only in the summary or description (`search`). Within a tier, courses with a session
 *     to come first, then by `quality` (Bayesian average rating): one btree index
 *     (course_relevance_idx, which INCLUDEs search_title and the filter columns), so
 *     PostgreSQL takes the top k of a common word by walking that index, index-only, and
 *     stops after k rows, or for a rare word takes the few matches from the GIN index.
 *     The tiers yield ids; the cards are read for the page's rows only, from course_card
 *     (the card of each published course as JSON text, kept by a trigger), and the answer
 *     is sent as the text PostgreSQL wrote (searchCoursesJson). Tier 2 runs only when tier 1 has fewer rows than the page needs
 *     (a one-time filter in the same statement, not a second round trip).
 *   - `total` is exact up to TOTAL_CAP and TOTAL_CAP beyond (counting stops there; totalKind
 *     `atLeast`).
 *   - Items and total come back in one statement. A typo (nothing or almost nothing
 *     found) costs one more: the corrected search (a one-word search brings its word's
 *     nearest known words with its page: trigram KNN over the words of titles and educator
 *     names, checked by edit distance here); several misspelt words, two more.
 */
export type SearchParams = z.output<typeof searchQuery>;

/** Counting stops here: a total of TOTAL_CAP means "that many or more". */
export const TOTAL_CAP = 1000;
/** Fewer exact matches than this on the first page: typo-tolerant matches are added. */
const FEW = 3;
/** Nearest known words looked at per misspelt word (trigram KNN). */
export const TYPO_NEIGHBOURS = 8;

/**
 * A course card (CourseCard) is made by PostgreSQL: the SQL function course_card(course)
 * (drizzle/0035) is its one definition, and course_card (the table) keeps the card of every
 * published course, which search reads by primary key. Search sends the cards' text as the
 * answer's items, never parsed nor written again by Node
 * (docs/decisions/0034-search-text-and-lean-statements.md).
 *
 * CARD_COLUMNS: a course row's card (`card`) and the columns the lists order by; CARD_JSON:
 * that card as a json value (explore and the landing page aggregate and parse it).
 */
export const CARD_COLUMNS = sql.raw('id, course_card(course) as card, quality, price_cents, rating_avg, rating_count, next_start_on');
export const CARD_JSON = sql.raw('card::json');

/**
 * The values `element` of the rows of a from-clause, in this order, as a JSON array in text
 * (each element is JSON text already): search answers' items as PostgreSQL wrote them, sent
 * without being parsed or written again by Node. Club search uses it too.
 */
export const jsonArrayText = (element: SQL, order: SQL, from: SQL) =>
  sql`(select '[' || coalesce(string_agg(${element}, ',' order by ${order}), '') || ']' ${from})`;

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
  prepared?: (name: string, query: SQL | { sql: string; params: unknown[] }) => Promise<Rows<unknown>>;
}

async function one<T>(run: SearchRunner, query: SQL, name?: string): Promise<T> {
  const res = (name && run.prepared ? await run.prepared(name, query) : await run.db.execute(query)) as unknown as Rows<T>;
  return res.rows[0];
}

/** The order of relevance within a tier (course_relevance_idx), over the columns a tier CTE selects. */
const TIER_ORDER = sql.raw('unbookable, quality desc nulls last, id');
/** What a tier CTE selects: the order keys only, all in course_relevance_idx (an index-only walk). */
const TIER_KEYS = sql.raw('id, (next_start_on is null) as unbookable, quality');
/** The cards of the CTE `page` (ids, tier and order keys), read from course_card by primary key. */
const PAGE_CARDS = jsonArrayText(
  sql`k.card`,
  sql`page.tier, page.unbookable, page.quality desc nulls last, page.id`,
  sql`from page join course_card k on k.course_id = page.id`,
);

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
  return !!q && p.sort === 'relevance' && !ONE_WORD.test(q) && filterConditions(p).length === 1 && !/(^|\s)-\S/.test(q);
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
      ${PAGE_CARDS} as items`;
}

/** The one-word shape, run as a prepared statement too: relevance, one word, any filters. */
export const PREPARED_ONE_WORD = 'course_search_one_word';
export const PREPARED_ONE_WORD_FILTERED = 'course_search_one_word_filtered';

/** A search of one word (letters and digits only: one lexeme at most, or none for a stop word). Club search uses it too. */
export const ONE_WORD = /^[\p{L}\p{N}]+$/u;

/** Whether a search takes the one-word shape (oneWordSql): relevance and a single word. */
export function isOneWordShape(p: SearchParams): boolean {
  const q = normalizeQuery(p.q);
  return !!q && p.sort === 'relevance' && ONE_WORD.test(q);
}

const hasFilters = (p: SearchParams) => filterConditions(p).length > 1;

/** A filtered one-word search with at most this many matches counts them (GIN, a few heap pages). */
export const EXACT_UP_TO = 300;
/** A filtered one-word search estimates the filters' share from this many title matches. */
export const SAMPLE = 1000;

/**
 * The filters as one fixed expression of nullable parameters (a filter that is not asked
 * for is null and always true), so every filtered search has the same shape and one plan.
 * `city` is the column of the lower-case city: course_term.city, or lower(course.city).
 */
function nullableFilters(v: Value, city: SQL): SQL {
  return sql`(${v('category')}::text is null or category = ${v('category')}::text)
    and (${v('level')}::text is null or level = ${v('level')}::text or level = 'all')
    and (${v('format')}::text is null or format = ${v('format')}::text)
    and (${v('city')}::text is null or ${city} = ${v('city')}::text)
    and (${v('free')}::boolean is null or (price_cents = 0) = ${v('free')}::boolean)
    and (${v('minPrice')}::int is null or price_cents >= ${v('minPrice')}::int)
    and (${v('maxPrice')}::int is null or price_cents <= ${v('maxPrice')}::int)
    and (${v('startsAfter')}::date is null or next_start_on >= ${v('startsAfter')}::date)
    and (not ${v('hasSeats')}::boolean or seats_left > 0)`;
}

/** The values of the one-word shape, by name (null: a filter not asked for). */
function oneWordValues(p: SearchParams) {
  const offset = (p.page - 1) * p.pageSize;
  return {
    q: normalizeQuery(p.q)!,
    category: p.category ?? null,
    level: p.level ?? null,
    format: p.format ?? null,
    city: p.city?.trim().toLowerCase() || null,
    free: p.free === undefined ? null : p.free === 'true',
    minPrice: p.minPrice ?? null,
    maxPrice: p.maxPrice ?? null,
    startsAfter: p.startsAfter ?? null,
    hasSeats: p.hasSeats === 'true',
    filtered: hasFilters(p),
    offset,
    pageSize: p.pageSize,
    need: offset + p.pageSize,
    /** The session token of the viewer read in the same statement (oneWordShape's `withViewer`), else unused. */
    token: null as string | null,
  };
}
type OneWordValues = ReturnType<typeof oneWordValues>;
/** A value of the one-word shape in the SQL: a parameter, or a placeholder of the cached text. */
type Value = (name: keyof OneWordValues) => SQL | Placeholder;

type OneWordRow = {
  /** The page's cards: a JSON array (text), and how many. */
  items: string;
  shown: number;
  /**
   * Filtered, too few title matches, and many matches in descriptions only: the page needs
   * tier 2, which a fixed plan can only take by walking the whole order index (the filters
   * may leave few rows). The search is then planned for its values (searchSql).
   */
  replan: boolean;
  /** Published courses with the word anywhere / in the title or educator name (search_lexeme). */
  n_all: number;
  n_title: number;
  /** Filtered only, many matches: title matches sampled, and those passing the filters. */
  seen: number | null;
  kept: number | null;
  /** Filtered only, few matches: the exact count. */
  exact_n: number | null;
  /** Filtered only, more than EXACT_UP_TO matches (fewer than TOTAL_CAP), none in a title: the count. */
  capped_n: number | null;
  /** Fewer than FEW courses have the word: its nearest known words (correctTypos), else null. */
  typo_candidates?: string[] | null;
};

/** Two significant digits: an estimate does not pretend to more. */
export const roughly = (n: number) => {
  if (n < 100) return Math.round(n);
  const unit = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.round(n / unit) * unit;
};

/**
 * The total of a one-word search. Without filters it is exact, from the lexeme counts the
 * course trigger keeps (search_lexeme). With filters: exact when the word has few matches
 * (counted), else estimated as the word's count times the share of its first SAMPLE title
 * matches that pass the filters (taken in course id order, a random order, index-only
 * from the primary key of course_term; exact for the title matches when all were
 * sampled), and never below what the pages so far have shown.
 */
export function oneWordTotal(r: OneWordRow, filtered: boolean, shown: number): { total: number; totalKind: TotalKind } {
  if (!filtered) return { total: r.n_all, totalKind: 'exact' };
  if (r.exact_n !== null) return { total: r.exact_n, totalKind: 'exact' };
  if (r.capped_n !== null) return { total: r.capped_n, totalKind: r.capped_n >= TOTAL_CAP ? 'atLeast' : 'exact' };
  const seen = r.seen ?? 0;
  const kept = r.kept ?? 0;
  const share = seen ? kept / seen : 0;
  if (seen === r.n_title && r.n_all === r.n_title) return { total: kept, totalKind: 'exact' };
  const estimate = seen === r.n_title ? kept + (r.n_all - r.n_title) * share : r.n_all * share;
  return { total: Math.max(roughly(estimate), shown), totalKind: 'about' };
}

/**
 * A relevance search of one word, with or without filters, in one fixed shape (prepared
 * once per connection, generic plan). Tier 1 (title or educator name) is read from the
 * word's postings in course_term, already in the order of relevance and carrying the
 * filter columns: the top k is the first k index entries that pass the filters,
 * index-only, whatever the number of matches. Tier 2 (summary or description only) runs
 * only when tier 1 has fewer rows than the page needs, walking course_relevance_idx when
 * the word has many such matches (search_lexeme says how many) and sorting its GIN matches
 * otherwise, as relevanceSql does; with filters, that walk could cross the whole index, so
 * the row says `replan` instead and the search runs again planned for its values. The total comes from search_lexeme (oneWordTotal);
 * counting visits rows only for a filtered word with few matches.
 */
export function oneWordSql(p: SearchParams, token?: string): SQL {
  const values = { ...oneWordValues(p), token: token ?? null };
  return oneWordShape((name) => sql`${values[name]}`, values.filtered, token !== undefined);
}

/**
 * The one-word statement's name, text and parameters: the text is built once per shape
 * (every value is a parameter, so it is the same for every search) and only the
 * parameters are filled per search; building the SQL of this shape cost ~0.1-0.25 ms of
 * Node per search.
 */
export function oneWordQuery(p: SearchParams, token?: string): { name: string; sql: string; params: unknown[] } {
  const values = { ...oneWordValues(p), token: token ?? null };
  if (token !== undefined)
    return values.filtered
      ? { name: PREPARED_ONE_WORD_FILTERED_VIEWER, ...oneWordFilteredViewerText(values) }
      : { name: PREPARED_ONE_WORD_VIEWER, ...oneWordViewerText(values) };
  return values.filtered
    ? { name: PREPARED_ONE_WORD_FILTERED, ...oneWordFilteredText(values) }
    : { name: PREPARED_ONE_WORD, ...oneWordText(values) };
}
const oneWordText = fixedText<OneWordValues>((v) => oneWordShape(v, false));
const oneWordFilteredText = fixedText<OneWordValues>((v) => oneWordShape(v, true));
/**
 * The same two statements reading the viewer first (viewerBySessionToken, accounts' one
 * definition of the session lookup, as club search and the course page do): the session
 * check and a search's first page in one round trip (searchCoursesAsViewer).
 */
const oneWordViewerText = fixedText<OneWordValues>((v) => oneWordShape(v, false, true));
const oneWordFilteredViewerText = fixedText<OneWordValues>((v) => oneWordShape(v, true, true));
export const PREPARED_ONE_WORD_VIEWER = 'course_search_one_word_viewer';
export const PREPARED_ONE_WORD_FILTERED_VIEWER = 'course_search_one_word_filtered_viewer';

/**
 * The one-word statement in two texts, each prepared on its own: without filters (most
 * searches) it holds no filter, no sample and no count, ~40 plan nodes instead of ~95:
 * starting and ending a plan costs per node, and the big shape's executor cost about as
 * much as the search itself (docs/decisions/0034-search-text-and-lean-statements.md).
 */
function oneWordShape(v: Value, filtered: boolean, withViewer = false): SQL {
  const need = v('need');
  const w = sql`(select w from qq)`;
  const lx = sql`(select lx from qq)`;
  const termFilters = nullableFilters(v, sql`city`);
  const onTerm = filtered ? sql` and ${termFilters}` : sql``;
  const onCourse = filtered ? sql` and ${nullableFilters(v, sql`lower(city)`)}` : sql``;
  const keys = sql`id, (next_start_on is null) as unbookable, quality`;
  const t2Runs = sql`(select count(*) from t1) < ${need}::int and ${lx} is not null`;
  const many = sql`(select n_all - n_title from lc) >= ${TOTAL_CAP}::int`;
  const filteredMany = sql`(select n_all from lc) > ${EXACT_UP_TO}::int`;
  // Tier 2 of a word in many descriptions walks course_relevance_idx; with filters that walk
  // could cross the whole index, so a filtered search answers `replan` instead.
  const walkTier2 = filtered
    ? sql``
    : sql`(select ${keys}, 2 as tier from course
        where case when ${t2Runs} then ${many} else false end
          and status = 'published' and coalesce(search @@ ${w}, false) and not coalesce(search_title @@ ${w}, false)
        order by (next_start_on is null), quality desc nulls last, id limit ${need}::int)
      union all`;
  const sample = filtered
    ? sql`, sample as materialized (
      select count(*)::int as seen, count(*) filter (where ${termFilters})::int as kept from (
        select category, level, format, city, price_cents, next_start_on, seats_left from course_term
        where ${filteredMany} and (select n_title from lc) > 0 and lexeme = ${lx}
        order by lexeme, course_id limit ${SAMPLE}::int) s
    )`
    : sql``;
  const totals = filtered
    ? sql`(select count(*) from t1) < ${need}::int and ${lx} is not null and n_all - n_title >= ${TOTAL_CAP}::int as replan,
      case when ${filteredMany} and n_title > 0 then (select seen from sample) end as seen,
      case when ${filteredMany} and n_title > 0 then (select kept from sample) end as kept,
      case when n_all <= ${EXACT_UP_TO}::int then (
        select count(*)::int from course where status = 'published' and search @@ ${w}${onCourse}) end as exact_n,
      case when ${filteredMany} and n_title = 0 and n_all < ${TOTAL_CAP}::int then (
        select count(*)::int from (select from course where status = 'published' and search @@ ${w}${onCourse} limit ${TOTAL_CAP}::int) x) end as capped_n`
    : sql`false as replan, null::int as seen, null::int as kept, null::int as exact_n, null::int as capped_n`;
  // With the viewer: its columns beside the search's, null when the token signs nobody in
  // (the search's row is there whatever the session: the cache may share it).
  return sql`
    with ${withViewer ? sql`viewer as materialized (${viewerBySessionToken(sql`${v('token')}::text`)}), ` : sql``}qq as materialized (
      select (tsvector_to_array(to_tsvector('english', ${v('q')}::text)))[1] as lx, websearch_to_tsquery('english', ${v('q')}::text) as w
    ), lc as materialized (
      select coalesce(max(n_all), 0)::int as n_all, coalesce(max(n_title), 0)::int as n_title from search_lexeme where lexeme = ${lx}
    ), t1 as materialized (
      select course_id as id, unbookable, quality, 1 as tier from course_term
      where lexeme = ${lx}${onTerm}
      order by unbookable, quality desc nulls last, course_id limit ${need}::int
    ), t2 as materialized (
      ${walkTier2}
      (select id, unbookable, quality, 2 as tier from (
          select ${keys} from course
          where case when ${t2Runs} then ${filtered ? sql`true` : sql`not ${many}`} else false end
            and status = 'published' and search @@ ${w} and not (search_title @@ ${w})${onCourse} offset 0) m
        order by ${TIER_ORDER} limit ${need}::int)
    ), page as materialized (
      select * from (select * from t1 union all select * from t2) r
      order by tier, ${TIER_ORDER}
      offset ${v('offset')}::int limit ${v('pageSize')}::int
    )${sample}
    select ${withViewer ? sql`viewer.*, ` : sql``}n_all, n_title, ${totals},
      ${PAGE_CARDS} as items, (select count(*)::int from page) as shown,
      -- A word (nearly) nobody uses: its nearest known words come back with it, for the typo
      -- correction (correctTypos), instead of a statement of their own.
      case when n_all < ${FEW}::int and length(${v('q')}::text) >= 4 then (
        select array_agg(word) from (select word from search_word order by word <-> ${v('q')}::text limit ${TYPO_NEIGHBOURS}::int) k) end
        as typo_candidates
    from lc${withViewer ? sql` left join viewer on true` : sql``}`;
}

/** The SQL of the page of matches (items and capped total in one row), without running it. */
export function searchSql(p: SearchParams, opts: { oneWord?: boolean } = {}): SQL {
  if (isOneWordShape(p) && opts.oneWord !== false) return oneWordSql(p);
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
        ${PAGE_CARDS} as items`;
  }
  return sql`
    with page as (
      select ${CARD_COLUMNS} from course
      where ${and(matchAll)}
      order by ${orderBy(sort as 'soonest' | 'price' | 'rating')}
      offset ${offset} limit ${p.pageSize}
    )
    select ${total} as total,
      ${jsonArrayText(sql`card`, orderBy(sort as 'soonest' | 'price' | 'rating'), sql`from page`)} as items`;
}

/**
 * One page of published courses matching the text and the filters, as the answer's JSON
 * text (SearchResult): the cards are the statement's text as PostgreSQL wrote them, sent
 * as they are (~10 kB a page, never parsed nor written again by Node). Without text the
 * default order is the soonest start.
 */
export async function searchCoursesJson(run: SearchRunner, p: SearchParams, viewer?: ViewerRead): Promise<string> {
  const q = normalizeQuery(p.q);
  const page = (params: SearchParams) => runPage(run, params);
  const { typoCandidates, ...exact } = await runPage(run, p, viewer);
  if (!q || exact.total >= FEW) return answer(p, exact, false);

  // Nothing or almost nothing: correct the words that are no word of any title or
  // educator name to the nearest one that is, and search again (a one-word search brought
  // its word's neighbours with its page: no statement for them).
  const corrected = typoCandidates ? correctWith(q, new Map([[q, typoCandidates]])) : await correctTypos(run, q);
  if (!corrected) return answer(p, exact, false);
  const offset = (p.page - 1) * p.pageSize;
  if (exact.total === 0) {
    const fixed = await page({ ...p, q: corrected });
    return answer(p, fixed, fixed.total > 0);
  }
  // A few exact matches: they come first, then the corrected search's (both lists are short
  // or cut at the page wanted; the one place the cards are parsed).
  const [exactAll, more] = await Promise.all([
    p.page === 1 ? exact.items : page({ ...p, page: 1, pageSize: FEW }).then((r) => r.items),
    page({ ...p, q: corrected, page: 1, pageSize: Math.min(offset + p.pageSize + FEW, TOTAL_CAP) }),
  ]);
  const first = JSON.parse(exactAll) as CourseCard[];
  const moreItems = JSON.parse(more.items) as CourseCard[];
  const seen = new Set(first.map((c) => c.id));
  const merged = [...first, ...moreItems.filter((c) => !seen.has(c.id))];
  const total = first.length + more.total - (moreItems.length + first.length - merged.length);
  const items = JSON.stringify(merged.slice(offset, offset + p.pageSize));
  return answer(p, { items, total, totalKind: more.totalKind }, merged.length > first.length);
}

/** The answer's JSON text, keys in searchResult's order; every value but the cards is a number, a boolean or a known word. */
const answer = (p: SearchParams, found: Omit<Page, 'typoCandidates'>, fuzzy: boolean) =>
  `{"items":${found.items},"page":${p.page},"pageSize":${p.pageSize},"total":${Number(found.total)},"totalKind":${JSON.stringify(
    found.totalKind,
  )},"fuzzy":${fuzzy}}`;

/** The answer as an object (tests, callers in process). */
export async function searchCourses(run: SearchRunner, p: SearchParams): Promise<SearchResult> {
  return JSON.parse(await searchCoursesJson(run, p)) as SearchResult;
}

/**
 * The viewer read in a one-word search's first statement: the session token (its cookie's
 * signature checked), and what to do with the viewer it signs in (null: nobody).
 */
export interface ViewerRead {
  token: string;
  read: (viewer: Viewer | null) => void;
}

/**
 * How a route checks the session of a search (GET /api/courses/search needs one): a
 * one-word search reads it in its own first statement (requireViewerWith), any other
 * checks it first (requireViewer).
 */
export interface ViewerCheck {
  requireViewer: () => Promise<unknown>;
  requireViewerWith: RequireViewerWith;
}

/**
 * The answer (searchCoursesJson) behind the caller's session, without the result cache: a
 * one-word search (most searches) reads the viewer in its first statement, one round trip
 * fewer than the session check and then the search (the route does the same on a miss of
 * its cache).
 */
export async function searchCoursesAsViewer(run: SearchRunner, p: SearchParams, check: ViewerCheck): Promise<string> {
  if (!isOneWordShape(p)) {
    await check.requireViewer();
    return searchCoursesJson(run, p);
  }
  const { data } = await check.requireViewerWith(async (token) => {
    let viewer: Viewer | null = null;
    const body = await searchCoursesJson(run, p, { token, read: (v) => (viewer = v) });
    return { viewer, data: body };
  });
  return data;
}

/** One statement: the page of matches and its total, by the shape that fits the search; a one-word one reads `viewer` too. */
async function runPage(run: SearchRunner, p: SearchParams, viewer?: ViewerRead): Promise<Page> {
  if (viewer && !isOneWordShape(p)) throw new Error('only a one-word search reads the viewer in its statement');
  if (isOneWordShape(p)) {
    const query = run.prepared && oneWordQuery(p, viewer?.token);
    const r = query
      ? ((await run.prepared!(query.name, query)) as Rows<OneWordRow>).rows[0]
      : await one<OneWordRow>(run, oneWordSql(p, viewer?.token));
    if (viewer) {
      const row = r as OneWordRow & Partial<ViewerRow>;
      viewer.read(row.signInSessionId ? toViewer(row as ViewerRow) : null);
    }
    if (!r.replan) {
      const total = oneWordTotal(r, hasFilters(p), (p.page - 1) * p.pageSize + r.shown);
      return { items: r.items, ...total, typoCandidates: r.typo_candidates };
    }
  }
  const r = await one<{ total: number; items: string }>(
    run,
    searchSql(p, { oneWord: false }),
    isPreparedShape(p) ? PREPARED_RELEVANCE : undefined,
  );
  return { items: r.items, total: r.total, totalKind: r.total >= TOTAL_CAP ? 'atLeast' : 'exact' };
}

type Page = {
  total: number;
  totalKind: TotalKind;
  /** The page's cards: a JSON array (text), as the statement wrote it. */
  items: string;
  /** One-word searches of a rare or unknown word: the nearest known words, fetched with the page. */
  typoCandidates?: string[] | null;
};
type TotalKind = SearchResult['totalKind'];

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
  run: SearchRunner,
  q: string,
  wordTable: 'search_word' | 'club_search_word' = 'search_word',
): Promise<string | null> {
  const words = typoWords(q);
  if (!words.length) return null;
  // One array parameter (the words are letters and digits only: a safe array literal), so the
  // text never changes and the statement is prepared once per search connection.
  const query = sql`
    select w.q, n.word
    from unnest(${`{${words.join(',')}}`}::text[]) as w(q)
    cross join lateral (select word from ${sql.identifier(wordTable)} order by word <-> w.q limit ${TYPO_NEIGHBOURS}) n`;
  const res = (run.prepared ? await run.prepared(`typo_candidates_${wordTable}`, query) : await run.db.execute(query)) as unknown as Rows<{
    q: string;
    word: string;
  }>;
  const candidates = new Map<string, string[]>();
  for (const row of res.rows) candidates.set(row.q, [...(candidates.get(row.q) ?? []), row.word]);
  return correctWith(q, candidates);
}

/** The words of a search that may be misspelt: four letters or more, not a stop word. */
const typoWords = (q: string) => q.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 4 && !STOP_WORDS.has(w));

/** The search with each misspelt word replaced by its closest candidate (edit distance), or null when none was. */
export function correctWith(q: string, candidates: Map<string, string[]>): string | null {
  const words = typoWords(q);
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
