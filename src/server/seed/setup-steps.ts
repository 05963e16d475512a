import { eq, like } from 'drizzle-orm';
import { setupStep } from '../db/schema/system.js';
import type { Conn } from '../db/transaction.js';

/** Whether a set-up step is recorded as finished in this database. */
export async function stepDone(db: Conn, name: string): Promise<boolean> {
  const [row] = await db.select({ name: setupStep.name }).from(setupStep).where(eq(setupStep.name, name)).limit(1);
  return !!row;
}

/** Whether any step whose name starts with `prefix` is recorded. */
export async function anyStepDone(db: Conn, prefix: string): Promise<boolean> {
  const [row] = await db
    .select({ name: setupStep.name })
    .from(setupStep)
    .where(like(setupStep.name, `${prefix}%`))
    .limit(1);
  return !!row;
}

/** Records a step as finished (once all its rows are written; again is harmless). */
export async function markStepDone(db: Conn, name: string): Promise<void> {
  await db.insert(setupStep).values({ name }).onConflictDoNothing();
}
