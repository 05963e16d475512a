import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsResult } from '../../../src/shared/analytics-schemas.js';
import { createSignedInUser, type SignedInUser } from '../../support/factories.js';
import { get } from '../../support/http.js';
import { dayFromNow } from '../../support/test-data.js';
import {
  drop,
  enrol,
  firstClassTookPlace,
  makeEducator,
  makePublishedCourse,
  putReview,
  queryRows,
  useCoursesApp,
} from '../../support/courses.js';

/**
 * Educator analytics from a known data set (issue 13): every headline figure equals the
 * value worked out by hand below. Period: the last 30 days (today - 29 .. today); the
 * previous period is the 30 days before it (today - 59 .. today - 30).
 *
 *   Course A (USD), session sA (capacity 3, started 5 days ago); course B (GBP), session sB (future).
 *   L1 enrols A and B; L2 enrols A; L3 enrolled A 40 days ago; L4 waits for A (full), enrols B and drops it.
 *   Reviews: L1 5★, L2 3★ (now); L3 2★ (40 days ago).
 *   Views: L1 (A twice, B), L2 (A), L3 (A, and again as a bot), the educator (A) -> 4; 7 views 35 days ago.
 *   Payments: L1 A $120.00 (fee 12.00); L2 A $120.00 (fee 12.00) fully refunded; L4 A checkout never paid;
 *   L1 B £50.00 (fee 5.00, £10.00 refunded); L3 A $90.00 (fee 9.00) 40 days ago.
 */
const ctx = useCoursesApp();
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

let A: string;
let B: string;
let sA: string;
let sB: string;
let L: SignedInUser[];
let result: AnalyticsResult;

async function purchase(
  learner: string,
  courseId: string,
  sessionId: string,
  at: string,
  paid: { amount: number; fee: number; refunded: number; currency: string } | null,
) {
  const [row] = await queryRows<{ id: string }>(
    ctx.app,
    sql`insert into purchase (user_id, kind, course_id, session_id, educator_id, amount_cents, currency, fee_percent, status, created_at, fulfilled_at)
        values (${learner}, 'course_payment', ${courseId}, ${sessionId}, ${ctx.educator.id}, ${paid?.amount ?? 12000}, ${paid?.currency ?? 'usd'}, 10,
                ${paid ? 'fulfilled' : 'open'}, ${at}::timestamptz, ${paid ? at : null}::timestamptz)
        returning id`,
  );
  if (paid)
    await queryRows(
      ctx.app,
      sql`insert into payment (purchase_id, user_id, educator_id, amount_cents, fee_cents, refunded_cents, currency, paid_at)
          values (${row.id}, ${learner}, ${ctx.educator.id}, ${paid.amount}, ${paid.fee}, ${paid.refunded}, ${paid.currency}, ${at}::timestamptz)`,
    );
}

const analyticsOf = (user: { cookie: string }, educatorId: string, query = '') =>
  get(ctx.app, `/api/educator/${educatorId}/analytics${query}`, { cookie: user.cookie });

beforeAll(async () => {
  const app = ctx.app;
  ({ courseId: A, sessionId: sA } = await makePublishedCourse(app, ctx.educator, {
    course: { title: 'Course A' },
    session: { capacity: 3 },
  }));
  ({ courseId: B, sessionId: sB } = await makePublishedCourse(app, ctx.educator, { course: { title: 'Course B', currency: 'gbp' } }));
  L = [];
  for (const name of ['Lena', 'Omar', 'Priya', 'Sam']) L.push(await createSignedInUser(app, { firstName: name }));
  const [l1, l2, l3, l4] = L;
  for (const [who, c, s] of [
    [l1, A, sA],
    [l1, B, sB],
    [l2, A, sA],
    [l3, A, sA],
    [l4, A, sA],
    [l4, B, sB],
  ] as const)
    expect((await enrol(app, who, c, s)).statusCode).toBe(200);
  expect((await drop(app, l4, B, sB)).statusCode).toBe(200);
  // Reviews open once the first class took place.
  await firstClassTookPlace(app, A);
  for (const [who, stars] of [
    [l1, 5],
    [l2, 3],
    [l3, 2],
  ] as const)
    expect((await putReview(app, who, A, { rating: stars, text: 'Thoughts' })).statusCode).toBeLessThan(300);
  await queryRows(app, sql`update enrolment set created_at = ${ago(40)}::timestamptz where learner_id = ${l3.id}`);
  await queryRows(app, sql`update review set created_at = ${ago(40)}::timestamptz where learner_id = ${l3.id}`);
  await queryRows(app, sql`update course_session set starts_on = ${dayFromNow(-5)} where id = ${sA}`);

  const view = (who: { cookie: string }, c: string, ua: string) =>
    get(app, `/api/courses/${c}`, { cookie: who.cookie, headers: { 'user-agent': ua } });
  for (const [who, c, ua] of [
    [l1, A, BROWSER],
    [l1, A, BROWSER],
    [l1, B, BROWSER],
    [l2, A, BROWSER],
    [l3, A, 'Googlebot/2.1 (+http://www.google.com/bot.html)'],
    [l3, A, BROWSER],
    [ctx.educator, A, BROWSER],
  ] as const)
    expect((await view(who, c, ua)).statusCode).toBe(200);
  await app.pageViews.flush();
  await queryRows(
    app,
    sql`insert into course_view_day (course_id, educator_id, day, views) values (${A}, ${ctx.educator.id}, ${dayFromNow(-35)}, 7)`,
  );

  await purchase(l1.id, A, sA, ago(3), { amount: 12000, fee: 1200, refunded: 0, currency: 'usd' });
  await purchase(l2.id, A, sA, ago(2), { amount: 12000, fee: 1200, refunded: 12000, currency: 'usd' });
  await purchase(l4.id, A, sA, ago(1), null);
  await purchase(l1.id, B, sB, ago(1), { amount: 5000, fee: 500, refunded: 1000, currency: 'gbp' });
  await purchase(l3.id, A, sA, ago(40), { amount: 9000, fee: 900, refunded: 0, currency: 'usd' });

  const res = await analyticsOf(ctx.educator, ctx.educator.id, `?from=${dayFromNow(-29)}&to=${dayFromNow(0)}`);
  expect(res.statusCode, res.body).toBe(200);
  result = res.json();
});

