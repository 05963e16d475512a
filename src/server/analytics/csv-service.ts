import { sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import type { AnalyticsQuery } from '../../shared/analytics-schemas.js';
import { csvCell } from '../courses/roster-service.js';
import { allCourseSessions, allCourses } from '../courses/relations.js';
import { people } from '../accounts/people.js';
import { educatorCoursePayments } from '../payments/sales-relations.js';
import { analyticsScope, getAnalytics } from './analytics-service.js';
import { addDays, readRange } from './range.js';

/**
 * The analytics CSVs: text cells through the roster's csvCell (quoted, formulas defused);
 * amounts are numbers we write (decimal, in the currency's major unit, "-" for a minus).
 */
const NUMBER = /^-?\d+(\.\d+)?$/;
/** A plain number (which no spreadsheet reads as a formula) stays a number; any other text is a csvCell. */
const line = (cells: (string | number)[]) => cells.map((c) => (typeof c === 'number' || NUMBER.test(c) ? String(c) : csvCell(c))).join(',');
const csv = (header: string[], rows: (string | number)[][]) => [line(header), ...rows.map(line)].join('\r\n') + '\r\n';

/** Minor units to a plain decimal of the currency ("120.00", "-12.00", "1500" for JPY). */
export function decimal(cents: number, currency: string): string {
  let digits = 2;
  try {
    digits =
      new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    digits = 2;
  }
  return (cents / 10 ** digits).toFixed(digits);
}
const pct = (x: number | null) => (x === null ? '' : (x * 100).toFixed(1));

export async function coursesCsv(app: AppServices, viewer: Viewer, educatorId: string, query: AnalyticsQuery) {
  const result = await getAnalytics(app, viewer, educatorId, query);
  const rows = result.table.flatMap((r) => {
    const base = [
      r.title,
      r.views,
      r.enrolments,
      r.paid,
      pct(r.conversion),
      pct(r.fillRate),
      r.ratingAvg?.toFixed(2) ?? '',
      r.drops,
      r.refunds,
    ];
    if (!r.revenue.length) return [[...base, '', '', '', '']];
    return r.revenue.map((m) => [
      ...base,
      m.currency.toUpperCase(),
      decimal(m.gross, m.currency),
      decimal(m.refunds, m.currency),
      decimal(m.net, m.currency),
    ]);
  });
  const header = [
    'Course',
    'Views',
    'Enrolments',
    'Paid',
    'Conversion %',
    'Fill rate %',
    'Rating',
    'Drops',
    'Refunds',
    'Currency',
    'Gross',
    'Refunded',
    'Net',
  ];
  return { filename: `analytics-courses-${result.from}-to-${result.to}.csv`, body: csv(header, rows) };
}

export async function salesCsv(app: AppServices, viewer: Viewer, educatorId: string, query: AnalyticsQuery) {
  const range = readRange(query);
  const scope = await analyticsScope(app, viewer, educatorId, query.course);
  const onCourse = scope.courseId ? sql`and p.course_id = ${scope.courseId}::uuid` : sql``;
  const res = (await app.database.db.execute(sql`
    select to_char(p.paid_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as paid, coalesce(c.title, '') as course,
           coalesce(s.starts_on::text, '') as session, coalesce(u.first_name, '') as learner,
           p.amount_cents as gross, p.fee_cents - p.fee_refunded_cents as fee, p.refunded_cents as refunded, p.currency
    from ${educatorCoursePayments(scope.educatorId)} p
      left join ${allCourses} c on c.id = p.course_id
      left join ${allCourseSessions} s on s.id = p.session_id
      left join ${people} u on u.id = p.user_id
    where true ${onCourse}
      and p.paid_at >= ${`${range.from}T00:00:00Z`}::timestamptz and p.paid_at < ${`${addDays(range.to, 1)}T00:00:00Z`}::timestamptz
    order by p.paid_at, p.id`)) as unknown as {
    rows: {
      paid: string;
      course: string;
      session: string;
      learner: string;
      gross: number;
      fee: number;
      refunded: number;
      currency: string;
    }[];
  };
  const rows = res.rows.map((r) => [
    r.paid,
    r.course,
    r.session,
    r.learner,
    decimal(r.gross, r.currency),
    decimal(r.fee, r.currency),
    decimal(r.refunded, r.currency),
    decimal(r.gross - r.fee - r.refunded, r.currency),
    r.currency.toUpperCase(),
  ]);
  const header = ['Date (UTC)', 'Course', 'Session', 'Learner', 'Gross', 'Fee', 'Refund', 'Net', 'Currency'];
  return { filename: `sales-${range.from}-to-${range.to}.csv`, body: csv(header, rows) };
}
