import { sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import type { AnalyticsResult, MoneyFigures } from '../../shared/analytics-schemas.js';
import { rowsOf } from '../db/transaction.js';
import { everEnrolled } from '../courses/relations.js';
import { attendanceRates } from '../attendance/attendance-service.js';
import { bucketOf, bucketsOf, type DayRange } from './range.js';
import type { AnalyticsScope } from './scope.js';
import { readDaily, readLearners, type Daily, type MoneyRow, type SessionRow } from './daily-rows.js';

/** The answer: figures, series and the course table, all summed from the same daily rows. */
const ratio = (num: number, den: number) => (den > 0 ? num / den : null);

/**
 * View to paid conversion: paid checkouts among the people who reached the course page. Every
 * checkout starts there, but a visit can go uncounted (one view per person per day, a browser
 * taken for a program, a buyer who came back on another day), so those reaching it are the
 * counted views or, when more, the checkouts started: never above 100 % (ADR 0055).
 */
export const conversionOf = (paid: number, views: number, checkouts: number) => ratio(paid, Math.max(views, checkouts));
const zeroMoney = (): MoneyFigures => ({ gross: 0, fee: 0, refunds: 0, net: 0 });

export async function computeAnalytics(app: AppServices, scope: AnalyticsScope, range: DayRange): Promise<AnalyticsResult> {
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
  const charted = sessionsNow.slice(0, 60);
  // Attendance is attendance's (a domain below): its rate per session, through what it exports.
  const attendance = await attendanceRates(
    app,
    charted.map((s) => s.sessionId),
  );

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
      fill: charted.map((s) => ({
        sessionId: s.sessionId,
        courseId: s.courseId,
        courseTitle: s.courseTitle,
        startsOn: s.startsOn,
        seatsTaken: s.seatsTaken,
        capacity: s.capacity,
        fillRate: s.seatsTaken / s.capacity,
        attendanceRate: attendance.get(s.sessionId) ?? null,
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
