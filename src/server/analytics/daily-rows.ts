import { sql, type SQL } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { rowsOf } from '../db/transaction.js';
import { allCourseSessions, allCourses, rowsPerCourse, waitlistedIn } from '../courses/relations.js';
import { educatorCourseCheckouts, educatorCoursePayments } from '../payments/sales-relations.js';
import { addDays, todayUtc, type DayRange } from './range.js';
import type { AnalyticsScope } from './scope.js';

/**
 * What analytics reads: each source once, grouped per course and UTC day over both periods
 * (the current one and the one before it). Every figure, series and table row is summed
 * from these rows (figures.ts).
 */
/** A day row (courseId null: both periods) or a course row (day null: the current period). */
export interface Daily {
  courseId: string | null;
  day: string | null;
}
interface EnrolRow extends Daily {
  n: number;
}
export interface MoneyRow extends Daily {
  currency: string;
  sales: number;
  gross: number;
  fee: number;
  refunded: number;
  refunds: number;
}
interface PurchaseRow extends Daily {
  checkouts: number;
  paid: number;
}
interface ReviewRow extends Daily {
  rating: number;
  n: number;
}
export interface SessionRow {
  sessionId: string;
  courseId: string;
  courseTitle: string;
  startsOn: string;
  seatsTaken: number;
  capacity: number;
  waitlisted: number;
}

/**
 * Every source read once over [previousFrom, to], aggregated in PostgreSQL with grouping
 * sets into two kinds of row: per UTC day over both periods (courseId null: the totals and
 * series) and per course over the current period only (day null: the course table).
 */
export async function readDaily(app: AppServices, scope: AnalyticsScope, range: DayRange) {
  const E = scope.educatorId;
  const a = `${range.previousFrom}T00:00:00Z`;
  const mid = `${range.from}T00:00:00Z`;
  const b = `${addDays(range.to, 1)}T00:00:00Z`;
  const onCourse = (col: SQL) => (scope.courseId ? sql`and ${col} = ${scope.courseId}::uuid` : sql``);
  const mine = sql`mc.educator_id = ${E}`;
  const utcDay = (col: SQL) => sql`((${col}) at time zone 'UTC')::date`;
  const lastStart = range.to < todayUtc() ? range.to : todayUtc();
  /** A metric: over the day's rows (day rows), or over the current period (course rows). */
  const metric = (agg: (where: SQL) => SQL) => sql`case when grouping(x.course_id) = 0 then ${agg(sql`x.now`)} else ${agg(sql`true`)} end`;
  const count = metric((w) => sql`(count(*) filter (where ${w}))::int`);
  const total = (col: string) => metric((w) => sql`(coalesce(sum(${sql.raw(col)}) filter (where ${w}), 0))::float8`);
  const keys = sql`case when grouping(x.course_id) = 0 then x.course_id end as "courseId", case when grouping(x.d) = 0 then x.d::text end as day`;

  const [enrolments, drops, money, purchases, views, reviews, sessions] = await Promise.all([
    rowsOf<EnrolRow>(
      app.database.db,
      sql`select ${keys}, ${count} as n
          from (select e.course_id, ${utcDay(sql`e.created_at`)} as d, e.created_at >= ${mid}::timestamptz as now
                from ${rowsPerCourse('enrolment', 'e')}
                where ${mine} ${onCourse(sql`e.course_id`)}
                  and e.created_at >= ${a}::timestamptz and e.created_at < ${b}::timestamptz
                  and e.status not in ('waitlisted', 'pending_payment')) x
          group by grouping sets ((x.course_id), (x.d))`,
    ),
    rowsOf<EnrolRow>(
      app.database.db,
      sql`select ${keys}, ${count} as n
          from (select e.course_id, ${utcDay(sql`e.dropped_at`)} as d, e.dropped_at >= ${mid}::timestamptz as now
                from ${rowsPerCourse('enrolment', 'e')}
                where ${mine} ${onCourse(sql`e.course_id`)} and e.status = 'dropped'
                  and e.dropped_at >= ${a}::timestamptz and e.dropped_at < ${b}::timestamptz) x
          group by grouping sets ((x.course_id), (x.d))`,
    ),
    rowsOf<MoneyRow>(
      app.database.db,
      sql`select ${keys}, x.currency, ${count} as sales, ${total('x.amount_cents')} as gross, ${total('x.fee_cents - x.fee_refunded_cents')} as fee,
                 ${total('x.refunded_cents')} as refunded, ${metric((w) => sql`(count(*) filter (where ${w} and x.refunded_cents > 0))::int`)} as refunds
          from (select p.course_id, ${utcDay(sql`p.paid_at`)} as d, p.paid_at >= ${mid}::timestamptz as now, p.currency,
                       p.amount_cents, p.fee_cents, p.fee_refunded_cents, p.refunded_cents
                from ${educatorCoursePayments(E)} p
                where true ${onCourse(sql`p.course_id`)}
                  and p.paid_at >= ${a}::timestamptz and p.paid_at < ${b}::timestamptz) x
          group by grouping sets ((x.course_id, x.currency), (x.d, x.currency))`,
    ),
    rowsOf<PurchaseRow>(
      app.database.db,
      sql`select ${keys}, ${count} as checkouts, ${metric((w) => sql`(count(*) filter (where ${w} and x.paid))::int`)} as paid
          from (select pu.course_id, ${utcDay(sql`pu.created_at`)} as d, pu.created_at >= ${mid}::timestamptz as now,
                       pu.fulfilled_at is not null as paid
                from ${educatorCourseCheckouts(E)} pu
                where true ${onCourse(sql`pu.course_id`)}
                  and pu.created_at >= ${a}::timestamptz and pu.created_at < ${b}::timestamptz) x
          group by grouping sets ((x.course_id), (x.d))`,
    ),
    rowsOf<EnrolRow>(
      app.database.db,
      sql`select ${keys}, ${metric((w) => sql`(coalesce(sum(x.views) filter (where ${w}), 0))::int`)} as n
          from (select v.course_id, v.day as d, v.day >= ${range.from}::date as now, v.views
                from course_view_day v
                where v.educator_id = ${E} ${onCourse(sql`v.course_id`)}
                  and v.day >= ${range.previousFrom}::date and v.day <= ${range.to}::date) x
          group by grouping sets ((x.course_id), (x.d))`,
    ),
    rowsOf<ReviewRow>(
      app.database.db,
      sql`select ${keys}, x.rating, ${count} as n
          from (select r.course_id, ${utcDay(sql`r.created_at`)} as d, r.created_at >= ${mid}::timestamptz as now, r.rating::int as rating
                from ${rowsPerCourse('review', 'r')}
                where ${mine} ${onCourse(sql`r.course_id`)}
                  and r.created_at >= ${a}::timestamptz and r.created_at < ${b}::timestamptz) x
          group by grouping sets ((x.course_id, x.rating), (x.d, x.rating))`,
    ),
    rowsOf<SessionRow>(
      app.database.db,
      sql`select s.id as "sessionId", s.course_id as "courseId", c.title as "courseTitle", s.starts_on::text as "startsOn",
            s.seats_taken as "seatsTaken", s.capacity,
            ${waitlistedIn(sql`s.id`)} as waitlisted
          from ${allCourseSessions} s join ${allCourses} c on c.id = s.course_id
          where c.educator_id = ${E} ${onCourse(sql`s.course_id`)} and s.status <> 'cancelled'
            and s.starts_on >= ${range.previousFrom}::date and s.starts_on <= ${lastStart}::date
          order by s.starts_on desc, s.id`,
    ),
  ]);
  return { enrolments, drops, money, purchases, views, reviews, sessions };
}

