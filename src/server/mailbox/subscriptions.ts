import type { AppServices } from '../app-services.js';
import { eraseFromMailbox } from './erasure.js';
import { startMailboxRealtime } from './live.js';

/**
 * Everything the mailbox hears, subscribed once at start-up by composition
 * (src/server/composition/): what accounts announce, and what the realtime hub asks of it.
 */
export function subscribeMailbox(app: AppServices) {
  // A deleted account's messages lose their text, its blocks and reports go (ADR 0024).
  app.accountEvents.inTransaction('user.erased', (tx, e) => eraseFromMailbox(tx, e));
  // The 'messages' unread counter of the app shell's badge, and the client's `typing` message (live.ts).
  startMailboxRealtime(app);
}
