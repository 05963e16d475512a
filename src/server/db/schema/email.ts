import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

/** Every email the app sends; with no SMTP_URL this is the local outbox. */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    /** Extra headers the message carried (List-Unsubscribe of a notification email). */
    headers: jsonb('headers').$type<Record<string, string>>(),
    /** The calendar invitation the email carried (text/calendar, ADR 0068). */
    icalEvent: jsonb('ical_event').$type<{ method: string; content: string }>(),
    /** 'outbox' (kept locally) or 'smtp' (handed to the SMTP server). */
    transport: text('transport').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('email_outbox_created_at_idx').on(t.createdAt)],
);
