import type { AppServices } from '../app-services.js';
import type { DropRefundPreview } from '../../shared/payments-schemas.js';
import type { Viewer } from '../accounts/viewer.js';
import { droppableEnrolmentOf } from '../courses/course-records.js';
import { AppError } from '../http/errors.js';
import { dropRefundFor } from './refund-plans.js';
import { seatDropRefundFor } from './family-seats.js';

/**
 * GET /api/courses/:courseId/sessions/:sessionId/drop-refund: what dropping would refund
 * the caller now, computed by the code the drop itself runs (dropRefundFor), so the
 * figure on the drop page is the amount refunded.
 */
export async function dropRefundPreview(
  app: AppServices,
  viewer: Viewer,
  courseId: string,
  sessionId: string,
  /** One of the account's learners (ADR 0074): a profile id, or `me` / none for the holder's own seat. */
  learnerId?: string,
): Promise<DropRefundPreview> {
  const db = app.database.db;
  const learnerProfileId = learnerId && learnerId !== 'me' ? learnerId : null;
  // Another account's learner profile finds no enrolment of this account: the same 404.
  const row = await droppableEnrolmentOf(db, { courseId, sessionId, learnerId: viewer.user.id, learnerProfileId });
  if (!row)
    throw AppError.notFound(learnerProfileId ? 'This learner is not enrolled in this session' : 'You are not enrolled in this session');
  // One learner of a family purchase: that seat's part (family-seats.ts); else the purchase's.
  const due = (await seatDropRefundFor(db, row.id)) ?? (await dropRefundFor(db, row.id));
  if (!due)
    return { paid: false, amountCents: 0, paidCents: 0, currency: row.currency, full: false, policy: row.policy, stopsInstallments: false };
  return {
    paid: true,
    amountCents: due.totalCents,
    paidCents: due.paidCents,
    currency: due.purchase.currency,
    full: due.share === 1 && due.totalCents === due.paidCents,
    policy: row.policy,
    // A learner of a family plan: the plan goes on for the others, lowered (not stopped).
    stopsInstallments: !('seat' in due) && !!due.purchase.subscriptionId && due.purchase.status !== 'completed',
  };
}
