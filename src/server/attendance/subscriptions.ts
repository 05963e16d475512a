import type { AppServices } from '../app-services.js';
import { eraseFromAttendance } from './certificates.js';

/** Everything attendance hears, subscribed once at start-up by composition. */
export function subscribeAttendance(app: AppServices) {
  // A deleted account's marks and certificates go in the erasing transaction (ADR 0024).
  app.accountEvents.inTransaction('user.erased', (tx, e) => eraseFromAttendance(tx, e.userId));
}
