import { eq } from 'drizzle-orm';
import { notification, notificationPreference } from '../db/schema/notifications.js';
import type { Tx } from '../db/transaction.js';
import { unscheduleJobsOfUser } from '../jobs/queue.js';

/**
 * A deleted account's notifications, its preferences and the emails queued for it go in
 * the erasing transaction (docs/decisions/0024-erasure-reaches-every-domain.md).
 * Heard after every other domain's erasure (composition subscribes notifications last), so what those
 * announce to the erased user themself is gone too.
 */
export async function eraseFromNotifications(tx: Tx, { userId }: { userId: string }) {
  await tx.delete(notification).where(eq(notification.userId, userId));
  await tx.delete(notificationPreference).where(eq(notificationPreference.userId, userId));
  await unscheduleJobsOfUser(tx, userId);
}
