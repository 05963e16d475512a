import { and, count, eq, isNull, ne, sql } from 'drizzle-orm';
import {
  NOTIFICATION_TYPES,
  type NotificationList,
  type NotificationListQuery,
  type NotificationType,
  type NotificationView,
} from '../../shared/notifications-schemas.js';
import type { Viewer } from '../accounts/viewer.js';
import type { AppServices } from '../app-services.js';
import { notification } from '../db/schema/notifications.js';
import { rowsOf, type Conn } from '../db/transaction.js';
import { AppError } from '../http/errors.js';
import { markRead as readConversation } from '../mailbox/conversations.js';
import { readConversationNotice, unreadConversationNotices } from '../mailbox/unread-notices.js';
import { preferenceOf } from './preferences.js';
import { render, type NotificationData } from './render.js';

/** A notification as the list reads it: a stored row, or a derived "new message" entry (mailbox/unread-notices.ts). */
interface Row {
  id: string;
  type: string;
  data: NotificationData;
  read_at: string | Date | null;
  created_at: string | Date;
}

const iso = (t: string | Date) => new Date(t).toISOString();

/** A notification as its reader sees it: times in the reader's own zone (`readerZone`, when set). */
function present(row: Row, readerZone: string | null = null): NotificationView {
  const type = (NOTIFICATION_TYPES as readonly string[]).includes(row.type) ? (row.type as NotificationType) : 'enrolled';
  return { id: row.id, type, ...render(type, row.data, readerZone), read: row.read_at !== null, createdAt: iso(row.created_at) };
}

const mine = (userId: string) => and(eq(notification.userId, userId), eq(notification.inApp, true));

/** The stored notifications of the list (a new message's entry is derived, never stored in-app). */
const stored = (userId: string, unreadOnly: boolean) => sql`
  select n.id, n.type, n.data, n.read_at, n.created_at from notification n
  where n.user_id = ${userId} and n.in_app ${unreadOnly ? sql`and n.read_at is null` : sql``}`;

/** Whether the user sees new messages in the list (their preference for the type). */
const seesMessages = async (conn: Conn, userId: string) => (await preferenceOf(conn, userId, 'new_message')).inApp;

/**
 * How many of the user's notifications are unread. `besideMessages` (the app shell's badge,
 * which counts messages itself): the stored ones only, so a new message counts once.
 */
export async function unreadNotifications(conn: Conn, userId: string, options: { besideMessages?: boolean } = {}): Promise<number> {
  const [{ n }] = await conn
    .select({ n: count() })
    .from(notification)
    .where(and(mine(userId), isNull(notification.readAt), ne(notification.type, 'new_message')));
  if (options.besideMessages || !(await seesMessages(conn, userId))) return n;
  const [derived] = await rowsOf<{ n: number }>(conn, sql`select count(*)::int as n from (${unreadConversationNotices(userId)}) d`);
  return n + derived.n;
}

/**
 * The list's unread count, and how many of those are the Mailbox's unread conversations (the
 * bell counts the rest: the two counts are kept apart, and the page says both).
 */
async function unreadSplit(conn: Conn, userId: string): Promise<{ unreadCount: number; unreadConversations: number }> {
  const [all, beside] = await Promise.all([unreadNotifications(conn, userId), unreadNotifications(conn, userId, { besideMessages: true })]);
  return { unreadCount: all, unreadConversations: all - beside };
}

/**
 * The viewer's notifications, newest first, a page at a time (cursor: the last one's time
 * and id): the stored ones and the derived new-message entries in one statement.
 */
export async function listNotifications(app: AppServices, viewer: Viewer, query: NotificationListQuery): Promise<NotificationList> {
  const db = app.database.db;
  const userId = viewer.user.id;
  let after = sql`true`;
  if (query.cursor) {
    const [at, id] = query.cursor.split('_');
    const time = new Date(at);
    if (Number.isNaN(time.getTime()) || !/^[0-9a-f-]{36}$/i.test(id ?? '')) {
      throw AppError.badRequest('cursor is not one this list gave', { cursor: 'Start the list again' });
    }
    after = sql`(x.created_at, x.id) < (${time.toISOString()}::timestamptz, ${id}::uuid)`;
  }
  const unreadOnly = query.unread === 'true';
  const sources = (await seesMessages(db, userId))
    ? sql`${stored(userId, unreadOnly)} union all ${unreadConversationNotices(userId)}`
    : stored(userId, unreadOnly);
  const rows = await rowsOf<Row>(
    db,
    sql`select * from (${sources}) x where ${after} order by x.created_at desc, x.id desc limit ${query.limit + 1}`,
  );
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    notifications: page.map((row) => present(row, viewer.user.timeZone)),
    nextCursor: rows.length > query.limit && last ? `${iso(last.created_at)}_${last.id}` : null,
    ...(await unreadSplit(db, userId)),
  };
}

/** A stored notification of the viewer's, or the new-message entry of one of their conversations (read or not). */
async function findOne(conn: Conn, userId: string, id: string): Promise<Row | undefined> {
  const [row] = await rowsOf<Row>(conn, sql`${stored(userId, false)} and n.id = ${id}`);
  if (row) return row;
  const [unread] = await rowsOf<Row>(conn, unreadConversationNotices(userId, id));
  if (unread) return unread;
  const [read] = await rowsOf<Row>(conn, readConversationNotice(userId, id));
  return read;
}

/** One notification of the viewer's; anyone else's is not found. */
export async function readNotification(app: AppServices, viewer: Viewer, notificationId: string): Promise<NotificationView> {
  const row = await findOne(app.database.db, viewer.user.id, notificationId);
  if (!row) throw AppError.notFound('This notification does not exist');
  return present(row, viewer.user.timeZone);
}

/** Marks one of the viewer's notifications read (again: no change); a new-message entry reads its conversation. */
export async function markRead(app: AppServices, viewer: Viewer, notificationId: string): Promise<NotificationView> {
  const db = app.database.db;
  const [row] = await rowsOf<Row>(
    db,
    sql`update notification set read_at = coalesce(read_at, now())
        where id = ${notificationId} and user_id = ${viewer.user.id} and in_app
        returning id, type, data, read_at, created_at`,
  );
  if (row) {
    await app.realtime.publish(viewer.user.id, { type: 'unread.changed', counter: 'notifications' });
    return present(row, viewer.user.timeZone);
  }
  const entry = await findOne(db, viewer.user.id, notificationId);
  if (!entry) throw AppError.notFound('This notification does not exist');
  // The conversation's entry: read the conversation up to its newest message (read receipts and badges follow).
  if (!entry.read_at) await readConversation(app, viewer, String(entry.data.senderId));
  return present((await findOne(db, viewer.user.id, notificationId)) ?? entry, viewer.user.timeZone);
}

/** Marks every notification of the viewer read, the conversations behind new-message entries too. */
export async function markAllRead(app: AppServices, viewer: Viewer): Promise<{ marked: number }> {
  const db = app.database.db;
  const rows = await db
    .update(notification)
    .set({ readAt: sql`now()` })
    .where(and(mine(viewer.user.id), isNull(notification.readAt)))
    .returning({ id: notification.id });
  if (rows.length) await app.realtime.publish(viewer.user.id, { type: 'unread.changed', counter: 'notifications' });
  let conversations = 0;
  if (await seesMessages(db, viewer.user.id)) {
    for (const entry of await rowsOf<Row>(db, unreadConversationNotices(viewer.user.id))) {
      await readConversation(app, viewer, String(entry.data.senderId));
      conversations++;
    }
  }
  return { marked: rows.length + conversations };
}
