import { randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import {
  CODE_PATTERN,
  MIN_PRICE_AFTER_CODE_CENTS,
  discountOf,
  normalizeCode,
  promoLabel,
  type EducatorPromoCodeInput,
  type PlatformPromoCodeInput,
  type PromoCodeView,
} from '../../shared/promo-codes.js';
import { formatPrice } from '../../shared/courses.js';
import { platformFee } from '../../shared/payments.js';
import type { AppServices } from '../app-services.js';
import { createAttemptCounter } from '../accounts/attempts.js';
import { courseRowOf, courseTitle, openSessionsOf } from '../courses/course-records.js';
import { PG, pgCode } from '../db/errors.js';
import { payment, promoCode, promoRedemption, purchase } from '../db/schema/payments.js';
import type { Conn, Tx } from '../db/transaction.js';
import { AppError } from '../http/errors.js';
import { describe, provider } from './provider-calls.js';

/**
 * Promo codes (ADR 0070). Codes live here and, for the card provider, as a coupon and a
 * promotion code made with them. A checkout with a code reserves one use in the transaction
 * that opens the purchase (a conditional UPDATE: the last use goes to one checkout only, and
 * a person's second live use meets a partial unique index); the use is confirmed when the
 * checkout is paid and released when it expires or its seat is refused.
 */
export type PromoCode = typeof promoCode.$inferSelect;

/** Attempts at codes that do not exist, per person: enumeration is slow and noticed. */
export const PROMO_MISSES_LIMIT = 10;
export const PROMO_MISSES_WINDOW_SECONDS = 15 * 60;

const codeError = (message: string, status = 400, code = 'promo_code_refused') =>
  new AppError(status, code, message, { fields: { code: message } });

const PROVIDER_FAILURE = { code: 'promo_provider_error', message: 'The code could not be saved with the card provider. Please try again.' };

const dateWords = (d: Date) =>
  d.toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' }) +
  ' UTC';

/** A code made up for the creator: 10 characters of an alphabet without look-alikes (~50 bits). */
function madeUpCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return [...randomBytes(10)].map((b) => alphabet[b % alphabet.length]).join('');
}

// ── Creating and ending ─────────────────────────────────────────────────────────────

interface NewCode {
  code?: string;
  educatorId: string | null;
  courseId: string | null;
  sessionIds: string[] | null;
  percentOff: number | null;
  amountOffCents: number | null;
  currency: string | null;
  startsAt: Date;
  endsAt: Date;
  maxUses: number;
  createdBy: string;
}

/** The provider's coupon and promotion code first (keys from our id), then our row. */
async function createCode(app: AppServices, v: NewCode): Promise<PromoCode> {
  const db = app.database.db;
  if (v.endsAt.getTime() <= Date.now())
    throw new AppError(400, 'invalid_input', 'The end must be in the future', { fields: { endsAt: 'The end must be in the future' } });
  const code = v.code ?? madeUpCode();
  if (!CODE_PATTERN.test(code))
    throw new AppError(400, 'invalid_input', 'This code is not valid', { fields: { code: 'Use 3 to 24 letters, digits or dashes' } });
  const taken = () =>
    new AppError(409, 'code_taken', 'This code is already taken: choose another', { fields: { code: 'This code is already taken' } });
  const [existing] = await db.select({ id: promoCode.id }).from(promoCode).where(eq(promoCode.code, code)).limit(1);
  if (existing) throw taken();
  const id = randomUUID();
  const stripe = app.stripe();
  const metadata = { promo_code_id: id };
  const coupon = await provider(app.log, PROVIDER_FAILURE, 'coupons.create', () =>
    stripe.coupons.create(
      {
        ...(v.percentOff !== null ? { percent_off: v.percentOff } : { amount_off: v.amountOffCents!, currency: v.currency! }),
        duration: 'once',
        max_redemptions: v.maxUses,
        redeem_by: Math.floor(v.endsAt.getTime() / 1000),
        name: code,
        metadata,
      },
      { idempotencyKey: `promo-coupon-${id}` },
    ),
  );
  let promotion: Stripe.PromotionCode;
  try {
    promotion = await stripe.promotionCodes.create(
      {
        promotion: { type: 'coupon', coupon: coupon.id },
        code,
        max_redemptions: v.maxUses,
        expires_at: Math.floor(v.endsAt.getTime() / 1000),
        metadata,
      },
      { idempotencyKey: `promo-code-${id}` },
    );
  } catch (err) {
    if ((err as Stripe.errors.StripeError)?.code === 'resource_already_exists') throw taken();
    app.log.error({ err: describe(err) }, 'payments: promotionCodes.create failed');
    throw new AppError(500, PROVIDER_FAILURE.code, PROVIDER_FAILURE.message);
  }
  try {
    const [row] = await db
      .insert(promoCode)
      .values({
        id,
        code,
        educatorId: v.educatorId,
        courseId: v.courseId,
        sessionIds: v.sessionIds,
        percentOff: v.percentOff,
        amountOffCents: v.amountOffCents,
        currency: v.currency,
        startsAt: v.startsAt,
        endsAt: v.endsAt,
        maxUses: v.maxUses,
        providerCouponId: coupon.id,
        providerPromotionCodeId: promotion.id,
        createdBy: v.createdBy,
      })
      .returning();
    return row;
  } catch (err) {
    if (pgCode(err) === PG.uniqueViolation) throw taken();
    throw err;
  }
}

