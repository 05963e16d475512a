import type { AppServices } from '../app-services.js';
import { eraseFromClassroom } from './erasure.js';

/** Everything the classroom hears, subscribed once at start-up by composition (src/server/composition/). */
export function subscribeClassroom(app: AppServices) {
  // A deleted account's replies and reports go in the erasing transaction (ADR 0024).
  app.accountEvents.inTransaction('user.erased', (tx, e) => eraseFromClassroom(tx, e));
}
