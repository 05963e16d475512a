import { sql } from 'drizzle-orm';
import { people } from '../accounts/people.js';
import type { AppServices } from '../app-services.js';
import { rowsOf } from './access.js';

/**
 * "Still unread" (ADR 0029): a message unread after a delay is announced once per
 * conversation (`message.unread`; notifications email it per the recipient's preference),
 * never once per message. The send statement itself stores the keyed job (one per
 * recipient and sender while one is queued: later messages join it), so the reminder is as
 * durable as the message.
 */
export const UNREAD_REMINDER_JOB = 'mailbox.unread-reminder';

/** How long a new message waits unread before it is announced as still unread. */
export const UNREAD_REMINDER_DELAY_SECONDS = 10 * 60;

/** The reminder's key: one queued per recipient and sender. */
export const UNREAD_REMINDER_KEY_PREFIX = 'unread-message:';
export const unreadReminderKey = (recipientId: string, senderId: string) => `${UNREAD_REMINDER_KEY_PREFIX}${recipientId}:${senderId}`;

interface Unread {
  n: number | string;
  message_id: string | null;
  body: string | null;
  sender_name: string | null;
}

/** Registers the reminder's job (at start-up, in every process). */
export function registerUnreadReminder(app: AppServices) {
  app.jobs.register(UNREAD_REMINDER_JOB, async (payload) => {
    const { recipientId, senderId } = payload as { recipientId: string; senderId: string };
    const db = app.database.db;
    const [row] = await rowsOf<Unread>(
      db,
      sql`select count(m.id) as n, max(m.id) as message_id,
            (select body from message where id = max(m.id)) as body,
            (select trim(first_name || ' ' || last_name) from ${people} u where id = ${senderId}) as sender_name
          from conversation_member cm
          join message m on m.conversation_id = cm.conversation_id and m.id > cm.read_up_to and m.sender_id = ${senderId}
          where cm.user_id = ${recipientId} and cm.other_user_id = ${senderId}`,
    );
    const count = Number(row?.n ?? 0);
    // Read meanwhile (the conversation opened, or its notice marked read): nothing to tell.
    if (!count || !row.message_id) return;
    await app.mailboxEvents.announceCommitted(db, 'message.unread', {
      recipientId,
      senderId,
      senderName: row.sender_name || 'A learner',
      messageId: String(row.message_id),
      body: row.body ?? '',
      count,
    });
  });
}
