import { eq } from 'drizzle-orm';
import { course } from '../db/schema/courses.js';
import type { Tx } from '../db/transaction.js';

/**
 * Courses keep a copy of their educator's name (search ranks and shows it): it changes in
 * the transaction that renames the user (accounts' `user.renamed`, subscriptions.ts).
 */
export async function renameEducator(tx: Tx, e: { userId: string; name: string }) {
  await tx.update(course).set({ educatorName: e.name }).where(eq(course.educatorId, e.userId));
}
