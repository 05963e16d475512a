import { check, date, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { ts } from './columns.js';
import { course } from './courses.js';

/**
 * Analytics (issue 13): course page views, counted by our own server, kept privately.
 * See docs/decisions/0021-analytics.md.
 */

/** Views of a course page per UTC day: one per viewer (the daily count the figures read). */
export const courseViewDay = pgTable(
  'course_view_day',
  {
    courseId: uuid('course_id')
      .notNull()
      .references(() => course.id, { onDelete: 'cascade' }),
    /** The course's educator, copied so an educator's views are read from one index without a join. */
    educatorId: uuid('educator_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    views: integer('views').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.courseId, t.day] }),
    // Covers the analytics read (an index-only scan of one educator's days).
    index('course_view_day_educator_idx').on(t.educatorId, t.day, t.courseId, t.views),
    check('course_view_day_views', sql`${t.views} >= 0`),
  ],
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
