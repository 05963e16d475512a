import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { ClubCard, ClubSearchResult, clubSearchQuery } from '../../shared/clubs-schemas.js';
import { jsonArrayText, normalizeQuery, ONE_WORD, roughly, SAMPLE, type SearchRunner } from '../courses/search-shared.js';
import { correctTypos, correctWith, TYPO_NEIGHBOURS } from '../courses/search-typos.js';
import { toViewer, viewerBySessionToken, type RequireViewerWith, type ViewerRow } from '../accounts/viewer.js';
import { fixedText } from '../db/fixed-text.js';

/**
 * Club search (GET /api/clubs/search). Design and figures: docs/decisions/0026-clubs-at-scale.md.
 * Full text over name and city (weight A) and description (C), typo tolerance by the course
 * engine's nearest-word correction (correctTypos over club_search_word), filters and sorts.
 *
 * Relevance never ranks every match (the naive ts_rank over every match costs ~40 ms for a
 * 2% word at 100k clubs): tier 1 is the clubs whose name or city matches (`search_name`),
 * tier 2 the ones that match in the description only; within a tier, most members first.
 * A search of one word (most searches) reads the word's postings (club_term, in that order,
 * kept by triggers) in one small statement: oneWordShape. The others take one fixed shape
 * for every relevance search with words, prepared once per connection
 * (generic plan), that chooses at run time from PostgreSQL's own statistics (the
 * frequency of each word among names and among whole clubs, pg_stats of search_name and
 * search): a frequent word walks club_relevance_idx (member_count desc, id) index-only
 * (it INCLUDEs search_name and the filter columns) and stops after k rows; a rare one takes
 * its few matches from the GIN index and sorts them. The total of a frequent word is that
 * estimate ("about 2,100 clubs", totalIs = 'about'); a rarer one is counted exactly up to
 * TOTAL_CAP ('at-least' when the count stopped there). An approval club is found (its
 * name, description and member count are public) but its events never show: the "has
 * upcoming events" filter, the "next event" sort and the card's date read public clubs only.
 */
export type ClubSearchParams = z.output<typeof clubSearchQuery>;
/** Exact counting stops here: a total of TOTAL_CAP means "that many or more". */
export const TOTAL_CAP = 1000;
/** Fewer matches than this (estimated) and the statement counts exactly and reads the GIN index; more: walks and estimates. */
const FREQUENT = 300;
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

/** The other sorts; "nulls last" as club_members_idx has it, so "most members" walks it. */
function order(p: ClubSearchParams): SQL {
  if (p.sort === 'next_event') return sql`${PUBLIC_NEXT} asc nulls last, member_count desc nulls last, id`;
  return sql`member_count desc nulls last, id`;
}

interface Row {
  id: string;
  name: string;
  summary: string;
  category: string;
  city: string | null;
  online: boolean;
  cover_image: string | null;
  visibility: 'public' | 'approval';
  member_count: number;
  next_at: string | Date | null;
}

/** A card from its row (home, featured clubs); search has PostgreSQL write its cards (CARD_TEXT). */
export const toCard = (r: Row): ClubCard => ({
  id: r.id,
  name: r.name,
  summary: r.summary,
  category: r.category,
  city: r.city,
  online: r.online,
  coverImage: r.cover_image,
  visibility: r.visibility,
  memberCount: r.member_count,
  nextEventAt: r.next_at ? new Date(r.next_at).toISOString() : null,
});

/** A card's columns: short ones only (club.summary is made at write time, migration 0033). */
export const CLUB_CARD_COLUMNS = sql.raw(
  `id, name, summary, category, city, online, cover_image, visibility, member_count, ${PUBLIC_NEXT_SQL} as next_at`,
);

/**
 * A card (ClubCard, as toCard makes it) as JSON text, from the club `c`: its stored head
 * (club.card_head, migration 0034: every key but the last two) and memberCount and nextEventAt
 * (as Date.toISOString writes it: UTC, milliseconds), which change too often or depend on
 * now(). Search sends the statement's text as the answer's items, never parsed nor written
 * again by Node; PostgreSQL builds no JSON object per card either (CARDS).
 */