/** POST /api/educator/promo-codes: a code for one of the educator's own courses. */
export async function createEducatorCode(app: AppServices, educatorId: string, input: EducatorPromoCodeInput): Promise<PromoCodeView> {
  const db = app.database.db;
  const c = await courseRowOf(db, input.courseId);
  if (!c || c.educatorId !== educatorId) throw AppError.notFound('This course does not exist');
  if (c.priceCents <= 0)
    throw new AppError(400, 'free_course', 'This course is free: it needs no code', { fields: { courseId: 'This course is free' } });
  const sessionIds: string[] | null = input.sessionIds?.length ? [...new Set(input.sessionIds)] : null;
  if (sessionIds) {
    const open = new Set((await openSessionsOf(db, c.id)).map((s) => s.id));
    if (sessionIds.some((s) => !open.has(s)))
      throw new AppError(400, 'invalid_input', 'Choose sessions of this course that are still to come', {
        fields: { sessionIds: 'Choose sessions of this course that are still to come' },
      });
  }
  const amountOff = input.kind === 'amount' ? input.amountOffCents! : null;
  if (amountOff !== null && c.priceCents - amountOff < MIN_PRICE_AFTER_CODE_CENTS) {
    const most = formatPrice(c.priceCents - MIN_PRICE_AFTER_CODE_CENTS, c.currency);
    throw new AppError(400, 'invalid_input', `The amount off can be at most ${most} on this course`, {
      fields: { amountOffCents: `At most ${most}` },
    });
  }
  const row = await createCode(app, {
    code: input.code,
    educatorId,
    courseId: c.id,
    sessionIds,
    percentOff: input.kind === 'percent' ? input.percentOff! : null,
    amountOffCents: amountOff,
    currency: amountOff !== null ? c.currency : null,
    startsAt: input.startsAt,
    endsAt: input.endsAt,
    maxUses: input.maxUses,
    createdBy: educatorId,
  });
  return (await promoCodeViews(db, { id: row.id }))[0];
}

/** The platform's code (admins: admin/promo-codes.ts checks and audits). */
export async function createPlatformCode(app: AppServices, adminId: string, input: PlatformPromoCodeInput): Promise<PromoCodeView> {
  if (input.kind === 'amount' && !input.currency)
    throw new AppError(400, 'invalid_input', 'Choose the currency of the amount off', { fields: { currency: 'Choose a currency' } });
  const row = await createCode(app, {
    code: input.code,
    educatorId: null,
    courseId: null,
    sessionIds: null,
    percentOff: input.kind === 'percent' ? input.percentOff! : null,
    amountOffCents: input.kind === 'amount' ? input.amountOffCents! : null,
    currency: input.kind === 'amount' ? input.currency! : null,
    startsAt: input.startsAt,
    endsAt: input.endsAt,
    maxUses: input.maxUses,
    createdBy: adminId,
  });
  return (await promoCodeViews(app.database.db, { id: row.id }))[0];
}

/**
 * Ends a code now (educator: their own, 404 otherwise; admin: a platform code). Checkouts
 * already open with it keep their price; the provider's promotion code is turned off.
 */
