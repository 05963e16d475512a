import type { AppServices } from '../app-services.js';
import { eraseFromAttendance, moveLearnerProfileRecords } from './certificates.js';

/** Everything attendance hears, subscribed once at start-up by composition. */
export function subscribeAttendance(app: AppServices) {
  // A deleted account's marks and certificates go in the erasing transaction (ADR 0024).
  app.accountEvents.inTransaction('user.erased', (tx, e) => eraseFromAttendance(tx, e.userId));
  // A learner profile that became an account takes its marks and certificates with it (ADR 0074).
  app.accountEvents.inTransaction('learner-profile.became-account', async (tx, e) => {
    await moveLearnerProfileRecords(tx, { profileId: e.learnerProfileId, accountId: e.accountId, userId: e.userId });
  });
}
