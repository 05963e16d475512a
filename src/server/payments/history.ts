import { learnersOfPurchases } from './family-seats.js';
import { desc, eq, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { planById } from '../../shared/payments.js';
import type { EducatorPayouts } from '../../shared/payments-schemas.js';
import type { Viewer } from '../accounts/viewer.js';
import { requireEducator } from '../educators/require-educator.js';
import { person } from '../accounts/people.js';
import { courseTitle } from '../courses/course-records.js';
import { payment, payoutAccount, purchase, refundDue } from '../db/schema/payments.js';
import { refreshOwnAccount } from './connect-service.js';
import { feePercentOf } from './fees.js';
import { netOf } from '../../shared/money.js';

/** GET /api/payments: the caller's payments with receipts, newest first. */
export async function paymentHistoryFor(app: AppServices, viewer: Viewer) {
  const rows = await app.database.db
    .select({
      p: payment,
      kind: purchase.kind,
      planId: purchase.planId,
      installments: purchase.installments,
      status: purchase.status,
      title: courseTitle.title,
      courseId: purchase.courseId,
      owed: refundDue.plan,
    })
    .from(payment)
    .innerJoin(purchase, eq(purchase.id, payment.purchaseId))
    .leftJoin(courseTitle, eq(courseTitle.id, purchase.courseId))
    .leftJoin(refundDue, eq(refundDue.purchaseId, payment.purchaseId))
    .where(eq(payment.userId, viewer.user.id))
    .orderBy(desc(payment.paidAt))
    .limit(100);
  // A family purchase says whom it paid for (ADR 0074).
  const learners = await learnersOfPurchases(app.database.db, [...new Set(rows.map((r) => r.p.purchaseId))]);
  const forWhom = (purchaseId: string) => (learners.get(purchaseId) ? ` (for ${learners.get(purchaseId)!.join(', ')})` : '');
  return {
    payments: rows.map((r) => ({
      id: r.p.id,
      paidAt: r.p.paidAt.toISOString(),
      description:
        r.kind === 'plan'
          ? `${planById(r.planId ?? '')?.name ?? 'Agora plan'} (monthly)`
          : `${r.title ?? 'A course'}${forWhom(r.p.purchaseId)}`,
      courseId: r.courseId,
      amountCents: r.p.amountCents,
      refundedCents: r.p.refundedCents,
      currency: r.p.currency,
      sequence: r.p.sequence,
      installments: r.kind === 'course_installments' ? r.installments : null,
      receiptUrl: r.p.receiptUrl,
      purchaseStatus: r.status,
      refundPendingCents: pendingOf(r.owed, r.p.id),
    })),
  };
}

/** What refund_due still owes on one payment (its item in the stored plan), 0 if nothing. */
function pendingOf(plan: Record<string, unknown> | null, paymentId: string): number {
  const items = (plan?.items ?? []) as { paymentId: string; amountCents: number }[];
  return items.filter((i) => i.paymentId === paymentId).reduce((n, i) => n + i.amountCents, 0);
}

/**
 * GET /api/educator/payouts: the caller's payout account (re-read from the provider with
 * refresh), plan, totals, last 30 days net per day and sales, all from our payment table.
 */
export async function educatorPayoutsFor(app: AppServices, viewer: Viewer, refresh: boolean): Promise<EducatorPayouts> {
  requireEducator(viewer);
  const db = app.database.db;
  if (refresh) await refreshOwnAccount(app, viewer);
  const [acct] = await db.select().from(payoutAccount).where(eq(payoutAccount.userId, viewer.user.id)).limit(1);
  const pro = acct?.plan === 'pro' ? planById('educator-pro') : null;
  const feePercent = feePercentOf(app, acct?.plan, 'course_payment');
  const net = sql<number>`(${payment.amountCents} - ${payment.feeCents} - ${payment.refundedCents} + ${payment.feeRefundedCents})`;
  // One total per currency: amounts in different currencies are never added.
  const totals = await db
    .select({
      currency: payment.currency,
      gross: sql<number>`coalesce(sum(${payment.amountCents}), 0)::int`,
      fee: sql<number>`coalesce(sum(${payment.feeCents}), 0)::int`,
      refunded: sql<number>`coalesce(sum(${payment.refundedCents}), 0)::int`,
      feeRefunded: sql<number>`coalesce(sum(${payment.feeRefundedCents}), 0)::int`,
      sales: sql<number>`count(*)::int`,
    })
    .from(payment)
    .where(eq(payment.educatorId, viewer.user.id))
    .groupBy(payment.currency)
    .orderBy(payment.currency);
  const daily = await db
    .select({
      day: sql<string>`to_char(date_trunc('day', ${payment.paidAt} at time zone 'UTC'), 'YYYY-MM-DD')`,
      currency: payment.currency,
      netCents: sql<number>`sum(${net})::int`,
    })
    .from(payment)
    .where(sql`${payment.educatorId} = ${viewer.user.id} and ${payment.paidAt} >= now() - interval '30 days'`)
    .groupBy(sql`1`, payment.currency)
    .orderBy(sql`1`, payment.currency);
  const sales = await db
    .select({
      p: payment,
      installments: purchase.installments,
      kind: purchase.kind,
      courseId: purchase.courseId,
      title: courseTitle.title,
      firstName: person.firstName,
      lastName: person.lastName,
    })
    .from(payment)
    .innerJoin(purchase, eq(purchase.id, payment.purchaseId))
    .leftJoin(courseTitle, eq(courseTitle.id, purchase.courseId))
    .innerJoin(person, eq(person.id, payment.userId))
    .where(eq(payment.educatorId, viewer.user.id))
    .orderBy(desc(payment.paidAt))
    .limit(100);
  return {
    account: acct
      ? {
          id: acct.accountId,
          chargesEnabled: acct.chargesEnabled,
          payoutsEnabled: acct.payoutsEnabled,
          detailsSubmitted: acct.detailsSubmitted,
          requirementsDue: acct.requirementsDue ?? [],
        }
      : null,
    plan: { id: pro ? pro.id : 'standard', feePercent },
    totals: totals.map((t) => ({
      currency: t.currency,
      grossCents: Number(t.gross),
      feeCents: Number(t.fee),
      refundedCents: Number(t.refunded),
      feeRefundedCents: Number(t.feeRefunded),
      netCents: Number(t.gross) - Number(t.fee) - Number(t.refunded) + Number(t.feeRefunded),
      sales: Number(t.sales),
    })),
    daily: daily.map((d) => ({ day: d.day, currency: d.currency, netCents: Number(d.netCents) })),
    sales: sales.map((s) => ({
      id: s.p.id,
      paidAt: s.p.paidAt.toISOString(),
      courseId: s.courseId,
      courseTitle: s.title ?? 'A course',
      learnerName: `${s.firstName} ${s.lastName.slice(0, 1)}.`.trim(),
      amountCents: s.p.amountCents,
      feeCents: s.p.feeCents,
      refundedCents: s.p.refundedCents,
      feeRefundedCents: s.p.feeRefundedCents,
      netCents: netOf(s.p),
      currency: s.p.currency,
      sequence: s.p.sequence,
      installments: s.kind === 'course_installments' ? s.installments : null,
    })),
  };
}
