import { sql, type SQL } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import type { AnalyticsQuery, AnalyticsResult, MoneyFigures } from '../../shared/analytics-schemas.js';
import { isUuid } from '../../shared/ids.js';
import { rowsOf } from '../db/transaction.js';
import { AppError } from '../http/errors.js';
import { educatorProfiles, people } from '../accounts/people.js';
import { allCourseSessions, allCourses, everEnrolled, rowsPerCourse, waitlistedIn } from '../courses/relations.js';
import { educatorCourseCheckouts, educatorCoursePayments } from '../payments/sales-relations.js';
import { addDays, bucketOf, bucketsOf, readRange, todayUtc, type DayRange } from './range.js';

/**
 * Educator analytics (issue 13), computed at read time from the tables of record
 * (enrolment, purchase, payment, review, course_session) and the daily view counts:
 * docs/decisions/0021-analytics.md says why, and what the bench measured. Each source is
 * read once, grouped per course and UTC day over both periods (the current one and the
 * one before it); every figure, series and table row is summed from those daily rows,
 * so they agree with each other and, to the cent, with the payment table.
 */

export interface AnalyticsScope {
  educatorId: string;
  courseId: string | null;
  courses: { id: string; title: string; status: string }[];
}

/**
 * Only the educator (and admins) may read an educator's figures; anyone else gets the
 * same 404 as an unknown educator, so the answer does not say who is an educator.
 */
export async function analyticsScope(app: AppServices, viewer: Viewer, educatorId: string, course?: string): Promise<AnalyticsScope> {
  const courseId = await checkAccess(app, viewer, educatorId, course);
  return loadScope(app, educatorId, courseId);
}

/** The access check (every request, cached figures or not); answers the course filter. */
async function checkAccess(app: AppServices, viewer: Viewer, educatorId: string, course?: string): Promise<string | null> {
  const notFound = new AppError(404, 'not_found', 'These analytics do not exist, or are not yours to see');
  if (viewer.user.id !== educatorId) {
    const [me] = await rowsOf<{ role: string }>(app.database.db, sql`select role from ${people} u where id = ${viewer.user.id}`);
    if (me?.role !== 'admin') throw notFound;
  }
  const [edu] = await rowsOf<{ ok: number }>(app.database.db, sql`select 1 as ok from ${educatorProfiles} e where user_id = ${educatorId}`);
  if (!edu) throw notFound;
  if (course === undefined || course === '') return null;
  if (!isUuid(course)) throw AppError.badRequest('course: Unknown course', { course: 'Unknown course' });
  return course.toLowerCase();
}

async function loadScope(app: AppServices, educatorId: string, courseId: string | null): Promise<AnalyticsScope> {
  const courses = await rowsOf<{ id: string; title: string; status: string }>(
    app.database.db,
    sql`select id, title, status from ${allCourses} c where educator_id = ${educatorId} order by lower(title), id`,
  );
  if (courseId && !courses.some((c) => c.id === courseId)) throw new AppError(404, 'not_found', 'This course is not one of yours');
  return { educatorId, courseId, courses };
}

