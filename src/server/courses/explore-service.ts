import { sql, type SQL } from 'drizzle-orm';
import type { CourseCard } from '../../shared/courses-schemas.js';
import type { AppServices } from '../app-services.js';
import { CARD_COLUMNS, CARD_JSON } from './course-cards.js';

export interface Explore {
  featured: CourseCard[];
  upcoming: CourseCard[];
  popular: CourseCard[];
  nearYou: CourseCard[];
}

/** Cards per shelf. */
export const SHELF = 12;
/** At most this many of one educator's courses on the featured shelf, so it shows several educators. */
export const FEATURED_PER_EDUCATOR = 2;

/**
 * The explore page in one statement, nearest first for the viewer's city:
 *
 *   - featured: upcoming courses with a seat left of the educators featured on /explore
 *     (courses/featured.ts: Educator Pro), at most FEATURED_PER_EDUCATOR each, soonest first;
 *   - upcoming: courses starting soonest with a seat left;
 *   - popular: courses with a session to come, by Bayesian average rating, which weighs the
 *     rating by how many learners reviewed it (only enrolled learners review);
 *   - nearYou: in-person courses in the viewer's city (case-insensitive), soonest first,
 *     then online courses.
 *
 * "Nearest first": on upcoming and popular, courses in the viewer's city come first, then
 * online ones; in-person courses in other cities are left out (they are one search away).
 * Each part takes at most SHELF rows from an index walk (next_start_on, bookable+quality, or
 * lower(city)), so the cost does not grow with the number of courses; the featured shelf
 * walks each featured educator's courses (course_educator_idx), so its cost grows with the
 * number of featured educators only.
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

  // Featured: from the few featured educators to their courses (never a walk of every
  // upcoming course filtered by educator), nearest first like the other shelves.
  const near = c ? sql`(case when lower(city) = ${c} then 0 else 1 end)` : sql`1`;
  const reachable = c ? sql`(lower(city) = ${c} or format = 'online')` : sql`format = 'online'`;
  const featured = sql`
    (select coalesce(json_agg(${CARD_JSON} order by near, next_start_on, id), '[]'::json) from (
      select theirs.* from featured_educator f cross join lateral (
        select ${CARD_COLUMNS}, ${near} as near from course
        where educator_id = f.educator_id and ${published} and seats_left > 0 and ${reachable}
        order by near, next_start_on, id limit ${FEATURED_PER_EDUCATOR}
      ) theirs
      order by near, next_start_on, id limit ${SHELF}
    ) s)`;

  const soonest = sql`next_start_on, id`;
  const best = sql`(next_start_on is null), quality desc nulls last, id`;
  const res = (await app.database.db.execute(sql`
    select
      ${featured} as featured,
      ${shelf(sql`seats_left > 0`, soonest, soonest)} as upcoming,
      ${shelf(sql`true`, best, best)} as popular,
      ${c ? shelf(sql`true`, soonest, soonest) : sql`'[]'::json`} as near_you`)) as unknown as {
    rows: { featured: CourseCard[]; upcoming: CourseCard[]; popular: CourseCard[]; near_you: CourseCard[] }[];
  };
  const row = res.rows[0];
  return { featured: row.featured, upcoming: row.upcoming, popular: row.popular, nearYou: row.near_you };
}
