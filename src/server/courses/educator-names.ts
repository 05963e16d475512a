import { eq } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { course } from '../db/schema/courses.js';

/**
 * Courses keep a copy of their educator's name (search ranks and shows it): it changes in
 * the transaction that renames the user.
 */
export function subscribeEducatorNames(app: AppServices) {
  app.accountEvents.inTransaction('user.renamed', async (tx, e) => {
    await tx.update(course).set({ educatorName: e.name }).where(eq(course.educatorId, e.userId));
  });
}
