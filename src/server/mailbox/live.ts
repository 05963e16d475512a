import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppServices } from '../app-services.js';
import { rowsOf } from './access.js';
import { unreadConversations } from './unread.js';

/** At most one "is typing" push per sender and recipient in this many milliseconds. */
export const TYPING_THROTTLE_MS = 2000;

const typingMessage = z.object({ to: z.uuid() });

/**
 * The mailbox's part of realtime, wired at start-up: the 'messages' unread counter of the
 * app shell's Mailbox badge (conversations with an unread message), and the client's `typing`
 * message, relayed to the other person only when the two share a conversation and neither
 * blocked the other (throttled; the throttle is per process, a hint only): a stranger's id
 * is not a way to push "someone is typing" to anyone.
 */
export function startMailboxRealtime(app: AppServices) {
  // 'messages': conversations with an unread message (the Mailbox badge; issue 23).
  app.realtime.registerUnreadCounter('messages', (userId) => unreadConversations(app.database.db, userId));

  const lastTyping = new Map<string, number>();
  app.realtime.onClientMessage('typing', async (userId, message) => {
    const parsed = typingMessage.safeParse(message);
    if (!parsed.success || parsed.data.to === userId) return;
    const to = parsed.data.to;
    const key = `${userId}>${to}`;
    const now = Date.now();
    if (now - (lastTyping.get(key) ?? 0) < TYPING_THROTTLE_MS) return;
    lastTyping.set(key, now);
    if (lastTyping.size > 10_000) for (const [k, at] of lastTyping) if (now - at > TYPING_THROTTLE_MS) lastTyping.delete(k);
    const [row] = await rowsOf<{ ok: boolean }>(
      app.database.db,
      sql`select exists (select 1 from conversation_member where user_id = ${userId} and other_user_id = ${to})
            and not exists (select 1 from user_block
              where (blocker_id = ${userId} and blocked_id = ${to}) or (blocker_id = ${to} and blocked_id = ${userId})) as ok`,
    );
    if (row?.ok) await app.realtime.publish(to, { type: 'typing', from: userId });
  });
}
