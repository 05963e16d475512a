import { and, eq, sql } from 'drizzle-orm';
import { course } from '../db/schema/courses.js';
import type { Conn } from '../db/transaction.js';

/** A course as payments read it. */
export type CourseRow = typeof course.$inferSelect;

/** The payment provider's product id of a course, if any (payments keep it on the course, ADR 0035). */
export async function courseProductIdOf(conn: Conn, courseId: string): Promise<string | null> {
  const [row] = await conn.select({ id: course.stripeProductId }).from(course).where(eq(course.id, courseId)).limit(1);
  return row?.id ?? null;
}

/** Stores the product id unless one is stored already; answers the one stored. */
export async function keepCourseProductId(conn: Conn, courseId: string, productId: string): Promise<string> {
  await conn
    .update(course)
    .set({ stripeProductId: productId })
    .where(and(eq(course.id, courseId), sql`${course.stripeProductId} is null`));
  return (await courseProductIdOf(conn, courseId)) ?? productId;
}