export async function endCode(app: AppServices, codeId: string, owner: { educatorId: string } | 'platform'): Promise<PromoCodeView> {
  const db = app.database.db;
  const ownerIs = owner === 'platform' ? isNull(promoCode.educatorId) : eq(promoCode.educatorId, owner.educatorId);
  const [row] = await db
    .select()
    .from(promoCode)
    .where(and(eq(promoCode.id, codeId), ownerIs))
    .limit(1);
  if (!row) throw AppError.notFound('This code does not exist');
  await db
    .update(promoCode)
    .set({ endedAt: sql`coalesce(${promoCode.endedAt}, now())` })
    .where(eq(promoCode.id, row.id));
  if (row.providerPromotionCodeId) {
    await provider(app.log, PROVIDER_FAILURE, 'promotionCodes.update', () =>
      app.stripe().promotionCodes.update(row.providerPromotionCodeId!, { active: false }, { idempotencyKey: `promo-end-${row.id}` }),
    );
  }
  return (await promoCodeViews(db, { id: row.id }))[0];
}

// ── Reading ─────────────────────────────────────────────────────────────────────────

/** Codes with their uses, revenue and discounts per currency: an educator's, the platform's, or one. */
export async function promoCodeViews(
  conn: Conn,
  which: { educatorId: string } | { platform: true } | { id: string },
): Promise<PromoCodeView[]> {
  const where =
    'id' in which
      ? eq(promoCode.id, which.id)
      : 'platform' in which
        ? isNull(promoCode.educatorId)
        : eq(promoCode.educatorId, which.educatorId);
  const rows = await conn
    .select({ p: promoCode, title: courseTitle.title })
    .from(promoCode)
    .leftJoin(courseTitle, eq(courseTitle.id, promoCode.courseId))
    .where(where)
    .orderBy(desc(promoCode.createdAt))
    .limit(500);
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.p.id);
  const uses = await conn
    .select({ id: promoRedemption.promoCodeId, status: promoRedemption.status, n: sql<number>`count(*)::int` })
    .from(promoRedemption)
    .where(inArray(promoRedemption.promoCodeId, ids))
    .groupBy(promoRedemption.promoCodeId, promoRedemption.status);
  // Revenue: what the paid checkouts with the code brought, less refunds, per currency.
  const revenue = await conn
    .select({
      id: purchase.promoCodeId,
      currency: payment.currency,
      cents: sql<number>`sum(${payment.amountCents} - ${payment.refundedCents})::int`,
    })
    .from(payment)
    .innerJoin(purchase, eq(purchase.id, payment.purchaseId))
    .where(inArray(purchase.promoCodeId, ids))
    .groupBy(purchase.promoCodeId, payment.currency);
  const discounted = await conn
    .select({
      id: promoRedemption.promoCodeId,
      currency: promoRedemption.currency,
      cents: sql<number>`sum(${promoRedemption.discountCents})::int`,
    })
    .from(promoRedemption)
    .where(and(inArray(promoRedemption.promoCodeId, ids), eq(promoRedemption.status, 'confirmed')))
    .groupBy(promoRedemption.promoCodeId, promoRedemption.currency);
  const byCurrency = (list: { id: string | null; currency: string; cents: number }[], id: string) =>
    list
      .filter((x) => x.id === id)
      .map((x) => ({ currency: x.currency, cents: Number(x.cents) }))
      .sort((a, b) => a.currency.localeCompare(b.currency));
  const now = Date.now();
  return rows.map(({ p, title }) => {
    const used = Number(uses.find((u) => u.id === p.id && u.status === 'confirmed')?.n ?? 0);
    const held = Number(uses.find((u) => u.id === p.id && u.status === 'reserved')?.n ?? 0);
    const status: PromoCodeView['status'] =
      p.endedAt || p.endsAt.getTime() <= now
        ? 'ended'
        : p.uses >= p.maxUses
          ? 'used_up'
          : p.startsAt.getTime() > now
            ? 'scheduled'
            : 'active';
    return {
      id: p.id,
      code: p.code,
      label: promoLabel(p),
      courseId: p.courseId,
      courseTitle: title ?? null,
      sessionIds: p.sessionIds ?? null,
      percentOff: p.percentOff,
      amountOffCents: p.amountOffCents,
      currency: p.currency,
      startsAt: p.startsAt.toISOString(),
      endsAt: p.endsAt.toISOString(),
      endedAt: p.endedAt?.toISOString() ?? null,
      maxUses: p.maxUses,
      used,
      held,
      status,
      revenue: byCurrency(revenue, p.id),
      discounted: byCurrency(discounted, p.id),
    };
  });
}

