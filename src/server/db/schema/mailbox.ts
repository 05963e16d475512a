import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, pgTable, primaryKey, text, unique, uuid } from 'drizzle-orm/pg-core';
import { user } from './accounts.js';
import { ts } from './columns.js';

/**
 * The mailbox (issue 10): one conversation per pair of users, its messages in a monotonic
 * order (a bigserial id is the cursor), each member's read position, blocks and reports.
 */

/** Two users' conversation: one row per pair, the lower id first (user_low < user_high). */
export const conversation = pgTable(
  'conversation',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userLow: uuid('user_low')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    userHigh: uuid('user_high')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [unique('conversation_pair_key').on(t.userLow, t.userHigh), check('conversation_pair_order', sql`${t.userLow} < ${t.userHigh}`)],
);

/** A member of a conversation (two per conversation): who the other is, how far they read. */
export const conversationMember = pgTable(
  'conversation_member',
  {
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversation.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    otherUserId: uuid('other_user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** The id of the newest message this member has read (0: none). */
    readUpTo: bigint('read_up_to', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.otherUserId] }), unique('conversation_member_once_key').on(t.conversationId, t.userId)],
);

/** A message. `client_id` (the sender's uuid for the send) makes a retried send idempotent. */
export const message = pgTable(
  'message',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversation.id, { onDelete: 'cascade' }),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    clientId: uuid('client_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    unique('message_sender_client_key').on(t.senderId, t.clientId),
    index('message_conversation_idx').on(t.conversationId, t.id),
    /** The send rate: a sender's messages of the last minute. */
    index('message_sender_time_idx').on(t.senderId, t.createdAt),
    index('message_body_trgm_idx').using('gin', sql`${t.body} gin_trgm_ops`),
  ],
);

/** `blocker` blocked `blocked`: no messages either way until unblocked. */
export const userBlock = pgTable(
  'user_block',
  {
    blockerId: uuid('blocker_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    blockedId: uuid('blocked_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), index('user_block_blocked_idx').on(t.blockedId)],
);

/** A member's report of a message they received (kept for the admin console). */
export const messageReport = pgTable(
  'message_report',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    messageId: bigint('message_id', { mode: 'number' })
      .notNull()
      .references(() => message.id, { onDelete: 'cascade' }),
    reporterId: uuid('reporter_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [unique('message_report_once_key').on(t.messageId, t.reporterId), index('message_report_created_idx').on(t.createdAt)],
);
