import { sql, type SQL } from 'drizzle-orm';

/**
 * What payments publish of their tables for the other domains' SQL (ADR 0035): relations to
 * name in a FROM with an alias. Plain subqueries, so PostgreSQL inlines them and the caller's
 * conditions reach the tables' indexes: the plan is that of the statement written on the tables.
 */

/**
 * The payments of an educator's course purchases (platform plans aside), one row each: the
 * course and session bought, the payer, when it was paid, its currency and its amounts in cents.
 */
export function educatorCoursePayments(educatorId: string): SQL {
  return sql`(select p.id, pu.course_id, pu.session_id, p.user_id, p.paid_at, p.currency,
      p.amount_cents, p.fee_cents, p.fee_refunded_cents, p.refunded_cents
    from payment p join purchase pu on pu.id = p.purchase_id
    where p.educator_id = ${educatorId} and pu.kind <> 'plan')`;
}

/** The checkouts of an educator's courses (platform plans aside): the course, when it started, when it was paid (null: never). */
export function educatorCourseCheckouts(educatorId: string): SQL {
  return sql`(select pu.course_id, pu.created_at, pu.fulfilled_at from purchase pu where pu.educator_id = ${educatorId} and pu.kind <> 'plan')`;
}