// ── At checkout ─────────────────────────────────────────────────────────────────────

export interface AppliedCode {
  code: PromoCode;
  /** What the code takes off the list price. */
  discountCents: number;
  /** The platform bears the discount (a platform code): out of its fee. */
  platformBears: boolean;
}

/**
 * A code typed at checkout, checked for this course, session, price and person, in the order
 * a person would want to hear it. Only codes that do not exist count towards the limit of
 * attempts (PROMO_MISSES_LIMIT per 15 minutes): a person mistyping once is never blocked, a
 * script guessing is.
 */
export async function applicableCode(
  app: AppServices,
  userId: string,
  typed: string,
  target: { courseId: string; educatorId: string; sessionId: string; priceCents: number; currency: string; feePercent: number },
): Promise<AppliedCode> {
  const db = app.database.db;
  const code = normalizeCode(typed);
  const attempts = createAttemptCounter(db);
  const giveBack = await attempts.take([`promo-code:${userId}`], PROMO_MISSES_LIMIT, PROMO_MISSES_WINDOW_SECONDS, 'Too many codes tried.');
  const [row] = CODE_PATTERN.test(code) ? await db.select().from(promoCode).where(eq(promoCode.code, code)).limit(1) : [];
  if (!row || (row.courseId === null && row.educatorId !== null)) throw codeError('This code does not exist. Check it and try again.');
  await giveBack([`promo-code:${userId}`]);
  const now = Date.now();
  if (row.courseId !== null && row.courseId !== target.courseId) throw codeError('This code is for another course.');
  if (row.sessionIds && !row.sessionIds.includes(target.sessionId))
    throw codeError('This code is not valid for this session: it is for other dates of this course.');
  if (row.startsAt.getTime() > now) throw codeError(`This code can be used from ${dateWords(row.startsAt)}.`);
  if (row.endedAt) throw codeError('This code has ended.');
  if (row.endsAt.getTime() <= now) throw codeError(`This code expired on ${dateWords(row.endsAt)}.`);
  if (row.amountOffCents !== null && row.currency !== target.currency)
    throw codeError(
      `This code is for prices in ${row.currency!.toUpperCase()}; this course is priced in ${target.currency.toUpperCase()}.`,
    );
  const [mine] = await db
    .select({ status: promoRedemption.status })
    .from(promoRedemption)
    .where(and(eq(promoRedemption.promoCodeId, row.id), eq(promoRedemption.userId, userId), sql`${promoRedemption.status} <> 'released'`))
    .limit(1);
  if (mine?.status === 'confirmed') throw codeError('You have already used this code: it can be used once per person.');
  // A use this person holds already (an open checkout) is theirs to move to this one.
  if (!mine && row.uses >= row.maxUses) throw codeError('This code has been used as many times as it can be.');
  const discountCents = discountOf(row, target.priceCents);
  if (target.priceCents - discountCents < MIN_PRICE_AFTER_CODE_CENTS)
    throw codeError('This code cannot be used on a course at this price.');
  const platformBears = row.educatorId === null;
  if (platformBears && discountCents > platformFee(target.priceCents, target.feePercent))
    throw codeError('This code cannot be used on this course.');
  return { code: row, discountCents, platformBears };
}

/**
 * Reserves one use for a purchase, in the transaction that opens it: counted only while
 * uses < max_uses (and the code still open), so concurrent checkouts for the last use get it
 * once; the person's second live use meets the partial unique index. Refused: the
 * transaction (and its purchase) rolls back with the message.
 */
