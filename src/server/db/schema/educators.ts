import { sql } from 'drizzle-orm';
import { jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { user } from './accounts.js';
import { ts } from './columns.js';

/** An educator is a user with this record (spec section 3). */
export const educator = pgTable('educator', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  bio: text('bio'),
  profileImage: text('profile_image'),
  stripeConnectAccountId: text('stripe_connect_account_id'),
  headline: text('headline'),
  subjects: jsonb('subjects')
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  links: jsonb('links')
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  createdAt: ts('created_at').notNull().defaultNow(),
});