const CARD_TEXT = sql.raw(`c.card_head || ',"memberCount":' || c.member_count || ',"nextEventAt":' || coalesce('"'
  || to_char((case when c.visibility = 'public' and c.next_event_at > now() then c.next_event_at end) at time zone 'UTC',
    'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null') || '}'`);

/** The cards of the clubs `c` of a from-clause, in this order, as a JSON array (text). */
const cards = (from: SQL, orderBy: SQL) => jsonArrayText(CARD_TEXT, orderBy, from);

type Total = Pick<ClubSearchResult, 'total' | 'totalIs'>;
/** A search's page: its cards as PostgreSQL wrote them (a JSON array, as text), its total. */
type Found = Total & { items: string; typoCandidates?: string[] | null };

/** Other sorts, and searches without words: planned for their values, the total counted up to TOTAL_CAP. */
async function planned(db: SearchRunner['db'], p: ClubSearchParams, q: string | undefined): Promise<Found> {
  const w = conditions(p, q);
  const where = w.length ? sql`where ${sql.join(w, sql` and `)}` : sql``;
  const offset = (p.page - 1) * p.pageSize;
  const res = (await db.execute(sql`
    select (select count(*)::int from (select 1 from club ${where} limit ${TOTAL_CAP}) x) as total,
      ${cards(
        sql`from (select card_head, visibility, member_count, next_event_at, id
          from club ${where} order by ${order(p)} limit ${p.pageSize} offset ${offset}) c`,
        order(p),
      )} as items`)) as unknown as {
    rows: { total: number; items: string }[];
  };
  const { total, items } = res.rows[0];
  return { items, total, totalIs: total >= TOTAL_CAP ? 'at-least' : 'exact' };
}

export const PREPARED_CLUB_RELEVANCE = 'club_search_relevance';

/**
 * Relevance with words: one shape whatever the words and filters (the filters are nullable
 * parameters), so that it is prepared and planned once. `est` reads how frequent the words
 * are from pg_stats (the planner's own statistics of club.search_name and club.search:
 * reltuples x the product of the words' frequencies, the least frequency / 2 for a word
 * not among the most common), `fsel` the share of clubs the filters keep (the same
 * statistics of category, city, online, visibility and next_event_at). Each tier has two
 * branches behind one-time filters (only one runs): a walk of club_relevance_idx in its
 * order (index-only for tier 1) when the word is frequent, the GIN matches sorted when it
 * is not; `coalesce` keeps the walk off the GIN index and `offset 0` keeps the other on it.
 * Tier 2 runs only when tier 1 has fewer rows than the page needs.
 */
type RelevanceValues = {
  q: string;
  plain: boolean;
  cat: string | null;
  city: string | null;
  online: boolean | null;
  upcoming: boolean | null;
  need: number;
  offset: number;
  pageSize: number;
};

function relevanceValues(p: ClubSearchParams, q: string): RelevanceValues {
  const offset = (p.page - 1) * p.pageSize;
  return {
    q,
    // A query with OR, a phrase or an excluded word is not a plain AND of its words: counted, never estimated.
    plain: !/(^|\s)(or|-)(\s|$)|(^|\s)-\S|"/.test(q),
    cat: p.category ?? null,
    city: p.city ? p.city.trim().toLowerCase() : null,
    online: p.online === undefined ? null : p.online === 'true',
    upcoming: p.upcoming === undefined ? null : p.upcoming === 'true',
    need: offset + p.pageSize,
    offset,
    pageSize: p.pageSize,
  };
}

/** The statement with these values (EXPLAIN, tests); the route runs the same text through relevanceQuery. */
export function relevanceSql(p: ClubSearchParams, q: string): SQL {
  const values = relevanceValues(p, q);
  return relevanceTemplate((name) => values[name]);
}

/**
 * The statement's text, built once (fixedText): building it with drizzle's sql template on
 * every request cost ~0.5 ms of Node, as much as running it. The values go in as parameters.
 */
const relevanceText = fixedText<RelevanceValues>((v) => relevanceTemplate(v));

