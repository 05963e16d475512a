import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { SearchResult, searchQuery } from '../../shared/courses-schemas.js';
import { jsonArrayText } from './search-shared.js';

/**
 * What every statement of course search (search-service.ts) is built from: its parameters,
 * the cap on counting, the filters' conditions, the order within a tier and the page's cards.
 */

export type SearchParams = z.output<typeof searchQuery>;
export type TotalKind = SearchResult['totalKind'];

/** Counting stops here: a total of TOTAL_CAP means "that many or more". */
export const TOTAL_CAP = 1000;
/** Fewer exact matches than this on the first page: typo-tolerant matches are added. */
export const FEW = 3;

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
  // A course without an age range is open to every age (enrolment checks ages only where set).
  if (p.age !== undefined) w.push(sql`(min_age is null or min_age <= ${p.age}) and (max_age is null or max_age >= ${p.age})`);
  return w;
}

export const hasFilters = (p: SearchParams) => filterConditions(p).length > 1;

/** The order of relevance within a tier (course_relevance_idx), over the columns a tier CTE selects. */
export const TIER_ORDER = sql.raw('unbookable, quality desc nulls last, id');
/** The cards of the CTE `page` (ids, tier and order keys), read from course_card by primary key. */
export const PAGE_CARDS = jsonArrayText(
  sql`k.card`,
  sql`page.tier, page.unbookable, page.quality desc nulls last, page.id`,
  sql`from page join course_card k on k.course_id = page.id`,
);
