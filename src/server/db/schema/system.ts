import { pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

/**
 * Set-up work finished once per database, by whichever app instance did it (seed/setup-steps.ts):
 * the demo data's steps. A step is recorded only once all its rows are written, so a start cut
 * short (a lost database, a killed process) finds the step missing and does it again (ADR 0062).
 */
export const setupStep = pgTable('setup_step', {
  name: text('name').primaryKey(),
  completedAt: ts('completed_at').notNull().defaultNow(),
});
