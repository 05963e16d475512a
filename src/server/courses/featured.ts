import { eq } from 'drizzle-orm';
import { featuredEducator } from '../db/schema/courses.js';
import type { Conn } from '../db/transaction.js';

/**
 * Featured placement on /explore: the upcoming courses of the educators in
 * featured_educator get a shelf of their own (explore-service.ts). Courses owns the
 * placement and does not know why an educator has it: payments, above, grants it with
 * Educator Pro and takes it back when the plan ends, calling these in the transaction that
 * changes the plan (docs/decisions/0037-fees-from-config-and-featured-shelf.md).
 */
export async function setFeatured(conn: Conn, educatorId: string, featured: boolean): Promise<void> {
  if (featured) await conn.insert(featuredEducator).values({ educatorId }).onConflictDoNothing();
  else await conn.delete(featuredEducator).where(eq(featuredEducator.educatorId, educatorId));
}