/**
 * Learners of each period, and those of them who hold seats in two or more of this
 * educator's courses by the period's end (re-enrolment): one pass over the educator's enrolments.
 */
export async function readLearners(app: AppServices, scope: AnalyticsScope, range: DayRange) {
  const a = `${range.previousFrom}T00:00:00Z`;
  const mid = `${range.from}T00:00:00Z`;
  const b = `${addDays(range.to, 1)}T00:00:00Z`;
  const inScope = scope.courseId ? sql`e.course_id = ${scope.courseId}::uuid` : sql`true`;
  const [row] = await rowsOf<{ now: number; nowReturning: number; before: number; beforeReturning: number }>(
    app.database.db,
    sql`select count(*) filter (where here_now)::int as "now", count(*) filter (where here_now and courses_now >= 2)::int as "nowReturning",
               count(*) filter (where here_before)::int as "before", count(*) filter (where here_before and courses_before >= 2)::int as "beforeReturning"
        from (
          select e.learner_id,
                 bool_or(${inScope} and e.created_at >= ${mid}::timestamptz) as here_now,
                 bool_or(${inScope} and e.created_at >= ${a}::timestamptz and e.created_at < ${mid}::timestamptz) as here_before,
                 count(distinct e.course_id) as courses_now,
                 count(distinct e.course_id) filter (where e.created_at < ${mid}::timestamptz) as courses_before
          from ${rowsPerCourse('enrolment', 'e')}
          where mc.educator_id = ${scope.educatorId}
            and e.status not in ('waitlisted', 'pending_payment') and e.created_at < ${b}::timestamptz
          group by e.learner_id
        ) l`,
  );
  return row;
}
