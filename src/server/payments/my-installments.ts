import { and, asc, eq, inArray } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { AppServices } from '../app-services.js';
import { addMonths, installmentSchedule } from '../../shared/payments.js';
import type { CardUpdate, MyInstallments } from '../../shared/payments-schemas.js';
import type { Viewer } from '../accounts/viewer.js';
import { courseTitle } from '../courses/course-records.js';
import { payment, purchase } from '../db/schema/payments.js';
import { AppError } from '../http/errors.js';
import { ensureCustomer } from './customers.js';
import { describe, idOf } from './provider-calls.js';

/**
 * The caller's installment plans still running (settings): paid k of N, the amount left,
 * the next due date (the provider's current period end; our first payment + k months when
 * the provider cannot be read) and the card that pays them.
 */
export async function myInstallments(app: AppServices, viewer: Viewer): Promise<MyInstallments> {
  const db = app.database.db;
  const plans = await db
    .select({ p: purchase, title: courseTitle.title })
    .from(purchase)
    .leftJoin(courseTitle, eq(courseTitle.id, purchase.courseId))
    .where(
      and(
        eq(purchase.userId, viewer.user.id),
        eq(purchase.kind, 'course_installments'),
        inArray(purchase.status, ['fulfilled', 'past_due']),
      ),
    )
    .orderBy(asc(purchase.createdAt));
  if (plans.length === 0) return { plans: [], card: null };
  const paid = await db
    .select()
    .from(payment)
    .where(
      inArray(
        payment.purchaseId,
        plans.map((x) => x.p.id),
      ),
    )
    .orderBy(asc(payment.sequence));
  const stripe = app.stripe();
  const out: MyInstallments['plans'] = [];
  for (const { p, title } of plans) {
    const rows = paid.filter((x) => x.purchaseId === p.id);
    const n = p.installments ?? 0;
    // The purchase's amount is what the payments add up to (for plans opened when each was
    // rounded up, N times that amount: the schedule then gives that amount N times).
    const schedule = n ? installmentSchedule(p.amountCents, n) : [];
    const paidCents = rows.reduce((s, r) => s + r.amountCents, 0);
    let nextDueOn: string | null = rows[0] && rows.length < n ? addMonths(rows[0].paidAt.toISOString(), rows.length) : null;
    if (p.subscriptionId && rows.length < n) {
      try {
        const sub = await stripe.subscriptions.retrieve(p.subscriptionId);
        const end = sub.items.data[0]?.current_period_end;
        if (end && sub.status !== 'canceled') nextDueOn = new Date(end * 1000).toISOString().slice(0, 10);
      } catch (err) {
        app.log.warn({ err: describe(err), purchase: p.id }, 'payments: subscription not read; next due date estimated');
      }
    }
    out.push({
      purchaseId: p.id,
      courseId: p.courseId,
      courseTitle: title ?? 'A course',
      installments: n,
      paidInstallments: rows.length,
      installmentCents: schedule[n - 1] ?? 0,
      totalCents: p.amountCents,
      paidCents,
      leftCents: Math.max(0, p.amountCents - paidCents),
      currency: p.currency,
      nextDueOn,
      nextAmountCents: schedule[rows.length] ?? 0,
      pastDue: p.status === 'past_due',
    });
  }
  return { plans: out, card: await cardOf(app, viewer) };
}

/** The card of the customer's later charges (its default payment method), if the provider knows one. */
async function cardOf(app: AppServices, viewer: Viewer): Promise<MyInstallments['card']> {
  const customerId = viewer.user.stripeCustomerId;
  if (!customerId) return null;
  try {
    const stripe = app.stripe();
    const customer = (await stripe.customers.retrieve(customerId)) as Stripe.Customer | Stripe.DeletedCustomer;
    if ('deleted' in customer && customer.deleted) return null;
    const pmId = idOf((customer as Stripe.Customer).invoice_settings?.default_payment_method ?? null);
    if (!pmId) return null;
    const pm = await stripe.paymentMethods.retrieve(pmId);
    return pm.card ? { brand: pm.card.brand, last4: pm.card.last4 } : null;
  } catch (err) {
    app.log.warn({ err: describe(err) }, 'payments: card not read');
    return null;
  }
}

/**
 * POST /api/payments/card-update: a customer portal session that changes the card of the
 * caller's installments (Stripe's hosted portal, or the sandbox's card-update page), back
 * to /user/settings when done.
 */
export async function startCardUpdate(app: AppServices, viewer: Viewer): Promise<CardUpdate> {
  const [running] = await app.database.db
    .select({ id: purchase.id })
    .from(purchase)
    .where(
      and(
        eq(purchase.userId, viewer.user.id),
        eq(purchase.kind, 'course_installments'),
        inArray(purchase.status, ['fulfilled', 'past_due']),
      ),
    )
    .limit(1);
  if (!running) throw new AppError(400, 'no_installments', 'You have no installments to pay: there is no card to change');
  const customer = await ensureCustomer(app, viewer.user);
  try {
    const session = await app.stripe().billingPortal.sessions.create({
      customer,
      return_url: `${app.config.publicUrl}/user/settings?card=updated#installments`,
      flow_data: { type: 'payment_method_update' },
    });
    return { url: session.url };
  } catch (err) {
    app.log.error({ err: describe(err) }, 'payments: customer portal session failed');
    throw new AppError(502, 'portal_unavailable', 'The card page could not be opened. Please try again in a moment.');
  }
}
