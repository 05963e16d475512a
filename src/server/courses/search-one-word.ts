import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { viewerBySessionToken } from '../accounts/viewer.js';
import { fixedText } from '../db/fixed-text.js';
import { FEW, hasFilters, PAGE_CARDS, TIER_ORDER, TOTAL_CAP, type SearchParams, type TotalKind } from './search-parts.js';
import { normalizeQuery, ONE_WORD, roughly, SAMPLE } from './search-shared.js';
import { TYPO_NEIGHBOURS } from './search-typos.js';

/**
 * The one-word statement of course search (most searches; docs/decisions/0028-course-search-postings.md
 * and 0034-search-text-and-lean-statements.md): tier 1 from the word's title postings
 * (course_term), the total from the lexeme counts (search_lexeme), the word's nearest known
 * words for a typo with the page, and the viewer in the same statement when asked.
 */

/** The one-word shape, run as a prepared statement too: relevance, one word, any filters. */
export const PREPARED_ONE_WORD = 'course_search_one_word';
export const PREPARED_ONE_WORD_FILTERED = 'course_search_one_word_filtered';

/** Whether a search takes the one-word shape (oneWordSql): relevance and a single word. */
export function isOneWordShape(p: SearchParams): boolean {
  const q = normalizeQuery(p.q);
  return !!q && p.sort === 'relevance' && ONE_WORD.test(q);
}

/** A filtered one-word search with at most this many matches counts them (GIN, a few heap pages). */
export const EXACT_UP_TO = 300;

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
    and (not ${v('hasSeats')}::boolean or seats_left > 0)
    and (${v('age')}::int is null or ((min_age is null or min_age <= ${v('age')}::int) and (max_age is null or max_age >= ${v('age')}::int)))`;
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
    age: p.age ?? null,
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

export type OneWordRow = {
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
        select category, level, format, city, price_cents, next_start_on, seats_left, min_age, max_age from course_term
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
