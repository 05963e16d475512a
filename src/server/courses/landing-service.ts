import { sql } from 'drizzle-orm';
import type { CourseCard } from '../../shared/courses-schemas.js';
import type { AppServices } from '../app-services.js';
import { CARD_COLUMNS, CARD_JSON } from './course-cards.js';

/** Courses on the landing page. */
export const FEATURED = 6;

/**
 * What the public landing page shows of courses, in one statement: the figures (published
 * courses, educators teaching one, cities with an in-person one) and a few featured
 * courses still to come, the best rated of each category first so the shelf is varied.
 */
export async function getLandingCourses(app: AppServices): Promise<{
  figures: { courses: number; educators: number; cities: number };
  featured: CourseCard[];
}> {
  const res = (await app.database.db.execute(sql`
    select
      (select count(*)::int from course where status = 'published') as courses,
      (select count(distinct educator_id)::int from course where status = 'published') as educators,
      (select count(distinct lower(city))::int from course where status = 'published' and format = 'in_person' and city is not null) as cities,
      (select coalesce(json_agg(${CARD_JSON} order by quality desc, id), '[]'::json) from (
        select * from (
          select distinct on (category) ${CARD_COLUMNS} from course
          where status = 'published' and next_start_on >= current_date and seats_left > 0
          order by category, quality desc, id
        ) best order by quality desc, id limit ${FEATURED}
      ) f) as featured`)) as unknown as {
    rows: { courses: number; educators: number; cities: number; featured: CourseCard[] }[];
  };
  const row = res.rows[0];
  return { figures: { courses: row.courses, educators: row.educators, cities: row.cities }, featured: row.featured };
}
