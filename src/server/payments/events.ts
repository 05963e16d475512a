import { DomainEvents } from '../events/domain-events.js';

/**
 * What payments announce (docs/decisions/0007-domain-events.md). Notifications subscribe at
 * start-up (receipts, failed installments, refunds reach the learner through the user's
 * preferences); payments never import them. Amounts arrive formatted ("$49.00"). Announced
 * once the change has committed (`announceCommitted`): a refund is made at the provider
 * after the transaction that planned it.
 */
export type PaymentEventMap = {
  /**
   * A payment was received: the first one of a course purchase (the learner is enrolled), a
   * later installment, or an educator's plan.
   */
  'payment.received': {
    event: {
      purchaseId: string;
      userId: string;
      kind: 'enrolled' | 'installment' | 'plan';
      courseId: string | null;
      title: string;
      amount: string;
      /** "installment 1 of 3; the next ones are taken monthly" (enrolled), or ''. */
      detail: string;
      receiptUrl: string | null;
      sequence: number;
      installments: number | null;
      feePercent?: number;
      /** The course's refund policy (kind 'enrolled'): the receipt says what a drop gives back. */
      refundPolicy?: string;
    };
  };
  /** An installment could not be collected (`released`: the provider gave up and the seat went). */
  'installment.failed': {
    event: { purchaseId: string; userId: string; courseId: string | null; title: string; amount: string; released: boolean };
  };
  /** Money went back to the learner: after a drop, a delayed refund, or a seat that was gone when the payment arrived. */
  'refund.issued': {
    event: {
      purchaseId: string;
      userId: string;
      courseId: string | null;
      title: string;
      amount: string;
      reason: 'drop' | 'delayed' | 'seat_gone';
      /** Why the seat was gone ('This session is full'), for reason 'seat_gone'. */
      detail?: string;
      /** The drop also ended an installment plan: no further payments are taken. */
      installmentsStopped?: boolean;
    };
  };
};

export type PaymentEvents = DomainEvents<PaymentEventMap>;

export function createPaymentEvents(log: { error(obj: object, msg: string): void }): PaymentEvents {
  return new DomainEvents<PaymentEventMap>(log);
}
