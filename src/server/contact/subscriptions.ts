import type { AppServices } from '../app-services.js';
import { eraseFromContact } from './erasure.js';

/** Everything contact hears, subscribed once at start-up by composition (src/server/composition/). */
export function subscribeContact(app: AppServices) {
  // A deleted account's contact-form messages go in the erasing transaction (ADR 0024).
  app.accountEvents.inTransaction('user.erased', (tx, e) => eraseFromContact(tx, e));
}