function relevanceTemplate(v: (name: keyof RelevanceValues) => unknown): SQL {
  const q = v('q');
  const plain = v('plain');
  const need = v('need');
  const offset = v('offset');
  const cat = sql`${v('cat')}::text`;
  const city = sql`${v('city')}::text`;
  const online = sql`${v('online')}::boolean`;
  const upcoming = sql`${v('upcoming')}::boolean`;
  const w = sql`(select w from qq)`;
  const filters = sql`(${cat} is null or category = ${cat}) and (${city} is null or lower(city) = ${city})
    and (${online} is null or online = ${online})
    and (${upcoming} is null or (visibility = 'public' and coalesce(next_event_at > now(), false)) = ${upcoming})`;
  const order = sql.raw('member_count desc nulls last, id');
  const nameN = sql`coalesce((select n from est where col = 'search_name'), 0)`;
  const walkName = sql`${nameN} * (select f from fsel) >= ${FREQUENT}::int`;
  // A frequent name word that the filters make rare, with a category: walk that category's clubs (club_category_idx, index-only).
  const walkCategory = sql`(not ${walkName} and ${cat} is not null and ${nameN} >= ${FREQUENT}::int)`;
  const allN = sql`coalesce((select n from est where col = 'search'), 0)`;
  const walkAll = sql`${allN} * (select f from fsel) >= ${FREQUENT}::int`;
  const t2Runs = sql`(select count(*) from t1) < ${need}::int`;
  const estimated = sql`(${plain}::boolean and ${allN} >= ${FREQUENT}::int)`;
  return sql`
    with qq as materialized (select websearch_to_tsquery('english', ${q}) as w),
    est as materialized (
      select c.col, coalesce((select freq from club_search_stat where col = 'club' and val = ':rows'), 0)
        * exp(sum(ln(greatest(coalesce(s.freq, m.freq / 2, 0.0001), 1e-9))))
        -- A word missing from the most common elements is rarer than all of them: never "frequent".
        * case when bool_and(s.freq is not null) then 1 else 0 end as n
      from (values ('search'), ('search_name')) c(col)
        cross join unnest(tsvector_to_array(to_tsvector('english', ${q}))) l
        left join club_search_stat s on s.col = c.col and s.val = l
        left join club_search_stat m on m.col = c.col and m.val = ':min'
      group by c.col
    ), fsel as materialized (
      select case when ${cat} is null then 1 else coalesce((select freq from club_search_stat where col = 'category' and val = ${cat}), 0.001) end
        * case when ${city} is null then 1 else coalesce((select freq from club_search_stat where col = 'city' and val = ${city}), 0.001) end
        * case when ${online} is null then 1 else coalesce((select freq from club_search_stat where col = 'online'
            and val = case when ${online} then 't' else 'f' end), 0.001) end
        * case when ${upcoming} is null then 1 else (
            select coalesce(max(freq) filter (where col = 'next_event_at'), 1) * coalesce(max(freq) filter (where col = 'visibility' and val = 'public'), 1)
            from club_search_stat where (col = 'next_event_at' and val = ':notnull') or (col = 'visibility' and val = 'public')) end as f
    ), t1 as materialized (
      (select id, member_count, 1 as tier from club
        where ${walkName} and coalesce(search_name @@ ${w}, false) and ${filters}
        order by ${order} limit ${need}::int)
      union all
      (select id, member_count, 1 as tier from club
        where ${walkCategory} and category = ${cat} and coalesce(search_name @@ ${w}, false) and ${filters}
        order by category, ${order} limit ${need}::int)
      union all
      (select id, member_count, 1 as tier from (
          select id, member_count from club where not ${walkName} and not ${walkCategory} and search_name @@ ${w} and ${filters} offset 0) m
        order by ${order} limit ${need}::int)
    ), t2 as materialized (
      (select id, member_count, 2 as tier from club
        where case when ${t2Runs} then ${walkAll} else false end
          and coalesce(search @@ ${w}, false) and not coalesce(search_name @@ ${w}, false) and ${filters}
        order by ${order} limit ${need}::int)
      union all
      (select id, member_count, 2 as tier from (
          select id, member_count from club
          where case when ${t2Runs} then not ${walkAll} else false end
            and search @@ ${w} and not (search_name @@ ${w}) and ${filters} offset 0) m
        order by ${order} limit ${need}::int)
    ), page as (
      select * from (select * from t1 union all select * from t2) r order by tier, ${order} offset ${offset}::int limit ${v('pageSize')}::int
    ), counted as materialized (
      select count(*)::int as n from (select from club where not (${estimated}) and search @@ ${w} and ${filters} limit ${TOTAL_CAP}::int) x
    )
    select case when ${estimated} then 'about' when (select n from counted) >= ${TOTAL_CAP}::int then 'at-least' else 'exact' end as total_is,
      case when ${estimated}
        then greatest(round(${allN} * (select f from fsel))::int, ${offset}::int + (select count(*)::int from page))
        else (select n from counted) end as total,
      ${cards(sql`from page join club c on c.id = page.id`, sql`page.tier, page.member_count desc nulls last, page.id`)} as items`;
}

