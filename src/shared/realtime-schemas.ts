import { z } from 'zod';

/**
 * GET /api/me/unread: the app shell's counts. `counts` has one entry per registered counter
 * ('messages' from the mailbox: conversations with an unread message, on the Mailbox badge;
 * 'notifications': on the bell); `total` is their sum (the document title).
 */
export const unreadResponse = z.object({
  counts: z.record(z.string(), z.number().int().min(0)),
  total: z.number().int().min(0),
});
export type UnreadCounts = z.infer<typeof unreadResponse>;
