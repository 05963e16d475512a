/**
 * Refunds, defined once (issue 23.5). Each policy is a rule in numbers; its sentence is
 * written from those numbers, and the amount a drop refunds (payments' refundShare) is
 * computed from the same numbers. Every page and email that speaks of refunds takes its
 * words from here, so the pricing page, the course, enrol, checkout and drop pages, and the
 * receipts and refund emails cannot disagree with each other or with what is refunded.
 */

export interface RefundRule {
  id: 'flexible' | 'moderate' | 'strict';
  label: string;
  /** Everything comes back until this many days before the first class (0: until it starts). */
  fullUntilDaysBefore: number;
  /** After that, a share comes back until this many days after the first class, or nothing. */
  partial: { percent: number; untilDaysAfter: number } | null;
}

const RULES = [
  { id: 'flexible', label: 'Flexible', fullUntilDaysBefore: 0, partial: { percent: 50, untilDaysAfter: 7 } },
  { id: 'moderate', label: 'Moderate', fullUntilDaysBefore: 0, partial: null },
  { id: 'strict', label: 'Strict', fullUntilDaysBefore: 7, partial: null },
] as const satisfies readonly RefundRule[];

/** "Full refund until the first class; 50% refund until the end of the first week." */
export function refundRuleText(rule: RefundRule): string {
  const until = rule.fullUntilDaysBefore === 0 ? 'the first class' : `${rule.fullUntilDaysBefore} days before the first class`;
  const after = rule.partial
    ? `${rule.partial.percent}% refund until ${rule.partial.untilDaysAfter === 7 ? 'the end of the first week' : `${rule.partial.untilDaysAfter} days after the first class`}`
    : rule.fullUntilDaysBefore === 0
      ? 'no refund after it starts'
      : 'no refund after';
  return `Full refund until ${until}; ${after}.`;
}

export const REFUND_POLICIES = RULES.map((r) => ({ ...r, text: refundRuleText(r) })) as unknown as readonly [
  RefundRule & { id: 'flexible'; text: string },
  RefundRule & { id: 'moderate'; text: string },
  RefundRule & { id: 'strict'; text: string },
];
export type RefundPolicyId = RefundRule['id'];
export const REFUND_POLICY_IDS = RULES.map((r) => r.id) as ['flexible', 'moderate', 'strict'];
export const DEFAULT_REFUND_POLICY: RefundPolicyId = 'moderate';

/** The policy of an id (an unknown id reads as the default, as the column's default). */
export function refundPolicyOf(id: string | null | undefined) {
  return REFUND_POLICIES.find((r) => r.id === id) ?? REFUND_POLICIES.find((r) => r.id === DEFAULT_REFUND_POLICY)!;
}

/** "Strict refunds: Full refund until 7 days before the first class; no refund after." */
export function refundPolicySentence(id: string | null | undefined): string {
  const p = refundPolicyOf(id);
  return `${p.label} refunds: ${p.text}`;
}

const DAY = 86_400_000;

/** The share of what was paid that a drop at `now` gives back under the policy (0, a part, or 1). */
export function refundShare(id: string | null | undefined, firstClassAt: Date, now = new Date()): number {
  const rule = refundPolicyOf(id);
  const t = now.getTime();
  const first = firstClassAt.getTime();
  if (t < first - rule.fullUntilDaysBefore * DAY) return 1;
  if (rule.partial && t >= first && t < first + rule.partial.untilDaysAfter * DAY) return rule.partial.percent / 100;
  return 0;
}

/** How long a refund takes to reach the card (what the provider tells us; said the same everywhere). */
export const REFUND_ARRIVAL = 'Refunds reach your card in 5–10 days.';

/** A session the educator cancels is refunded in full, whatever the policy. */
export const CANCELLED_SESSION_REFUND = 'Paid enrolments are refunded in full when the educator cancels a session.';

/** What the pricing page promises learners. */
export const PRICING_REFUND_PROMISE = 'Refunds by each course’s policy, shown before you pay';

/** The words after a refund: the amount, when it arrives, and whether the plan stops. */
export function refundedSentence(o: { amount: string; installmentsStopped: boolean }): string {
  return `We refunded ${o.amount} to your card. ${REFUND_ARRIVAL}${o.installmentsStopped ? ' No further installments will be taken.' : ''}`;
}