export const PREPARED_CLUB_ONE_WORD = 'club_search_one_word';

/** Whether a search takes the one-word statement (oneWordShape): relevance and a single word of letters and digits. */
export const isOneWordShape = (p: ClubSearchParams, q: string | undefined): q is string =>
  !!q && p.sort === 'relevance' && ONE_WORD.test(q);

function oneWordValues(p: ClubSearchParams, q: string) {
  const offset = (p.page - 1) * p.pageSize;
  return {
    q,
    cat: p.category ?? null,
    city: p.city ? p.city.trim().toLowerCase() : null,
    online: p.online === undefined ? null : p.online === 'true',
    upcoming: p.upcoming === undefined ? null : p.upcoming === 'true',
    filtered: p.category !== undefined || !!p.city?.trim() || p.online !== undefined || p.upcoming !== undefined,
    offset,
    pageSize: p.pageSize,
  };
}
type OneWordValues = ReturnType<typeof oneWordValues>;

interface OneWordRow {
  /** The query is not one lexeme (two, as some tokens make): the big statement answers instead. */
  lexemes: number;
  /** Clubs with the word anywhere (club_lexeme). */
  n_all: number;
  /** Filtered only: the word's first SAMPLE postings in club id order, and those passing the filters. */
  seen: number | null;
  kept: number | null;
  /** The page's cards (CARD_TEXT), a JSON array as text, and how many. */
  items: string;
  shown: number;
  /** A first page of fewer than FEW clubs: the word's nearest known words (club_search_word), for the typo correction. */
  typo_candidates: string[] | null;
}

/**
 * Relevance search of one word, with or without filters: one small statement of fixed text
 * (prepared once per search connection, generic plan) over club search's postings
 * (club_term, kept by triggers, migration 0032). The page is the first entries of the
 * word's postings in relevance order (tier 1 name or city, then description; most members
 * first) that pass the filters: an index-only walk of club_term_walk_idx that stops after
 * the page, whatever the number of matches. The total: without filters the word's count
 * (club_lexeme, exact); with filters the share of its first SAMPLE postings in club id
 * order (a random order; index-only from the primary key) that pass them, exact when that
 * was every posting. Only the page's clubs are read, by primary key. A first page of fewer
 * than FEW clubs brings the nearest known words for the typo correction.
 */
function oneWordShape(v: (name: keyof OneWordValues) => Placeholder | unknown, viewer?: Placeholder | string): SQL {
  const cat = sql`${v('cat')}::text`;
  const city = sql`${v('city')}::text`;
  const online = sql`${v('online')}::boolean`;
  const upcoming = sql`${v('upcoming')}::boolean`;
  const lx = sql`(select lx from qq)`;
  const filters = sql`(${cat} is null or category = ${cat}) and (${city} is null or city = ${city})
    and (${online} is null or online = ${online})
    and (${upcoming} is null or (visibility = 'public' and coalesce(next_event_at > now(), false)) = ${upcoming})`;
  return sql`
    with ${viewer ? sql`viewer as (${viewerBySessionToken(viewer)}), ` : sql``}qq as materialized (
      select a[1] as lx, coalesce(cardinality(a), 0) as n from (select tsvector_to_array(to_tsvector('english', ${v('q')}::text)) as a) x
    ), lc as materialized (
      select coalesce(max(n_all), 0)::int as n_all from club_lexeme where lexeme = ${lx}
    ), page as materialized (
      select club_id as id, tier, member_count from club_term
      where lexeme = ${lx} and ${filters}
      order by tier, member_count desc nulls last, club_id
      offset ${v('offset')}::int limit ${v('pageSize')}::int
    ), sample as materialized (
      select count(*)::int as seen, count(*) filter (where ${filters})::int as kept from (
        select category, city, online, visibility, next_event_at from club_term
        where ${v('filtered')}::boolean and lexeme = ${lx}
        order by lexeme, club_id limit ${SAMPLE}::int) s
    )
    select ${viewer ? sql`viewer.*, ` : sql``}(select n from qq) as lexemes, n_all,
      case when ${v('filtered')}::boolean then (select seen from sample) end as seen,
      case when ${v('filtered')}::boolean then (select kept from sample) end as kept,
      (select count(*)::int from page) as shown,
      ${cards(sql`from page join club c on c.id = page.id`, sql`page.tier, page.member_count desc nulls last, page.id`)} as items,
      case when ${v('offset')}::int = 0 and (select count(*) from page) < ${FEW}::int and length(${v('q')}::text) >= 4 then (
        select array_agg(word) from (select word from club_search_word order by word <-> ${v('q')}::text limit ${TYPO_NEIGHBOURS}::int) k) end
        as typo_candidates
    from ${viewer ? sql`viewer cross join lc` : sql`lc`}`;
}

