import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { user } from './accounts.js';
import { ts } from './columns.js';

/** A message sent with the contact form (/contact), by a visitor or a signed-in user. */
export const contactMessage = pgTable(
  'contact_message',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    topic: text('topic').notNull(),
    message: text('message').notNull(),
    /** The signed-in sender, when there was one. */
    userId: uuid('user_id').references(() => user.id, { onDelete: 'set null' }),
    /** The client address (behind TRUST_PROXY's proxies), for abuse reports. */
    ip: text('ip'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('contact_message_created_idx').on(t.createdAt),
    check('contact_message_topic_valid', sql`${t.topic} in ('question', 'feedback', 'problem', 'teaching', 'other')`),
  ],
);
