import { eq, or } from 'drizzle-orm';
import { message, messageReport, userBlock } from '../db/schema/mailbox.js';
import type { Tx } from '../db/transaction.js';

/**
 * A deleted account's part of the mailbox (docs/decisions/0024-erasure-reaches-every-domain.md),
 * in the erasing transaction: the text of every message they sent is removed (an empty body,
 * which no send can write, shows as "Message removed" from "Deleted user"); the other member
 * keeps the conversation, their own messages and its order. Their blocks (either way) and
 * the reports they filed go. Reports others filed about their messages stay for moderation
 * (the reporter's words), pointing at a message with no text.
 */
export async function eraseFromMailbox(tx: Tx, { userId }: { userId: string }) {
  await tx.update(message).set({ body: '' }).where(eq(message.senderId, userId));
  await tx.delete(messageReport).where(eq(messageReport.reporterId, userId));
  await tx.delete(userBlock).where(or(eq(userBlock.blockerId, userId), eq(userBlock.blockedId, userId)));
}