/** The one-word statement with these values (EXPLAIN, tests, PGlite); PostgreSQL runs the same text prepared. */
export function oneWordSql(p: ClubSearchParams, q: string): SQL {
  const values = oneWordValues(p, q);
  return oneWordShape((name) => values[name]);
}
const oneWordText = fixedText<OneWordValues>((v) => oneWordShape(v));
/**
 * The same statement reading the viewer first (viewerBySessionToken, as the event page and
 * the course page do): the session check and the search in one round trip. No row when the
 * token signs nobody in.
 */
const oneWordViewerText = fixedText<OneWordValues & { token: string }>((v) => oneWordShape(v, v('token')));
export const PREPARED_CLUB_ONE_WORD_VIEWER = 'club_search_one_word_viewer';

/** The one-word statement as a search connection runs it (name, text, parameters; with a token, reading the viewer too). */
export function clubOneWordQuery(p: ClubSearchParams, q: string, token?: string): { name: string; sql: string; params: unknown[] } {
  const values = oneWordValues(p, q);
  return token === undefined
    ? { name: PREPARED_CLUB_ONE_WORD, ...oneWordText(values) }
    : { name: PREPARED_CLUB_ONE_WORD_VIEWER, ...oneWordViewerText({ ...values, token }) };
}

/**
 * The total of a one-word search: the word's count without filters; with filters, the
 * count of its postings that pass them when every posting was sampled, else the sampled
 * share times the word's count ("about", two significant digits). A page that is not full
 * ends the walk: then the total is what the pages have shown, exactly.
 */
function oneWordTotal(r: OneWordRow, v: OneWordValues, shown: number): Total {
  if (!v.filtered) return { total: r.n_all, totalIs: 'exact' };
  if ((shown > 0 || v.offset === 0) && shown < v.pageSize) return { total: v.offset + shown, totalIs: 'exact' };
  const seen = r.seen ?? 0;
  const kept = r.kept ?? 0;
  if (seen < SAMPLE) return { total: kept, totalIs: 'exact' };
  return { total: Math.max(roughly((r.n_all * kept) / seen), v.offset + shown), totalIs: 'about' };
}

/** The one-word statement's row; with a session token, the viewer's columns too, and no row when it signs nobody in. */
async function oneWordRow(run: SearchRunner, p: ClubSearchParams, q: string, values: OneWordValues, token?: string) {
  let res;
  if (token === undefined)
    res = run.prepared ? await run.prepared(PREPARED_CLUB_ONE_WORD, oneWordText(values)) : await run.db.execute(oneWordSql(p, q));
  else
    res = run.prepared
      ? await run.prepared(PREPARED_CLUB_ONE_WORD_VIEWER, oneWordViewerText({ ...values, token }))
      : await run.db.execute(oneWordShape((name) => values[name], token));
  return (res as unknown as { rows: OneWordRow[] }).rows[0] as OneWordRow | undefined;
}

/** A one-word row as a page (null: the query is not one lexeme, the big statement answers). */
function oneWordFound(r: OneWordRow, values: OneWordValues) {
  if (r.lexemes > 1) return null;
  return { items: r.items, ...oneWordTotal(r, values, r.shown), typoCandidates: r.typo_candidates };
}

