/**
 * How much of what was paid comes back when a learner drops: the policy's rule, defined
 * once with its words in src/shared/refund-terms.ts.
 */
export { refundShare } from '../../shared/refund-terms.js';

export interface RefundItem {
  paymentId: string;
  sequence: number;
  chargeId: string | null;
  paymentIntentId: string | null;
  /** Already refunded before this drop. */
  refundedCents: number;
  /** To refund now. */
  amountCents: number;
  /** The provider idempotency key when not the payment's own (`refund-<purchase>-<n>`): one learner's refund of a family purchase. */
  key?: string;
}

/** What a drop refunds (or cancels), carried out after the drop's transaction commits. */
export interface RefundPlan {
  purchaseId: string;
  learnerId: string;
  courseId: string | null;
  subscriptionId: string | null;
  /** A family installment plan that goes on for the other learners: lowered to their part (family-seats.ts). */
  resizeSubscription?: string | null;
  currency: string;
  share: number;
  totalCents: number;
  items: RefundItem[];
  reason: string;
  /** Added to refunds already owed for the purchase (refund_due): carried out by the retry worker. */
  deferred?: boolean;
}
