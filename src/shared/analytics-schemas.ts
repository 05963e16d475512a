import { z } from 'zod';

/**
 * Educator analytics (issue 13): GET /api/educator/:educatorId/analytics and its CSVs.
 * Days are UTC calendar days (YYYY-MM-DD); `from` and `to` are both included. Money is
 * in the smallest unit of its currency, never added across currencies.
 */

/** The longest range one request may ask for. */
export const ANALYTICS_MAX_DAYS = 5 * 366;

/** The query string: every field optional (default: the last 30 days, every course). */
export const analyticsQuery = z.object({
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
  course: z.string().max(60).optional(),
});
export type AnalyticsQuery = z.infer<typeof analyticsQuery>;

/** A figure now and in the previous period of the same length. */
const pair = z.object({ current: z.number().nullable(), previous: z.number().nullable() });
export type FigurePair = z.infer<typeof pair>;

const moneyFigures = z.object({ gross: z.number(), fee: z.number(), refunds: z.number(), net: z.number() });
export type MoneyFigures = z.infer<typeof moneyFigures>;

export const analyticsResult = z.object({
  educatorId: z.string(),
  /** When these figures were computed (a large catalogue's may be up to 30 s old). */
  asOf: z.string(),
  from: z.string(),
  to: z.string(),
  previousFrom: z.string(),
  previousTo: z.string(),
  /** day, week (Monday) or month: the bucket of the series, chosen by the range's length. */
  bucket: z.enum(['day', 'week', 'month']),
  course: z.string().nullable(),
  courses: z.array(z.object({ id: z.string(), title: z.string(), status: z.string() })),
  /** Anything ever happened on these courses (else the page shows its empty state). */
  hasActivity: z.boolean(),
  figures: z.object({
    enrolments: pair,
    learners: pair,
    /** Mean of the stars of reviews written in the period (null: no review). */
    averageRating: pair,
    reviews: pair,
    /** Seats taken / seats offered in sessions that started in the period (0..1, null: none started). */
    fillRate: pair,
    views: pair,
    checkouts: pair,
    paid: pair,
    /** paid / views (0..1, null without views). */
    conversion: pair,
    drops: pair,
    refunds: pair,
    /** People on the waitlist of sessions that started in the period. */
    waitlist: pair,
    /** Learners of the period who took two or more of this educator's courses (0..1). */
    reenrolmentRate: pair,
  }),
  revenue: z.array(z.object({ currency: z.string(), current: moneyFigures, previous: moneyFigures })),
  series: z.object({
    enrolments: z.array(z.object({ bucket: z.string(), enrolments: z.number() })),
    revenue: z.array(z.object({ bucket: z.string(), currency: z.string(), net: z.number(), gross: z.number() })),
    funnel: z.array(z.object({ stage: z.string(), count: z.number() })),
    ratings: z.array(z.object({ stars: z.number(), count: z.number() })),
    ratingTrend: z.array(z.object({ bucket: z.string(), average: z.number(), count: z.number() })),
    fill: z.array(
      z.object({
        sessionId: z.string(),
        courseId: z.string(),
        courseTitle: z.string(),
        startsOn: z.string(),
        seatsTaken: z.number(),
        capacity: z.number(),
        fillRate: z.number(),
        /** Present or late among the attendance marks taken in the session (0..1, null: none taken). */
        attendanceRate: z.number().nullable(),
      }),
    ),
  }),
  table: z.array(
    z.object({
      courseId: z.string(),
      title: z.string(),
      views: z.number(),
      enrolments: z.number(),
      paid: z.number(),
      conversion: z.number().nullable(),
      fillRate: z.number().nullable(),
      ratingAvg: z.number().nullable(),
      ratingCount: z.number(),
      drops: z.number(),
      refunds: z.number(),
      revenue: z.array(z.object({ currency: z.string(), gross: z.number(), refunds: z.number(), net: z.number() })),
    }),
  ),
});
export type AnalyticsResult = z.infer<typeof analyticsResult>;
export type AnalyticsCourseRow = AnalyticsResult['table'][number];