async function oneWord(run: SearchRunner, p: ClubSearchParams, q: string) {
  const values = oneWordValues(p, q);
  return oneWordFound((await oneWordRow(run, p, q, values))!, values);
}

/** When this server last copied pg_stats into club_search_stat (the search reads it to choose its plan). */
let statsRefreshedAt = 0;
const STATS_EVERY_MS = 3600_000;

/** At most hourly per server, after the answer: the statistics move slowly (autovacuum's ANALYZE). */
function refreshStatsSoon(db: SearchRunner['db']) {
  if (Date.now() - statsRefreshedAt < STATS_EVERY_MS) return;
  statsRefreshedAt = Date.now();
  setImmediate(() => {
    db.execute(sql`select refresh_club_search_stat()`).catch(() => {
      statsRefreshedAt = 0; // tried again on a later search
    });
  });
}

async function relevance(run: SearchRunner, p: ClubSearchParams, q: string) {
  refreshStatsSoon(run.db);
  const res = (run.prepared
    ? await run.prepared(PREPARED_CLUB_RELEVANCE, relevanceText(relevanceValues(p, q)))
    : await run.db.execute(relevanceSql(p, q))) as unknown as {
    rows: { total_is: Total['totalIs']; total: number; items: string }[];
  };
  const row = res.rows[0];
  return { items: row.items, total: Number(row.total), totalIs: row.total_is };
}

async function search(run: SearchRunner, p: ClubSearchParams, q: string | undefined): Promise<Found> {
  if (isOneWordShape(p, q)) {
    const found = await oneWord(run, p, q);
    if (found) return found;
  }
  return q && p.sort === 'relevance' ? relevance(run, p, q) : planned(run.db, p, q);
}

/**
 * How the route checks the session (GET /api/clubs/search needs one): a one-word search
 * reads the viewer in its own statement (requireViewerWith); any other checks it first.
 */
export interface ViewerCheck {
  requireViewer: () => Promise<unknown>;
  requireViewerWith: RequireViewerWith;
}

/**
 * The answer (ClubSearchResult) as JSON text, ready to send: the cards are the statement's
 * JSON text as PostgreSQL wrote it, not parsed nor written again (~10 kB a page).
 */
export async function searchClubsJson(runner: SearchRunner, p: ClubSearchParams, viewer?: ViewerCheck): Promise<string> {
  const q = normalizeQuery(p.q);
  let firstFound: Found | null = null;
  const oneWordTried = !!viewer && isOneWordShape(p, q);
  if (oneWordTried) {
    // The session and the page in one statement: no round trip of its own for the session.
    const values = oneWordValues(p, q);
    const { data: row } = await viewer.requireViewerWith(async (token) => {
      const r = await oneWordRow(runner, p, q, values, token);
      return { viewer: r ? toViewer(r as OneWordRow & ViewerRow) : null, data: r! };
    });
    firstFound = oneWordFound(row, values);
  } else if (viewer) {
    await viewer.requireViewer();
  }
  // Not one lexeme after all (the one-word statement said so): the big statement answers.
  const page: Found = firstFound ?? (oneWordTried ? await relevance(runner, p, q!) : await search(runner, p, q));
  const { typoCandidates, ...first } = page;
  let found: Found = first;
  let correctedQuery: string | null = null;
  if (q && first.total < FEW && p.page === 1) {
    // A one-word search brought its word's nearest known words with its page: no statement for them.
    const corrected = typoCandidates ? correctWith(q, new Map([[q, typoCandidates]])) : await correctTypos(runner, q, 'club_search_word');
    if (corrected) {
      const { typoCandidates: _, ...second } = await search(runner, p, corrected);
      if (second.total > first.total) [found, correctedQuery] = [second, corrected];
    }
  }
  // The keys in clubSearchResult's order; every value but the cards is a number or a known word.
  return `{"items":${found.items},"total":${Number(found.total)},"totalIs":${JSON.stringify(found.totalIs)},"page":${p.page},"pageSize":${
    p.pageSize
  },"correctedQuery":${JSON.stringify(correctedQuery)}}`;
}

/** The answer as an object (tests, callers in process). */
export async function searchClubs(runner: SearchRunner, p: ClubSearchParams): Promise<ClubSearchResult> {
  return JSON.parse(await searchClubsJson(runner, p)) as ClubSearchResult;
}
