import { sql, type SQL } from 'drizzle-orm';
import type { CourseCard } from '../../shared/courses-schemas.js';
import type { AppServices } from '../app-services.js';
import { CARD_COLUMNS, CARD_JSON } from './search-service.js';

export interface Explore {
  upcoming: CourseCard[];
  popular: CourseCard[];
  nearYou: CourseCard[];
}

/** Cards per shelf. */
export const SHELF = 12;

/**
 * The explore page in one statement, nearest first for the viewer's city:
 *
 *   - upcoming: courses starting soonest with a seat left;
 *   - popular: courses with a session to come, by Bayesian average rating, which weighs the
 *     rating by how many learners reviewed it (only enrolled learners review);
 *   - nearYou: in-person courses in the viewer's city (case-insensitive), soonest first,
 *     then online courses.
 *
 * "Nearest first": on upcoming and popular, courses in the viewer's city come first, then
 * online ones; in-person courses in other cities are left out (they are one search away).
 * Each part takes at most SHELF rows from an index walk (next_start_on, bookable+quality, or
 * lower(city)), so the cost does not grow with the number of courses.
 */
export async function getExplore(app: AppServices, city: string | null): Promise<Explore> {
  const c = city?.trim().toLowerCase() || null;
  const published = sql`status = 'published' and next_start_on >= current_date`;
  const local = (extra: SQL, order: SQL) =>
    c
      ? sql`(select ${CARD_COLUMNS}, 0 as near from course where ${published} and lower(city) = ${c} and ${extra} order by ${order} limit ${SHELF})`
      : sql`(select ${CARD_COLUMNS}, 0 as near from course where false)`;
  const online = (extra: SQL, order: SQL) =>
    sql`(select ${CARD_COLUMNS}, 1 as near from course where ${published} and format = 'online' and ${extra} order by ${order} limit ${SHELF})`;
  const shelf = (extra: SQL, order: SQL, innerOrder: SQL) => sql`
    (select coalesce(json_agg(${CARD_JSON} order by near, ${order}), '[]'::json) from (
      select * from (${local(extra, innerOrder)} union all ${online(extra, innerOrder)}) both_parts
      order by near, ${order} limit ${SHELF}
    ) s)`;

  const soonest = sql`next_start_on, id`;
  const best = sql`(next_start_on is null), quality desc nulls last, id`;
  const res = (await app.database.db.execute(sql`
    select
      ${shelf(sql`seats_left > 0`, soonest, soonest)} as upcoming,
      ${shelf(sql`true`, best, best)} as popular,
      ${c ? shelf(sql`true`, soonest, soonest) : sql`'[]'::json`} as near_you`)) as unknown as {
    rows: { upcoming: CourseCard[]; popular: CourseCard[]; near_you: CourseCard[] }[];
  };
  const row = res.rows[0];
  return { upcoming: row.upcoming, popular: row.popular, nearYou: row.near_you };
}
