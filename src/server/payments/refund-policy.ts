/**
 * How much of what was paid comes back when a learner drops (REFUND_POLICIES in
 * src/shared/courses.ts). Before the session's first class time: everything (strict:
 * only until 7 days before it). After it: flexible gives 50% until the end of the first
 * week (first class + 7 days); moderate and strict give nothing.
 */
const DAY = 86_400_000;

export function refundShare(policy: string, firstClassAt: Date, now = new Date()): number {
  const t = now.getTime();
  const first = firstClassAt.getTime();
  if (policy === 'strict') return t < first - 7 * DAY ? 1 : 0;
  if (t < first) return 1;
  if (policy === 'flexible' && t < first + 7 * DAY) return 0.5;
  return 0;
}

export interface RefundItem {
  paymentId: string;
  sequence: number;
  chargeId: string | null;
  paymentIntentId: string | null;
  /** Already refunded before this drop. */
  refundedCents: number;
  /** To refund now. */
  amountCents: number;
}

/** What a drop refunds (or cancels), carried out after the drop's transaction commits. */
export interface RefundPlan {
  purchaseId: string;
  learnerId: string;
  courseId: string | null;
  subscriptionId: string | null;
  currency: string;
  share: number;
  totalCents: number;
  items: RefundItem[];
  reason: string;
}
