import { eq } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { notification, notificationPreference } from '../db/schema/notifications.js';
import { unscheduleJobsOfUser } from '../jobs/queue.js';

/**
 * A deleted account's notifications, its preferences and the emails queued for it go in
 * the erasing transaction (docs/decisions/0024-erasure-reaches-every-domain.md).
 * Subscribed after every other domain's erasure (routes load in layer order), so what those
 * announce to the erased user themself is gone too.
 */
export function subscribeNotificationErasure(app: AppServices) {
  app.accountEvents.inTransaction('user.erased', async (tx, { userId }) => {
    await tx.delete(notification).where(eq(notification.userId, userId));
    await tx.delete(notificationPreference).where(eq(notificationPreference.userId, userId));
    await unscheduleJobsOfUser(tx, userId);
  });
}
