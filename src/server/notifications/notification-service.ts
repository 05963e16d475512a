import { and, count, desc, eq, isNull, ne, sql } from 'drizzle-orm';
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
import type { Conn } from '../db/transaction.js';
import { AppError } from '../http/errors.js';
import { render } from './render.js';

type Row = typeof notification.$inferSelect;

function present(row: Row): NotificationView {
  const type = (NOTIFICATION_TYPES as readonly string[]).includes(row.type) ? (row.type as NotificationType) : 'enrolled';
  return { id: row.id, type, ...render(type, row.data), read: row.readAt !== null, createdAt: row.createdAt.toISOString() };
}

const mine = (userId: string) => and(eq(notification.userId, userId), eq(notification.inApp, true));

/** How many of the user's notifications are unread (the app shell's badge). */
export async function unreadNotifications(conn: Conn, userId: string, options: { besideMessages?: boolean } = {}): Promise<number> {
  const [{ n }] = await conn
    .select({ n: count() })
    .from(notification)
    .where(
      and(
        mine(userId),
        isNull(notification.readAt),
        // Beside the mailbox's own count (the app shell's badge), a new message is counted once: as a message.
        options.besideMessages ? ne(notification.type, 'new_message') : undefined,
      ),
    );
  return n;
}

/** The viewer's notifications, newest first, a page at a time (cursor: the last one's time and id). */
export async function listNotifications(app: AppServices, viewer: Viewer, query: NotificationListQuery): Promise<NotificationList> {
  const db = app.database.db;
  const userId = viewer.user.id;
  let after = sql`true`;
  if (query.cursor) {
    const [at, id] = query.cursor.split('_');
    const time = new Date(at);
    if (Number.isNaN(time.getTime())) throw AppError.badRequest('cursor is not one this list gave', { cursor: 'Start the list again' });
    after = sql`(${notification.createdAt}, ${notification.id}) < (${time.toISOString()}::timestamptz, ${id}::uuid)`;
  }
  const rows = await db
    .select()
    .from(notification)
    .where(and(mine(userId), query.unread === 'true' ? isNull(notification.readAt) : undefined, after))
    .orderBy(desc(notification.createdAt), desc(notification.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    notifications: page.map(present),
    nextCursor: rows.length > query.limit && last ? `${last.createdAt.toISOString()}_${last.id}` : null,
    unreadCount: await unreadNotifications(db, userId),
  };
}

/** One notification of the viewer's; anyone else's is not found. */
export async function readNotification(app: AppServices, viewer: Viewer, notificationId: string): Promise<NotificationView> {
  const [row] = await app.database.db
    .select()
    .from(notification)
    .where(and(eq(notification.id, notificationId), mine(viewer.user.id)))
    .limit(1);
  if (!row) throw AppError.notFound('This notification does not exist');
  return present(row);
}

/** Marks one of the viewer's notifications read (again: no change). */
export async function markRead(app: AppServices, viewer: Viewer, notificationId: string): Promise<NotificationView> {
  const db = app.database.db;
  const [row] = await db
    .update(notification)
    .set({ readAt: sql`coalesce(${notification.readAt}, now())` })
    .where(and(eq(notification.id, notificationId), mine(viewer.user.id)))
    .returning();
  if (!row) throw AppError.notFound('This notification does not exist');
  await app.realtime.publish(viewer.user.id, { type: 'unread.changed', counter: 'notifications' });
  return present(row);
}

/** Marks every notification of the viewer read. */
export async function markAllRead(app: AppServices, viewer: Viewer): Promise<{ marked: number }> {
  const rows = await app.database.db
    .update(notification)
    .set({ readAt: sql`now()` })
    .where(and(mine(viewer.user.id), isNull(notification.readAt)))
    .returning({ id: notification.id });
  if (rows.length) await app.realtime.publish(viewer.user.id, { type: 'unread.changed', counter: 'notifications' });
  return { marked: rows.length };
}
