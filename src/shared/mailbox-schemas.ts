import { z } from 'zod';
import { str } from './input-schemas.js';

/** Requests and answers of the mailbox API (/api/mailbox/...): conversations, their pages, blocks, reports. */

export const MESSAGE_MAX_CHARS = 5000;
export const THREAD_PAGE_DEFAULT = 50;
export const THREAD_PAGE_MAX = 100;
export const CANT_MESSAGE = "You can't message this person.";
/**
 * What a message of a deleted account shows: its text is erased (an empty body, which no
 * send can write) and its sender is "Deleted user" (docs/decisions/0024-erasure-reaches-every-domain.md).
 */
export const ERASED_MESSAGE = 'Message removed: its sender deleted their account';

/** A message id: the conversation's cursor (a positive whole number, sent as a string). */
export const messageIdString = z
  .string({ error: 'Message id is required' })
  .regex(/^[1-9]\d{0,14}$/, 'Must be a message id (a positive whole number)');

export const personParams = z.object({ userId: z.uuid('Unknown user') });
export const messageParams = z.object({ messageId: messageIdString });

export const mailboxPerson = z.object({ id: z.string(), name: z.string(), profileImage: z.string() });
export type MailboxPerson = z.infer<typeof mailboxPerson>;

export const CONVERSATIONS_PAGE_DEFAULT = 30;
export const CONVERSATIONS_PAGE_MAX = 100;

export const conversationsQuery = z.object({
  q: str().trim().max(200, 'Search at most 200 characters').optional(),
  /** The `nextCursor` of the previous page: conversations whose last message is older than it. */
  cursor: messageIdString.optional(),
  limit: z.coerce
    .number({ error: 'Limit must be a number' })
    .int('Limit must be a whole number')
    .min(1, 'Limit must be at least 1')
    .max(CONVERSATIONS_PAGE_MAX, `Limit must be at most ${CONVERSATIONS_PAGE_MAX}`)
    .optional(),
});

export const conversationSummary = z.object({
  with: mailboxPerson,
  lastMessage: z.object({ id: z.string(), preview: z.string(), fromMe: z.boolean(), createdAt: z.string() }).nullable(),
  unread: z.number().int(),
});
export type ConversationSummary = z.infer<typeof conversationSummary>;
export const conversationList = z.object({
  items: z.array(conversationSummary),
  /** Where the next page starts (pass it as `cursor`), or null on the last page. */
  nextCursor: z.string().nullable(),
});
export type ConversationList = z.infer<typeof conversationList>;

export const conversationPageQuery = z
  .object({
    before: messageIdString.optional(),
    after: messageIdString.optional(),
    limit: z.coerce
      .number({ error: 'Limit must be a number' })
      .int('Limit must be a whole number')
      .min(1, 'Limit must be at least 1')
      .max(THREAD_PAGE_MAX, `Limit must be at most ${THREAD_PAGE_MAX}`)
      .optional(),
  })
  .refine((q) => !(q.before && q.after), { path: ['after'], message: 'Give before or after, not both' });

export const mailboxMessage = z.object({
  id: z.string(),
  senderId: z.string(),
  body: z.string(),
  clientId: z.string(),
  createdAt: z.string(),
});
export type MailboxMessage = z.infer<typeof mailboxMessage>;

export const conversationPage = z.object({
  with: mailboxPerson,
  /** False when either side blocked the other (the blocked side is not told which). */
  canMessage: z.boolean(),
  /** The viewer blocked this person (they may unblock). */
  blockedByMe: z.boolean(),
  /** Oldest first. */
  messages: z.array(mailboxMessage),
  /** More messages exist before the first one returned (load them with `before`). */
  hasOlder: z.boolean(),
  /** More messages exist after the last one returned (with `after`: keep reading). */
  hasNewer: z.boolean(),
  /** The id of the newest of the viewer's messages the other person has read ("0": none). */
  theirReadUpTo: z.string(),
});
export type ConversationPage = z.infer<typeof conversationPage>;

export const sendMessageInput = z.object({
  body: str({ error: 'Write a message' })
    .trim()
    .min(1, 'Write a message')
    .max(MESSAGE_MAX_CHARS, `A message can be at most ${MESSAGE_MAX_CHARS.toLocaleString('en')} characters`),
  clientId: z.uuid('clientId must be a UUID'),
});
export type SendMessageInput = z.infer<typeof sendMessageInput>;
export const sentMessage = z.object({ message: mailboxMessage });

export const markReadInput = z.object({ upTo: messageIdString.optional() }).nullish();
export const markReadAnswer = z.object({ readUpTo: z.string(), unread: z.number().int() });

export const blockList = z.object({ items: z.array(z.object({ user: mailboxPerson, blockedAt: z.string() })) });
export type BlockList = z.infer<typeof blockList>;

export const REPORT_REASON_MAX = 1000;
export const reportInput = z.object({
  reason: str({ error: 'Say why you report this message' })
    .trim()
    .min(3, 'Say why you report this message (at least 3 characters)')
    .max(REPORT_REASON_MAX, `At most ${REPORT_REASON_MAX} characters`),
});

export const ok = z.object({ ok: z.literal(true), message: z.string() });