export async function reserveUse(tx: Tx, applied: AppliedCode, userId: string, purchaseId: string, currency: string) {
  const taken = await tx
    .update(promoCode)
    .set({ uses: sql`${promoCode.uses} + 1` })
    .where(
      and(
        eq(promoCode.id, applied.code.id),
        sql`${promoCode.uses} < ${promoCode.maxUses}`,
        isNull(promoCode.endedAt),
        sql`${promoCode.startsAt} <= now() and ${promoCode.endsAt} > now()`,
      ),
    )
    .returning({ id: promoCode.id });
  if (taken.length === 0) throw codeError('This code has been used as many times as it can be.');
  try {
    await tx.transaction((sp) =>
      sp.insert(promoRedemption).values({
        promoCodeId: applied.code.id,
        userId,
        purchaseId,
        discountCents: applied.discountCents,
        currency,
      }),
    );
  } catch (err) {
    if (pgCode(err) === PG.uniqueViolation) throw codeError('You have already used this code: it can be used once per person.');
    throw err;
  }
}

/**
 * Before reserving: this person's use of the code still held by an earlier checkout (another
 * way to pay chosen, the page reloaded). That checkout is expired at the provider first, so it
 * can no longer be paid, and its use released; a checkout already paid keeps it ("already used").
 */
export async function releaseEarlierHold(app: AppServices, codeId: string, userId: string) {
  const db = app.database.db;
  const [held] = await db
    .select({ purchaseId: promoRedemption.purchaseId, sessionId: purchase.checkoutSessionId })
    .from(promoRedemption)
    .innerJoin(purchase, eq(purchase.id, promoRedemption.purchaseId))
    .where(and(eq(promoRedemption.promoCodeId, codeId), eq(promoRedemption.userId, userId), eq(promoRedemption.status, 'reserved')))
    .limit(1);
  if (!held) return;
  if (held.sessionId) {
    const stripe = app.stripe();
    const cs = await stripe.checkout.sessions.retrieve(held.sessionId);
    if (cs.status === 'complete') return;
    if (cs.status === 'open') {
      try {
        await stripe.checkout.sessions.expire(held.sessionId);
      } catch (err) {
        // Completed meanwhile: its use stays (the reservation then meets "already used").
        app.log.warn({ err: describe(err) }, 'payments: could not expire an earlier checkout holding a code');
        return;
      }
    }
  }
  await db.transaction(async (tx) => {
    await tx
      .update(purchase)
      .set({ status: 'expired', updatedAt: new Date() })
      .where(and(eq(purchase.id, held.purchaseId), eq(purchase.status, 'open')));
    await releaseUse(tx, held.purchaseId);
  });
}

/** The checkout expired, was abandoned or refused: its use goes back (once: only a reserved use). */
export async function releaseUse(tx: Tx, purchaseId: string) {
  const released = await tx
    .update(promoRedemption)
    .set({ status: 'released', updatedAt: new Date() })
    .where(and(eq(promoRedemption.purchaseId, purchaseId), eq(promoRedemption.status, 'reserved')))
    .returning({ codeId: promoRedemption.promoCodeId });
  for (const r of released)
    await tx
      .update(promoCode)
      .set({ uses: sql`greatest(${promoCode.uses} - 1, 0)` })
      .where(eq(promoCode.id, r.codeId));
}

/** The checkout was paid: its use is confirmed (once: a replayed event finds it confirmed). */
export async function confirmUse(tx: Tx, purchaseId: string, providerDiscountCents: number | null) {
  await tx
    .update(promoRedemption)
    .set({
      status: 'confirmed',
      updatedAt: new Date(),
      ...(providerDiscountCents !== null ? { discountCents: providerDiscountCents } : {}),
    })
    .where(and(eq(promoRedemption.purchaseId, purchaseId), eq(promoRedemption.status, 'reserved')));
}

/** How long a checkout with a code stays payable (the provider's `expires_at`; its minimum is 30 minutes). */
export const CODE_CHECKOUT_LIFETIME_SECONDS = 60 * 60;

/**
 * The `expires_at` of a checkout with a code: from the purchase's creation, so a retried call
 * (the same purchase) sends the provider the same parameters under the same idempotency key.
 */
export async function codeCheckoutExpiry(conn: Conn, purchaseId: string): Promise<number> {
  const [p] = await conn.select({ createdAt: purchase.createdAt }).from(purchase).where(eq(purchase.id, purchaseId)).limit(1);
  return Math.floor((p?.createdAt.getTime() ?? Date.now()) / 1000) + CODE_CHECKOUT_LIFETIME_SECONDS;
}