describe('headline figures equal the hand-computed values', () => {
  it('enrolments: 4 now (L1 A, L1 B, L2 A, L4 B), 1 before (L3)', () => {
    expect(result.figures.enrolments).toEqual({ current: 4, previous: 1 });
  });
  it('learners: 3 now (L1, L2, L4), 1 before', () => {
    expect(result.figures.learners).toEqual({ current: 3, previous: 1 });
  });
  it('revenue per currency: USD and GBP apart, net = gross - fee - refunds', () => {
    expect(result.revenue).toEqual([
      { currency: 'gbp', current: { gross: 5000, fee: 500, refunds: 1000, net: 3500 }, previous: { gross: 0, fee: 0, refunds: 0, net: 0 } },
      {
        currency: 'usd',
        current: { gross: 24000, fee: 2400, refunds: 12000, net: 9600 },
        previous: { gross: 9000, fee: 900, refunds: 0, net: 8100 },
      },
    ]);
  });
  it('average rating: (5 + 3) / 2 = 4 now, 2 before', () => {
    expect(result.figures.averageRating).toEqual({ current: 4, previous: 2 });
    expect(result.series.ratings.map((r) => r.count)).toEqual([0, 0, 1, 0, 1]);
  });
  it('fill rate: 3 seats taken of 3 in the one session that started; none before', () => {
    expect(result.figures.fillRate).toEqual({ current: 1, previous: null });
    expect(result.series.fill).toEqual([expect.objectContaining({ sessionId: sA, seatsTaken: 3, capacity: 3, fillRate: 1 })]);
  });
  it('course page views: one per viewer per day, the bot and the educator not counted', () => {
    expect(result.figures.views).toEqual({ current: 4, previous: 7 });
  });
  it('view -> checkout -> paid: 4 views, 4 checkouts, 3 paid; conversion 3/4', () => {
    expect(result.figures.checkouts).toEqual({ current: 4, previous: 1 });
    expect(result.figures.paid).toEqual({ current: 3, previous: 1 });
    expect(result.figures.conversion).toEqual({ current: 0.75, previous: 1 / 7 });
    expect(result.series.funnel.map((f) => f.count)).toEqual([4, 4, 3]);
  });
  it('drops (L4 left B) and refunds (L2 in full, L1 in part)', () => {
    expect(result.figures.drops).toEqual({ current: 1, previous: 0 });
    expect(result.figures.refunds).toEqual({ current: 2, previous: 0 });
  });
  it('waitlist demand: L4 was waiting when sA started', () => {
    expect(result.figures.waitlist).toEqual({ current: 1, previous: 0 });
  });
  it('re-enrolment rate: L1 took both courses, 1 of 3 learners', () => {
    expect(result.figures.reenrolmentRate).toEqual({ current: 1 / 3, previous: 0 });
  });
  it('the per-course table and the series add up to the figures', () => {
    const a = result.table.find((r) => r.courseId === A)!;
    const b = result.table.find((r) => r.courseId === B)!;
    expect(a).toMatchObject({ views: 3, enrolments: 2, paid: 2, fillRate: 1, ratingAvg: 4, refunds: 1 });
    expect(a.revenue).toEqual([{ currency: 'usd', gross: 24000, refunds: 12000, net: 9600 }]);
    expect(b).toMatchObject({ views: 1, enrolments: 2, paid: 1, drops: 1, refunds: 1, fillRate: null });
    expect(result.series.enrolments.reduce((n, p) => n + p.enrolments, 0)).toBe(4);
    expect(result.bucket).toBe('day');
    const net = (c: string) => result.series.revenue.filter((p) => p.currency === c).reduce((n, p) => n + p.net, 0);
    expect([net('usd'), net('gbp')]).toEqual([9600, 3500]);
  });
  it('agrees to the cent with the payment table', async () => {
    const rows = await queryRows<{ currency: string; net: number }>(
      ctx.app,
      sql`select currency, sum(amount_cents - fee_cents + fee_refunded_cents - refunded_cents)::int as net from payment
          where educator_id = ${ctx.educator.id} and paid_at >= ${dayFromNow(-29)}::date group by currency order by currency`,
    );
    expect(rows.map((r) => [r.currency, Number(r.net)])).toEqual(result.revenue.map((r) => [r.currency, r.current.net]));
  });
  it('a course filter narrows every figure to that course', async () => {
    const res = await analyticsOf(ctx.educator, ctx.educator.id, `?from=${dayFromNow(-29)}&to=${dayFromNow(0)}&course=${B}`);
    const only: AnalyticsResult = res.json();
    expect(only.figures.enrolments.current).toBe(2);
    expect(only.revenue.map((r) => r.currency)).toEqual(['gbp']);
    expect(only.table.map((r) => r.courseId)).toEqual([B]);
  });
});

