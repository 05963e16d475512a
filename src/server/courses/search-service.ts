import type { CourseCard, SearchResult } from '../../shared/courses-schemas.js';
import { toViewer, type RequireViewerWith, type Viewer, type ViewerRow } from '../accounts/viewer.js';
import type { SQL } from 'drizzle-orm';
import { FEW, hasFilters, TOTAL_CAP, type SearchParams, type TotalKind } from './search-parts.js';
import { isOneWordShape, oneWordQuery, oneWordSql, oneWordTotal, type OneWordRow } from './search-one-word.js';
import { isPreparedShape, PREPARED_RELEVANCE, searchSql } from './search-sql.js';
import { normalizeQuery, type Rows, type SearchRunner } from './search-shared.js';
import { correctTypos, correctWith } from './search-typos.js';

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
 *     names, checked by edit distance: search-typos.ts); several misspelt words, two more.
 *
 * The code: the answer here (searchCoursesJson); the statement that fits a search in
 * search-sql.ts (searchSql, relevanceSql) and search-one-word.ts (oneWordSql, oneWordTotal),
 * both built from search-parts.ts; the typo correction in search-typos.ts; what club search
 * shares in search-shared.ts; the card columns in course-cards.ts.
 */

async function one<T>(run: SearchRunner, query: SQL, name?: string): Promise<T> {
  const res = (name && run.prepared ? await run.prepared(name, query) : await run.db.execute(query)) as unknown as Rows<T>;
  return res.rows[0];
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
