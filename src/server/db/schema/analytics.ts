import { check, date, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { ts } from './columns.js';
import { course } from './courses.js';

/**
 * Analytics (issue 13): course page views, counted by our own server, kept privately.
 * See docs/decisions/0015-analytics-page-views-and-figures.md.
 */

/** Views of a course page per UTC day: one per viewer (the daily count the figures read). */
export const courseViewDay = pgTable(
  'course_view_day',
  {
    courseId: uuid('course_id')
      .notNull()
      .references(() => course.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    views: integer('views').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.courseId, t.day] }), check('course_view_day_views', sql`${t.views} >= 0`)],
);

/**
 * Who has been counted today, so a viewer counts once per course per day. The key is a
 * hash of (today's salt, user id or IP + user agent): without the salt, which is deleted
 * with the day, it cannot be tied back to anyone. Rows of past days are deleted.
 */
export const courseViewSeen = pgTable(
  'course_view_seen',
  {
    courseId: uuid('course_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    viewerKey: text('viewer_key').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.courseId, t.viewerKey] })],
);

/** The salt of today's viewer keys, shared by every app process; deleted once the day is over. */
export const courseViewSalt = pgTable('course_view_salt', {
  day: date('day', { mode: 'string' }).primaryKey(),
  salt: text('salt').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});
