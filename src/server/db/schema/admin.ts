import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

/**
 * Every admin action (src/server/admin), written in the transaction of the action.
 * Append-only: a trigger refuses UPDATE and DELETE (docs/decisions/0014-admin-console.md).
 * No foreign keys: a row must outlive the users it names (a deleted user is pseudonymised).
 */
export const adminAudit = pgTable(
  'admin_audit',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    adminId: uuid('admin_id').notNull(),
    action: text('action').notNull(),
    /** The user (or job, or purchase) acted on. */
    targetId: text('target_id'),
    reason: text('reason'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('admin_audit_created_idx').on(t.createdAt)],
);
