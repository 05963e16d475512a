import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { user } from './accounts.js';
import { ts } from './columns.js';

/**
 * Notifications (src/server/notifications): what a user hears about. `data` holds the ids
 * of what it is about and the few words needed to render it (a course title, an amount),
 * so the list reads one table. A row with `in_app` false exists only to be gathered into
 * the day's digest email; the list and the unread count show in-app rows only.
 */
export const notification = pgTable(
  'notification',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    data: jsonb('data').notNull().$type<Record<string, unknown>>(),
    inApp: boolean('in_app').notNull().default(true),
    readAt: ts('read_at'),
    /** For the daily digest: when this item went out in one (null: not yet, or not for the digest). */
    digestedAt: ts('digested_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('notification_user_list_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('notification_user_unread_idx')
      .on(t.userId)
      .where(sql`read_at is null and in_app`),
  ],
);

/** A user's choice for one type; no row: the defaults (shared/notifications-schemas.ts). */
export const notificationPreference = pgTable(
  'notification_preference',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    inApp: boolean('in_app').notNull(),
    /** 'instant', 'digest' or 'off'. */
    email: text('email').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.type] })],
);