describe('view to paid conversion (issue 23)', () => {
  it('is paid among those who reached the course page: never above 100 %, even with fewer views counted than sales', async () => {
    const app = ctx.app;
    const other = await makeEducator(app);
    const { courseId, sessionId } = await makePublishedCourse(app, other, { course: { title: 'Seven sales, one view' } });
    // One counted view today, then 7 paid checkouts and 1 abandoned one (the buyers' visits went uncounted).
    await queryRows(
      app,
      sql`insert into course_view_day (course_id, educator_id, day, views) values (${courseId}, ${other.id}, ${dayFromNow(0)}, 1)`,
    );
    const buyers = [...L, ctx.educator];
    for (let i = 0; i < 3; i++) buyers.push(await createSignedInUser(app, { firstName: `Buyer${i}` }));
    for (const [i, b] of buyers.entries())
      await queryRows(
        app,
        sql`insert into purchase (user_id, kind, course_id, session_id, educator_id, amount_cents, currency, fee_percent, status, created_at, fulfilled_at)
            values (${b.id}, 'course_payment', ${courseId}, ${sessionId}, ${other.id}, 1000, 'usd', 10, ${i < 7 ? 'fulfilled' : 'open'},
                    ${ago(0)}::timestamptz, ${i < 7 ? ago(0) : null}::timestamptz)`,
      );
    const res = await analyticsOf(other, other.id, `?from=${dayFromNow(-29)}&to=${dayFromNow(0)}`);
    expect(res.statusCode, res.body).toBe(200);
    const r: AnalyticsResult = res.json();
    expect(r.figures.views.current).toBe(1);
    expect(r.figures.checkouts.current).toBe(8);
    expect(r.figures.paid.current).toBe(7);
    // 7 paid of the 8 who reached the page (at least one per checkout started), not 7 / 1 = 700 %.
    expect(r.figures.conversion.current).toBe(7 / 8);
    expect(r.table.find((t) => t.courseId === courseId)?.conversion).toBe(7 / 8);
  });
});

describe('CSV exports', () => {
  it('every sale in the range, with net per sale, formula-safe', async () => {
    const res = await get(ctx.app, `/api/educator/${ctx.educator.id}/analytics/sales.csv?from=${dayFromNow(-29)}&to=${dayFromNow(0)}`, {
      cookie: ctx.educator.cookie,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('"Date (UTC)","Course","Session","Learner","Gross","Fee","Refund","Net","Currency"');
    expect(lines).toHaveLength(4);
    expect(res.body).toContain(`"Course A","${dayFromNow(-5)}","Omar",120.00,12.00,120.00,-12.00,"USD"`);
    expect(res.body).toContain('"Course B"');
    expect(res.body).toContain('50.00,5.00,10.00,35.00,"GBP"');
  });
  it('the per-course table', async () => {
    const res = await get(ctx.app, `/api/educator/${ctx.educator.id}/analytics/courses.csv`, { cookie: ctx.educator.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.body.split('\r\n')[0]).toContain('"Course","Views","Enrolments"');
    expect(res.body).toContain('"Course A",3,2,2,66.7,100.0,4.00,0,1,"USD",240.00,120.00,96.00');
  });
  it('a title starting with = is defused', async () => {
    const other = await makeEducator(ctx.app);
    await makePublishedCourse(ctx.app, other, { course: { title: '=HYPERLINK("http://x")' } });
    const res = await get(ctx.app, `/api/educator/${other.id}/analytics/courses.csv`, { cookie: other.cookie });
    expect(res.body).toContain(`"'=HYPERLINK(""http://x"")"`);
  });
});
