import { inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { seededRandom } from '../../shared/random.js';
import { course } from '../db/schema/courses.js';
import { courseViewDay } from '../db/schema/analytics.js';
import { DAY } from './demo-dates.js';

/** Days of views before today: both analytics periods of the default range (30 days) and the one before. */
const VIEW_DAYS = 60;

/**
 * Course page views for the demo catalogue (issue 23): a few a day per published course over
 * the last 60 days, more for the fuller courses, so the analytics funnel starts with its views.
 * Each day has at least one view per checkout started that day (the demo's sales were made
 * without opening the page). Written once: skipped when a demo course already has views.
 */
export async function seedDemoViews(app: FastifyInstance, educatorIds: string[]): Promise<number> {
  if (!educatorIds.length) return 0;
  const db = app.database.db;
  const courses = await db
    .select({ id: course.id, educatorId: course.educatorId, reviews: course.ratingCount, status: course.status })
    .from(course)
    .where(inArray(course.educatorId, educatorIds))
    .orderBy(course.title);
  const published = courses.filter((c) => c.status === 'published');
  if (!published.length) return 0;
  const [seen] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(courseViewDay)
    .where(
      inArray(
        courseViewDay.courseId,
        courses.map((c) => c.id),
      ),
    );
  if (seen.n > 0) return 0;
  // Checkouts started per course and UTC day: the floor of that day's views.
  const started = (await db.execute(
    sql`select course_id::text as "courseId", ((created_at at time zone 'UTC')::date)::text as day, count(*)::int as n
        from purchase where kind <> 'plan' and ${inArray(
          sql`course_id`,
          published.map((c) => c.id),
        )} group by 1, 2`,
  )) as unknown as { rows: { courseId: string; day: string; n: number }[] };
  const floor = new Map(started.rows.map((r) => [`${r.courseId}|${r.day}`, Number(r.n)]));
  const today = Date.now();
  const rows: (typeof courseViewDay.$inferInsert)[] = [];
  for (const [i, c] of published.entries()) {
    const r = seededRandom(i * 104_729 + 7);
    // Popularity: 1 to 9 views on an average day, more for the courses with more reviews.
    const base = 1 + Math.min(6, c.reviews / 2) + r() * 2;
    for (let k = VIEW_DAYS - 1; k >= 0; k--) {
      const day = new Date(today - k * DAY).toISOString().slice(0, 10);
      const weekend = [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay()) ? 1.3 : 1;
      const views = Math.max(Math.round(base * weekend * (0.4 + r() * 1.2)), floor.get(`${c.id}|${day}`) ?? 0);
      if (views > 0) rows.push({ courseId: c.id, educatorId: c.educatorId, day, views });
    }
  }
  // All or none (one transaction): the check above skips a course set with any views, so a
  // batch written by an attempt cut short would otherwise leave the rest unwritten for good.
  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += 1000)
      await tx
        .insert(courseViewDay)
        .values(rows.slice(i, i + 1000))
        .onConflictDoNothing();
  });
  return rows.length;
}
