import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CANCELLED_SESSION_REFUND,
  REFUND_ARRIVAL,
  REFUND_POLICIES,
  refundPolicySentence,
  refundShare,
} from '../../src/shared/refund-terms.js';
import { render, renderEmail } from '../../src/server/notifications/render.js';

const DAY = 86_400_000;
const first = new Date('2027-03-10T18:00:00Z');
const at = (days: number) => new Date(first.getTime() + days * DAY);
const to = { email: 'lena@example.com', firstName: 'Lena' };
const base = 'https://agora.test';

/**
 * Issue 23.5: refunds are defined once (src/shared/refund-terms.ts): what a drop gives back is
 * computed from the same rule its sentence is written from, and every email says it in the
 * same words. The pages are walked in Chromium (tests/e2e/refund-terms.spec.ts).
 */
describe('refund terms, defined once', () => {
  it('each policy refunds what its sentence says, to the day', () => {
    for (const p of REFUND_POLICIES) {
      const fullUntil = -p.fullUntilDaysBefore;
      expect(refundShare(p.id, first, at(fullUntil - 0.01)), `${p.id} just before the full refund ends`).toBe(1);
      expect(refundShare(p.id, first, at(fullUntil)), `${p.id} when the full refund ends`).toBe(p.partial ? p.partial.percent / 100 : 0);
      if (p.partial) {
        expect(refundShare(p.id, first, at(p.partial.untilDaysAfter - 0.01))).toBe(p.partial.percent / 100);
        expect(refundShare(p.id, first, at(p.partial.untilDaysAfter))).toBe(0);
        expect(p.text).toContain(`${p.partial.percent}% refund`);
      } else expect(p.text).toMatch(/no refund after/);
      expect(p.text).toContain(
        p.fullUntilDaysBefore === 0 ? 'until the first class' : `until ${p.fullUntilDaysBefore} days before the first class`,
      );
    }
    // The three words people read on the course form and the course page.
    expect(REFUND_POLICIES.map((p) => p.text)).toEqual([
      'Full refund until the first class; 50% refund until the end of the first week.',
      'Full refund until the first class; no refund after it starts.',
      'Full refund until 7 days before the first class; no refund after.',
    ]);
  });

  it("the enrolment receipt states the course's own policy", () => {
    for (const p of REFUND_POLICIES) {
      const email = renderEmail('payment_receipt', { kind: 'enrolled', title: 'Pottery', amount: '$40.00', refundPolicy: p.id }, to, base);
      expect(email.text).toContain(refundPolicySentence(p.id));
      for (const other of REFUND_POLICIES.filter((o) => o.id !== p.id)) expect(email.text).not.toContain(other.text);
    }
  });

  it('every refund email and notice says when the money arrives in the same words, and installments only when a plan stopped', () => {
    const once = renderEmail('refund_issued', { reason: 'drop', title: 'Pottery', amount: '$40.00' }, to, base);
    expect(once.text).toContain(`We refunded $40.00 to your card. ${REFUND_ARRIVAL}`);
    expect(once.text).not.toContain('installments');
    const plan = renderEmail('refund_issued', { reason: 'drop', title: 'Pottery', amount: '$40.00', installmentsStopped: true }, to, base);
    expect(plan.text).toContain(`${REFUND_ARRIVAL} No further installments will be taken.`);
    for (const reason of ['seat_gone', 'delayed']) {
      expect(renderEmail('refund_issued', { reason, title: 'Pottery', amount: '$40.00' }, to, base).text).toContain(REFUND_ARRIVAL);
    }
    expect(render('refund_issued', { reason: 'drop', title: 'Pottery', amount: '$40.00' }).body).toContain(REFUND_ARRIVAL);
    const cancelled = renderEmail('session_changed', { change: 'cancelled', title: 'Pottery' }, to, base);
    expect(cancelled.text).toContain(CANCELLED_SESSION_REFUND);
    expect(render('session_changed', { change: 'cancelled', title: 'Pottery' }).body).toContain(CANCELLED_SESSION_REFUND);
  });

  it('no other file writes its own refund terms', () => {
    // Words that promise a refund or its timing belong to refund-terms.ts alone.
    const own = /few days|\d+\s*[–-]\s*\d+\s+(business\s+)?days|full refund (if|until|before)|refunded in full if/i;
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(ts|tsx)$/.test(name) && !path.endsWith(join('shared', 'refund-terms.ts'))) {
          readFileSync(path, 'utf8')
            .split('\n')
            .forEach((line, i) => {
              if (own.test(line)) offenders.push(`${relative(process.cwd(), path)}:${i + 1}: ${line.trim()}`);
            });
        }
      }
    };
    walk(join(process.cwd(), 'src'));
    walk(join(process.cwd(), 'packages', 'stripe-sandbox', 'src'));
    expect(offenders).toEqual([]);
  });
});