/** A day row (courseId null: both periods) or a course row (day null: the current period). */
interface Daily {
  courseId: string | null;
  day: string | null;
}
interface EnrolRow extends Daily {
  n: number;
}
interface MoneyRow extends Daily {
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
interface SessionRow {
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
async function readDaily(app: AppServices, scope: AnalyticsScope, range: DayRange) {
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
async function readLearners(app: AppServices, scope: AnalyticsScope, range: DayRange) {
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

const ratio = (num: number, den: number) => (den > 0 ? num / den : null);

/**
 * View to paid conversion: paid checkouts among the people who reached the course page. Every
 * checkout starts there, but a visit can go uncounted (one view per person per day, a browser
 * taken for a program, a buyer who came back on another day), so those reaching it are the
 * counted views or, when more, the checkouts started: never above 100 % (ADR 0055).
 */
export const conversionOf = (paid: number, views: number, checkouts: number) => ratio(paid, Math.max(views, checkouts));
const zeroMoney = (): MoneyFigures => ({ gross: 0, fee: 0, refunds: 0, net: 0 });

/**
 * The figures of a large catalogue (LARGE_CATALOGUE courses or more) are kept for CACHE_MS
 * per app process and answered from there (with their `asOf`); everyone else's are always
 * computed afresh. Derived data only: a lost cache costs one computation (ADR 0021).
 */
const CACHE_MS = 30_000;
/** A catalogue this large has its figures kept (a deterministic rule: no test or small educator ever sees cached figures). */
const LARGE_CATALOGUE = 100;
const CACHE_MAX = 200;
interface Cached {
  at: number;
  value: AnalyticsResult;
  /** The answer as sent (serialized once). */
  json: string;
}
const caches = new WeakMap<object, Map<string, Cached>>();

/** The figures and their JSON (the route sends the JSON as is, cached or computed). */
export async function analyticsAnswer(
  app: AppServices,
  viewer: Viewer,
  educatorId: string,
  query: AnalyticsQuery,
  opts: { fresh?: boolean } = {},
): Promise<Cached> {
  const range = readRange(query);
  const courseId = await checkAccess(app, viewer, educatorId, query.course);
  let cache = caches.get(app.database);
  if (!cache) caches.set(app.database, (cache = new Map()));
  const key = `${educatorId}|${range.from}|${range.to}|${courseId ?? ''}`;
  const hit = cache.get(key);
  if (hit && !opts.fresh && Date.now() - hit.at < CACHE_MS) return hit;
  const started = Date.now();
  const scope = await loadScope(app, educatorId, courseId);
  const value = await computeAnalytics(app, scope, range);
  const answer = { at: started, value, json: JSON.stringify(value) };
  if (scope.courses.length >= LARGE_CATALOGUE) {
    cache.delete(key);
    cache.set(key, answer);
    while (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  }
  return answer;
}

export async function getAnalytics(app: AppServices, viewer: Viewer, educatorId: string, query: AnalyticsQuery): Promise<AnalyticsResult> {
  return (await analyticsAnswer(app, viewer, educatorId, query)).value;
}

async function computeAnalytics(app: AppServices, scope: AnalyticsScope, range: DayRange): Promise<AnalyticsResult> {
  const asOf = new Date().toISOString();
  const [daily, learners] = await Promise.all([readDaily(app, scope, range), readLearners(app, scope, range)]);
  const sum = <T extends Daily>(rows: T[], f: (r: T) => number) => periodSum(range, rows, f);
  const revenue = revenueByCurrency(range, daily.money);
  const currencies = [...revenue.keys()].sort();
  const reviewCount = sum(daily.reviews, (r) => r.n);
  const starSum = sum(daily.reviews, (r) => r.n * r.rating);
  const sessionsNow = daily.sessions.filter((s) => s.startsOn >= range.from);
  const sessionsBefore = daily.sessions.filter((s) => s.startsOn < range.from);
  const fill = (list: SessionRow[]) =>
    ratio(
      list.reduce((n, s) => n + s.seatsTaken, 0),
      list.reduce((n, s) => n + s.capacity, 0),
    );
  const views = sum(daily.views, (r) => r.n);
  const checkouts = sum(daily.purchases, (r) => r.checkouts);
  const paid = sum(daily.purchases, (r) => r.paid);
  const series = seriesOf(range, daily, currencies);

  return {
    educatorId: scope.educatorId,
    asOf,
    from: range.from,
    to: range.to,
    previousFrom: range.previousFrom,
    previousTo: range.previousTo,
    bucket: range.bucket,
    course: scope.courseId,
    courses: scope.courses,
    hasActivity:
      daily.enrolments.length + daily.money.length + daily.views.length + daily.purchases.length + daily.reviews.length > 0 ||
      (await hasEverActivity(app, scope)),
    figures: {
      enrolments: sum(daily.enrolments, (r) => r.n),
      learners: { current: learners.now, previous: learners.before },
      averageRating: { current: ratio(starSum.current, reviewCount.current), previous: ratio(starSum.previous, reviewCount.previous) },
      reviews: reviewCount,
      fillRate: { current: fill(sessionsNow), previous: fill(sessionsBefore) },
      views,
      checkouts,
      paid,
      conversion: {
        current: conversionOf(paid.current, views.current, checkouts.current),
        previous: conversionOf(paid.previous, views.previous, checkouts.previous),
      },
      drops: sum(daily.drops, (r) => r.n),
      refunds: sum(daily.money, (r) => r.refunds),
      waitlist: {
        current: sessionsNow.reduce((n, s) => n + s.waitlisted, 0),
        previous: sessionsBefore.reduce((n, s) => n + s.waitlisted, 0),
      },
      reenrolmentRate: {
        current: ratio(learners.nowReturning, learners.now),
        previous: ratio(learners.beforeReturning, learners.before),
      },
    },
    revenue: currencies.map((c) => revenue.get(c)!),
    series: {
      enrolments: series.enrolments,
      revenue: series.revenue,
      funnel: [
        { stage: 'Page views', count: views.current },
        { stage: 'Checkouts started', count: checkouts.current },
        { stage: 'Paid', count: paid.current },
      ],
      ratings: series.ratings,
      ratingTrend: series.ratingTrend,
      fill: sessionsNow.slice(0, 60).map((s) => ({
        sessionId: s.sessionId,
        courseId: s.courseId,
        courseTitle: s.courseTitle,
        startsOn: s.startsOn,
        seatsTaken: s.seatsTaken,
        capacity: s.capacity,
        fillRate: s.seatsTaken / s.capacity,
      })),
    },
    table: courseTable(scope, daily, sessionsNow),
  };
}

type DailyRows = Awaited<ReturnType<typeof readDaily>>;

/** The day rows (both periods) of a source. */
const dayRows = <T extends Daily>(rows: T[]) => rows.filter((r): r is T & { day: string } => r.day !== null);
/** The course rows (the current period) of a source: for the table. */
const courseRows = <T extends Daily>(rows: T[]) => rows.filter((r) => r.day === null);

/** A figure summed over the day rows of the current period and of the one before it. */
function periodSum<T extends Daily>(range: DayRange, rows: T[], f: (r: T) => number) {
  let current = 0;
  let previous = 0;
  for (const r of dayRows(rows)) {
    if (r.day > range.to || r.day < range.previousFrom) continue;
    if (r.day >= range.from) current += f(r);
    else previous += f(r);
  }
  return { current, previous };
}

/** Money of both periods per currency, never added across currencies. */
function revenueByCurrency(range: DayRange, money: MoneyRow[]) {
  const revenue = new Map<string, { currency: string; current: MoneyFigures; previous: MoneyFigures }>();
  for (const m of dayRows(money)) {
    const entry = revenue.get(m.currency) ?? { currency: m.currency, current: zeroMoney(), previous: zeroMoney() };
    const side = m.day >= range.from ? entry.current : entry.previous;
    side.gross += m.gross;
    side.fee += m.fee;
    side.refunds += m.refunded;
    side.net += m.gross - m.fee - m.refunded;
    revenue.set(m.currency, entry);
  }
  return revenue;
}

/** The series over the current period, in buckets chosen by its length (the funnel and fill are figures already). */
function seriesOf(range: DayRange, daily: DailyRows, currencies: string[]) {
  const inNow = (d: string) => d >= range.from;
  const buckets = bucketsOf(range);
  const enrolSeries = new Map(buckets.map((b) => [b, 0]));
  for (const r of dayRows(daily.enrolments))
    if (inNow(r.day)) enrolSeries.set(bucketOf(r.day, range.bucket), (enrolSeries.get(bucketOf(r.day, range.bucket)) ?? 0) + r.n);
  const revenueSeries = new Map<string, { bucket: string; currency: string; net: number; gross: number }>();
  for (const b of buckets) for (const c of currencies) revenueSeries.set(`${b}|${c}`, { bucket: b, currency: c, net: 0, gross: 0 });
  for (const m of dayRows(daily.money)) {
    if (!inNow(m.day)) continue;
    const point = revenueSeries.get(`${bucketOf(m.day, range.bucket)}|${m.currency}`);
    if (!point) continue;
    point.net += m.gross - m.fee - m.refunded;
    point.gross += m.gross;
  }
  const stars = [1, 2, 3, 4, 5].map((s) => ({ stars: s, count: 0 }));
  const trend = new Map(buckets.map((b) => [b, { bucket: b, sum: 0, count: 0 }]));
  for (const r of dayRows(daily.reviews)) {
    if (!inNow(r.day)) continue;
    stars[r.rating - 1].count += r.n;
    const t = trend.get(bucketOf(r.day, range.bucket));
    if (t) {
      t.sum += r.rating * r.n;
      t.count += r.n;
    }
  }
  return {
    enrolments: [...enrolSeries].map(([bucket, enrolments]) => ({ bucket, enrolments })),
    revenue: [...revenueSeries.values()],
    ratings: stars,
    ratingTrend: [...trend.values()]
      .filter((t) => t.count > 0)
      .map((t) => ({ bucket: t.bucket, average: t.sum / t.count, count: t.count })),
  };
}

/** The per-course table of the current period (the filtered course only, when there is one). */
function courseTable(scope: AnalyticsScope, daily: DailyRows, sessionsNow: SessionRow[]) {
  const table = new Map(
    scope.courses
      .filter((c) => !scope.courseId || c.id === scope.courseId)
      .map((c) => [
        c.id,
        {
          courseId: c.id,
          title: c.title,
          views: 0,
          enrolments: 0,
          paid: 0,
          checkouts: 0,
          conversion: null as number | null,
          fillRate: null as number | null,
          ratingAvg: null as number | null,
          ratingCount: 0,
          drops: 0,
          refunds: 0,
          revenue: [] as { currency: string; gross: number; refunds: number; net: number }[],
          taken: 0,
          offered: 0,
          stars: 0,
        },
      ]),
  );
  const rowOf = (id: string | null) => (id ? table.get(id) : undefined);
  const add = <T extends Daily>(rows: T[], f: (row: NonNullable<ReturnType<typeof rowOf>>, r: T) => void) => {
    for (const r of courseRows(rows)) {
      const row = rowOf(r.courseId);
      if (row) f(row, r);
    }
  };
  add(daily.views, (row, r) => (row.views += r.n));
  add(daily.enrolments, (row, r) => (row.enrolments += r.n));
  add(daily.purchases, (row, r) => {
    row.paid += r.paid;
    row.checkouts += r.checkouts;
  });
  add(daily.drops, (row, r) => (row.drops += r.n));
  add(daily.reviews, (row, r) => {
    row.ratingCount += r.n;
    row.stars += r.n * r.rating;
  });
  for (const s of sessionsNow) {
    const row = rowOf(s.courseId);
    if (!row) continue;
    row.taken += s.seatsTaken;
    row.offered += s.capacity;
  }
  add(daily.money, (row, m) => {
    if (!(m.sales > 0)) return;
    row.refunds += m.refunds;
    let money = row.revenue.find((x) => x.currency === m.currency);
    if (!money) row.revenue.push((money = { currency: m.currency, gross: 0, refunds: 0, net: 0 }));
    money.gross += m.gross;
    money.refunds += m.refunded;
    money.net += m.gross - m.fee - m.refunded;
  });
  return [...table.values()].map(({ taken, offered, stars: starTotal, checkouts, ...row }) => ({
    ...row,
    conversion: conversionOf(row.paid, row.views, checkouts),
    fillRate: ratio(taken, offered),
    ratingAvg: ratio(starTotal, row.ratingCount),
  }));
}

/** Whether these courses ever had an enrolment or a view (the page's empty state otherwise). */
async function hasEverActivity(app: AppServices, scope: AnalyticsScope): Promise<boolean> {
  if (!scope.courses.length) return false;
  const [row] = await rowsOf<{ any: boolean }>(
    app.database.db,
    sql`select ${everEnrolled(scope.educatorId, scope.courseId)}
          or exists (select 1 from course_view_day v where v.educator_id = ${scope.educatorId} ${scope.courseId ? sql`and v.course_id = ${scope.courseId}::uuid` : sql``}) as any`,
  );
  return !!row?.any;
}
