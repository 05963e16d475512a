import type { AppServices } from '../app-services.js';
import { renameEducator } from './educator-names.js';
import { eraseFromCourses } from './erasure.js';
import { refuseRemovalWithLiveSeat } from './learner-profile-seats.js';

/**
 * Everything courses hears, subscribed once at start-up by composition (src/server/composition/):
 * what accounts announce (accounts/events.ts). Accounts never import this.
 */
export function subscribeCourses(app: AppServices) {
  // A course shows (and search ranks) its educator's name: renamed with the user.
  app.accountEvents.inTransaction('user.renamed', (tx, e) => renameEducator(tx, e));
  // A deleted account's calendar feed and open places go in the erasing transaction (ADR 0024).
  app.accountEvents.inTransaction('user.erased', (tx, e) => eraseFromCourses(app, tx, e));
  // A learner profile with a live seat is not removed: its classes are dropped first (ADR 0074).
  app.accountEvents.inTransaction('learner-profile.removing', (tx, e) => refuseRemovalWithLiveSeat(tx, e));
}
