import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from './accounts.js';
import { course, courseSession } from './courses.js';
import { ts } from './columns.js';

/**
 * The classroom of a course session (docs/decisions/0072-classroom.md): the educator's posts
 * (Markdown, links, files, pinned first), learners' replies under them, files kept in the
 * file store, learners whose access the educator removed, and reports of posts. Who may read
 * it is decided on every request from the roster (courses) and `classroom_removal`.
 */

/** A link shown under a post: where it goes and what it says. */
export type ClassroomLink = { url: string; label: string };

export const classroomPost = pgTable(
  'classroom_post',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    courseId: uuid('course_id')
      .notNull()
      .references(() => course.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => courseSession.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** Markdown, shown by the safe renderer (web/components/markdown.tsx). */
    body: text('body').notNull(),
    links: jsonb('links').$type<ClassroomLink[]>().notNull().default([]),
    pinned: boolean('pinned').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('classroom_post_session_idx').on(t.sessionId, t.pinned.desc(), t.createdAt.desc(), t.id.desc())],
);

export const classroomReply = pgTable(
  'classroom_reply',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    postId: uuid('post_id')
      .notNull()
      .references(() => classroomPost.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    /** Set when the educator hid the reply: learners no longer see it. */
    hiddenAt: ts('hidden_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('classroom_reply_post_idx').on(t.postId, t.createdAt)],
);

/** A file uploaded by the educator; `post_id` is null until a post takes it. */
export const classroomFile = pgTable(
  'classroom_file',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => courseSession.id, { onDelete: 'cascade' }),
    postId: uuid('post_id').references(() => classroomPost.id, { onDelete: 'cascade' }),
    uploaderId: uuid('uploader_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** The file store's key (storage/keys.ts), made by the server. */
    storageKey: text('storage_key').notNull(),
    /** The uploader's file name, cleaned (shown and offered as the download's name). */
    name: text('name').notNull(),
    /** What the content was found to be (never the uploader's claim). */
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('classroom_file_post_idx').on(t.postId), index('classroom_file_session_idx').on(t.sessionId)],
);

/** A learner the educator removed from the classroom (deleted when access is given back). */
export const classroomRemoval = pgTable(
  'classroom_removal',
  {
    sessionId: uuid('session_id')
      .notNull()
      .references(() => courseSession.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    removedAt: ts('removed_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.userId] })],
);

export const classroomReport = pgTable(
  'classroom_report',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    postId: uuid('post_id')
      .notNull()
      .references(() => classroomPost.id, { onDelete: 'cascade' }),
    reporterId: uuid('reporter_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('classroom_report_once').on(t.postId, t.reporterId),
    index('classroom_report_reporter_idx').on(t.reporterId),
    check('classroom_report_reason', sql`length(${t.reason}) between 1 and 500`),
  ],
);

/**
 * A classroom's version: bumped in every write that changes its posts (a post, reply, pin,
 * hidden reply, report). The page's shared part is kept by each process and used while the
 * version it was made at is still this one (classroom/view.ts), so every instance agrees.
 */
export const classroomVersion = pgTable('classroom_version', {
  sessionId: uuid('session_id')
    .primaryKey()
    .references(() => courseSession.id, { onDelete: 'cascade' }),
  version: bigint('version', { mode: 'number' }).notNull().default(1),
});
