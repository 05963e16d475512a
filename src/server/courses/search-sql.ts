import { sql, type SQL } from 'drizzle-orm';
import { CARD_COLUMNS } from './course-cards.js';
import { filterConditions, PAGE_CARDS, TIER_ORDER, TOTAL_CAP, type SearchParams } from './search-parts.js';
import { isOneWordShape, oneWordSql } from './search-one-word.js';
import { jsonArrayText, normalizeQuery, ONE_WORD } from './search-shared.js';

/**
 * The statement of a search's page that fits its shape (searchSql): one word
 * (search-one-word.ts), several words without filters (relevanceSql, prepared), and the
 * others (filters, an excluded word, another sort, no words), planned for their values.
 */

const tsq = (q: string) => sql`websearch_to_tsquery('english', ${q})`;

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
