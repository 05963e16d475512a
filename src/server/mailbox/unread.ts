import { sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import type { Conn } from '../db/transaction.js';
import { rowsOf } from './access.js';

/** Messages sent to `userId` after their read position, over every conversation. */
export async function unreadMessages(conn: Conn, userId: string): Promise<number> {
  const [row] = await rowsOf<{ n: number | string }>(
    conn,
    sql`select count(*) as n from conversation_member cm
        join message m on m.conversation_id = cm.conversation_id and m.id > cm.read_up_to and m.sender_id <> ${userId}
        where cm.user_id = ${userId}`,
  );
  return Number(row?.n ?? 0);
}

/**
 * Conversations of `userId` with a message they have not read: the Mailbox badge of the app
 * shell counts these (the mailbox list shows one unread row per conversation).
 */
export async function unreadConversations(conn: Conn, userId: string): Promise<number> {
  const [row] = await rowsOf<{ n: number | string }>(
    conn,
    sql`select count(*) as n from conversation_member cm
        where cm.user_id = ${userId}
          and exists (select 1 from message m where m.conversation_id = cm.conversation_id and m.id > cm.read_up_to and m.sender_id <> ${userId})`,
  );
  return Number(row?.n ?? 0);
}

export const UNREAD_MESSAGES_CHANGED = { type: 'unread.changed', counter: 'messages' } as const;

/** Tells the user's tabs that their unread-messages count changed (the badge re-reads it). */
export function publishUnreadChanged(app: AppServices, userId: string) {
  return app.realtime.publish(userId, UNREAD_MESSAGES_CHANGED);
}
