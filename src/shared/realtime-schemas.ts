import { z } from 'zod';

/**
 * GET /api/me/unread: the app shell's badge. `counts` has one entry per registered counter
 * ('messages' from the mailbox, 'notifications' ...); `total` is their sum.
 */
export const unreadResponse = z.object({
  counts: z.record(z.string(), z.number().int().min(0)),
  total: z.number().int().min(0),
});
export type UnreadCounts = z.infer<typeof unreadResponse>;
