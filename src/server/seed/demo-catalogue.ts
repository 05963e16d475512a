import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { loadSharp } from '../storage/sharp.js';
import { seededRandom } from '../../shared/random.js';
import { wallTimeToUtc } from '../../shared/time.js';
import type { Viewer } from '../accounts/viewer.js';
import { account, educator, user } from '../db/schema/accounts.js';
import { classTime, course, courseSession, enrolment, review } from '../db/schema/courses.js';
import { payoutAccount, purchase } from '../db/schema/payments.js';
import type { Tx } from '../db/transaction.js';
import { refreshCourseRating, refreshCourseStats } from '../courses/stats.js';
import { dropEnrolment } from '../courses/enrolment-service.js';
import { createCourseCheckout } from '../payments/course-checkout.js';
import { ensureCustomer } from '../payments/customers.js';
import { verifyCheckout } from '../payments/verify-checkout.js';
import { DEMO_COURSES, DEMO_EDUCATORS, DEMO_LEARNERS, REVIEW_TEXTS, learnerEmail, type DemoCourse } from './demo-catalogue-data.js';
import { DEMO_PASSWORD, DEMO_USERS } from './demo-users.js';
import { seedDemoPayments } from './demo-payments.js';
import { demoViewer } from './demo-viewer.js';
import { seedDemoViews } from './demo-views.js';
import { DAY, localDate } from './demo-dates.js';
import { scheduleClassReminders } from '../courses/class-reminders.js';

const GRACE = 'grace@agora.local';
const ADA = 'ada@agora.local';

/** Every demo educator's email, Grace first (course `by` indexes this list). */
export const DEMO_EDUCATOR_EMAILS = [GRACE, ...DEMO_EDUCATORS.map((e) => e.email)];

/** Ada's own state: where she is enrolled, waitlisted, and what she finished (and reviewed). */
const ADA_STATE: Record<string, 'active' | 'waitlisted' | 'completed'> = {
  'Mathematics of Everyday Life': 'active',
  'Weeknight Vegetarian': 'active',
  'Chess for Absolute Beginners': 'waitlisted',
  'Physics in the Kitchen': 'completed',
};

/** A realistic spread: most reviews good, a few poor. */
function ratingFrom(r: number): number {
  if (r < 0.5) return 5;
  if (r < 0.8) return 4;
  if (r < 0.92) return 3;
  if (r < 0.97) return 2;
  return 1;
}

const PALETTE = ['#4f46e5', '#0f766e', '#b45309', '#be123c', '#7c3aed', '#0369a1', '#15803d', '#a21caf'];

/** An initials avatar drawn locally (SVG rendered by sharp), stored like an uploaded one. */
async function avatarPng(first: string, last: string, i: number): Promise<Buffer> {
  const a = PALETTE[i % PALETTE.length];
  const b = PALETTE[(i + 3) % PALETTE.length];
  const initials = `${first[0] ?? ''}${last[0] ?? ''}`.toUpperCase();
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs>
<rect width="256" height="256" fill="url(#g)"/><circle cx="210" cy="40" r="70" fill="#fff" fill-opacity="0.12"/>
<text x="128" y="158" font-family="DejaVu Sans, Arial, sans-serif" font-size="92" font-weight="700" text-anchor="middle" fill="#fff">${initials}</text></svg>`;
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg)).png().toBuffer();
}

function atHour(day: string, hour: number, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  return wallTimeToUtc({ year: y, month: m, day: d, hour, minute: 0 }, timeZone);
}

/** The demo accounts besides the first four: educators (with profiles and avatars) and learners. */
async function ensureCatalogueUsers(app: FastifyInstance): Promise<Map<string, string>> {
  const db = app.database.db;
  const wanted = [
    ...DEMO_EDUCATORS.map((e, i) => ({ ...e, educator: e, i: i + 1 })),
    ...DEMO_LEARNERS.map(([firstName, lastName, city], i) => ({
      email: learnerEmail(firstName),
      firstName,
      lastName,
      city,
      educator: null,
      i: i + 10,
    })),
  ];
  const existing = await db
    .select({ id: user.id, email: user.email })
    .from(user)
    .where(inArray(user.email, [...wanted.map((w) => w.email), ...DEMO_USERS.map((u) => u.email)]));
  const ids = new Map(existing.map((r) => [r.email, r.id]));
  const missing = wanted.filter((w) => !ids.has(w.email));
  if (missing.length > 0) {
    const ctx = await app.auth.$context;
    const hash = await ctx.password.hash(DEMO_PASSWORD);
    // Avatars first (files), then every row in one transaction.
    const images = await Promise.all(
      missing.map(async (m) => {
        const png = await avatarPng(m.firstName, m.lastName, m.i);
        return m.educator ? app.images.saveEducatorPhoto(png) : app.images.saveAvatar(png);
      }),
    );
    await db.transaction(async (tx) => {
      const rows = await tx
        .insert(user)
        .values(
          missing.map((m, k) => ({
            email: m.email,
            name: `${m.firstName} ${m.lastName}`,
            firstName: m.firstName,
            lastName: m.lastName,
            city: m.city,
            emailVerified: true,
            image: images[k],
          })),
        )
        .returning({ id: user.id, email: user.email });
      for (const r of rows) ids.set(r.email, r.id);
      await tx.insert(account).values(rows.map((r) => ({ accountId: r.id, providerId: 'credential', userId: r.id, password: hash })));
      const eds = missing.flatMap((m, k) =>
        m.educator
          ? [
              {
                userId: ids.get(m.email)!,
                bio: m.educator.bio,
                headline: m.educator.headline,
                subjects: m.educator.subjects,
                profileImage: images[k],
              },
            ]
          : [],
      );
      if (eds.length) await tx.insert(educator).values(eds);
    });
  }
  // The first demo accounts' pictures, drawn the same way, when they have none.
  const bare = await db
    .select({ id: user.id, first: user.firstName, last: user.lastName })
    .from(user)
    .where(
      and(
        inArray(
          user.email,
          DEMO_USERS.map((u) => u.email).filter((e) => e !== GRACE),
        ),
        sql`${user.image} is null`,
      ),
    );
  for (const [k, u] of bare.entries()) {
    const path = await app.images.saveAvatar(await avatarPng(u.first, u.last, k + 4));
    await db.update(user).set({ image: path }).where(eq(user.id, u.id));
  }
  const graceId = ids.get(GRACE);
  if (graceId) {
    const [g] = await db.select({ img: educator.profileImage }).from(educator).where(eq(educator.userId, graceId)).limit(1);
    if (g && !g.img) {
      const path = await app.images.saveEducatorPhoto(await avatarPng('Grace', 'Hopper', 0));
      await db.update(educator).set({ profileImage: path }).where(eq(educator.userId, graceId));
      await db
        .update(user)
        .set({ image: path })
        .where(and(eq(user.id, graceId), sql`${user.image} is null`));
    }
  }
  return ids;
}

interface SessionPlan {
  startDay: number;
  weeks: number;
  status: 'scheduled' | 'completed';
  fill: number;
  /** Enrolled learners' status: completed for a finished session. */
  enrolled: 'active' | 'completed';
}

/** A course's sessions by its timing: days from today to the first class, and how full. */
function sessionsFor(c: DemoCourse, r: () => number): SessionPlan[] {
  const later = 21 + Math.floor(r() * 35);
  switch (c.timing) {
    case 'past':
      return [
        { startDay: -(c.weeks * 7 + 20), weeks: c.weeks, status: 'completed', fill: Math.max(c.fill, 0.6), enrolled: 'completed' },
        { startDay: later, weeks: c.weeks, status: 'scheduled', fill: c.fill * 0.4, enrolled: 'active' },
      ];
    case 'running':
      return [
        { startDay: -Math.floor((c.weeks * 7) / 2), weeks: c.weeks, status: 'scheduled', fill: c.fill, enrolled: 'active' },
        { startDay: c.weeks * 7 + 14, weeks: c.weeks, status: 'scheduled', fill: 0.15, enrolled: 'active' },
      ];
    case 'soon':
      return [{ startDay: 3 + Math.floor(r() * 11), weeks: c.weeks, status: 'scheduled', fill: c.fill, enrolled: 'active' }];
    case 'later':
      return [{ startDay: later, weeks: c.weeks, status: 'scheduled', fill: c.fill, enrolled: 'active' }];
  }
}

/** Inserts one course with its sessions, class times, enrolments and reviews. */
async function insertCourse(
  app: FastifyInstance,
  tx: Tx,
  c: DemoCourse,
  index: number,
  who: { educatorId: string; educatorName: string; canCharge: boolean; pool: string[]; ada: string | undefined; skipFill: boolean },
) {
  const r = seededRandom(index * 7919 + 17);
  const description = `${c.weeks} weekly classes of ${c.minutes} minutes, in a group of at most ${c.capacity} learners.\n\n## What you will learn\n\n${c.learn.map((l) => `- ${l}`).join('\n')}\n\n## How it works\n\n${
    c.city
      ? `We meet in person in ${c.city}${c.address ? ` (${c.address})` : ''}. Everything you need is provided.`
      : 'Classes are live online in a small group; the link is on your dashboard once you are enrolled.'
  }`;
  const published = c.priceCents === 0 || who.canCharge;
  const [row] = await tx
    .insert(course)
    .values({
      educatorId: who.educatorId,
      educatorName: who.educatorName,
      title: c.title,
      summary: c.summary,
      description,
      category: c.category,
      level: c.level,
      language: 'English',
      audience: null,
      format: c.city ? 'in_person' : 'online',
      city: c.city,
      address: c.address ?? null,
      priceCents: c.priceCents,
      currency: c.currency,
      installments: c.installments,
      refundPolicy: c.refundPolicy,
      status: published ? 'published' : 'draft',
      publishedAt: published ? new Date(Date.now() - (60 + index) * DAY) : null,
    })
    .returning({ id: course.id });
  const courseId = row.id;
  const reviewers: string[] = [];
  let offset = (index * 5) % who.pool.length;
  const take = (n: number) => {
    const out: string[] = [];
    for (let k = 0; k < n && k < who.pool.length; k++) out.push(who.pool[(offset + k) % who.pool.length]);
    offset = (offset + n) % who.pool.length;
    return out;
  };
  const adaWants = ADA_STATE[c.title];
  for (const [si, plan] of sessionsFor(c, r).entries()) {
    const startsOn = localDate(plan.startDay, c.timeZone);
    const endsOn = localDate(plan.startDay + (plan.weeks - 1) * 7, c.timeZone);
    const full = plan.fill >= 1;
    let seated = who.skipFill ? [] : take(full ? c.capacity : Math.min(c.capacity - 1, Math.round(c.capacity * plan.fill)));
    let waiting = full && !who.skipFill ? take(2) : [];
    // Ada: in the first session of her courses.
    if (si === 0 && who.ada && adaWants) {
      if (adaWants === 'waitlisted') waiting = [waiting[0], who.ada, ...waiting.slice(1)].filter(Boolean);
      else seated = [who.ada, ...seated.slice(0, full ? c.capacity - 1 : seated.length)];
    }
    seated = [...new Set(seated)].slice(0, c.capacity);
    waiting = [...new Set(waiting)].filter((w) => !seated.includes(w));
    const [s] = await tx
      .insert(courseSession)
      .values({
        courseId,
        startsOn,
        endsOn,
        capacity: c.capacity,
        minToRun: Math.min(3, c.capacity),
        timeZone: c.timeZone,
        status: plan.status,
        seatsTaken: plan.status === 'completed' ? 0 : seated.length,
      })
      .returning({ id: courseSession.id });
    const times = Array.from({ length: plan.weeks }, (_, w) => {
      const startsAt = atHour(localDate(plan.startDay + w * 7, c.timeZone), c.hour, c.timeZone);
      return {
        sessionId: s.id,
        startsAt,
        endsAt: new Date(startsAt.getTime() + c.minutes * 60_000),
        location: c.city ? (c.address ? `${c.address}, ${c.city}` : c.city) : null,
        meetingUrl: c.city ? null : `https://meet.agora.local/${courseId.slice(0, 8)}-${si + 1}`,
      };
    });
    const inserted = await tx.insert(classTime).values(times).returning({ id: classTime.id, startsAt: classTime.startsAt });
    // Their reminders, as a class time added by its educator gets them (ADR 0068); past ones get none.
    if (plan.status === 'scheduled') await scheduleClassReminders(app, tx, inserted);
    const status = plan.enrolled;
    const base = Date.now() + (plan.startDay - 20) * DAY;
    const rows = [
      ...seated.map((learnerId, k) => ({ learnerId, status, at: base + k * 3_600_000 })),
      ...waiting.map((learnerId, k) => ({ learnerId, status: 'waitlisted', at: base + (seated.length + k) * 3_600_000 })),
    ];
    if (rows.length) {
      await tx.insert(enrolment).values(
        rows.map((e) => ({
          sessionId: s.id,
          courseId,
          learnerId: e.learnerId,
          status: e.status,
          createdAt: new Date(Math.min(e.at, Date.now() - DAY)),
          updatedAt: new Date(Math.min(e.at, Date.now() - DAY)),
        })),
      );
    }
    // A finished or running session's learners review the course (their first class took place).
    if (plan.status === 'completed' || plan.startDay < 0) reviewers.push(...seated);
  }
  const writers = [...new Set(reviewers)].filter(() => r() < 0.75);
  if (writers.length) {
    await tx.insert(review).values(
      writers.map((learnerId) => {
        const rating = learnerId === who.ada ? 5 : ratingFrom(r());
        const texts = REVIEW_TEXTS[rating];
        const at = new Date(Date.now() - Math.floor(1 + r() * 20) * DAY);
        return { courseId, learnerId, rating, text: texts[Math.floor(r() * texts.length)], createdAt: at, updatedAt: at };
      }),
    );
  }
  await refreshCourseStats(tx, courseId);
  await refreshCourseRating(tx, courseId);
  return courseId;
}

/**
 * The demo catalogue (outside production, after the server listens): educators with
 * profiles, forty courses across every category with past, running and future sessions,
 * learners, waitlists, reviews, course page views; Ada's own enrolments; Grace's sales and a refund through
 * the real checkout (payments sandbox). Idempotent: a course that exists (same educator,
 * same title) is left alone, and the sales are made once.
 */
export async function seedDemoCatalogue(app: FastifyInstance): Promise<{ created: number; ms: number; steps: Record<string, number> }> {
  const started = performance.now();
  const steps: Record<string, number> = {};
  let mark = started;
  const step = (name: string) => {
    const now = performance.now();
    steps[name] = Math.round(now - mark);
    mark = now;
  };
  const db = app.database.db;
  // Only a demo database: one that has the first demo account.
  const [ada] = await db.select({ id: user.id }).from(user).where(eq(user.email, ADA)).limit(1);
  if (!ada) return { created: 0, ms: 0, steps };
  const ids = await ensureCatalogueUsers(app);
  step('users');
  // Customers and finished payout onboarding for every demo educator (sandbox only). A failure
  // ends the attempt (seed/demo-seed.ts tries again): the demo is never left without its sales.
  await seedDemoPayments(app);
  step('payouts');
  const educatorRows = await db
    .select({ id: user.id, email: user.email, first: user.firstName, last: user.lastName, charges: payoutAccount.chargesEnabled })
    .from(user)
    .innerJoin(educator, eq(educator.userId, user.id))
    .leftJoin(payoutAccount, eq(payoutAccount.userId, user.id))
    .where(inArray(user.email, DEMO_EDUCATOR_EMAILS));
  const byEmail = new Map(educatorRows.map((e) => [e.email, e]));
  const have = await db
    .select({ educatorId: course.educatorId, title: course.title })
    .from(course)
    .where(
      inArray(
        course.educatorId,
        educatorRows.map((e) => e.id),
      ),
    );
  const exists = new Set(have.map((h) => `${h.educatorId}|${h.title}`));
  const pool = DEMO_LEARNERS.map(([first]) => ids.get(learnerEmail(first))).filter((x): x is string => Boolean(x));
  const alreadyHadCourses = have.length > 0;
  let created = 0;
  await db.transaction(async (tx) => {
    for (const [index, c] of DEMO_COURSES.entries()) {
      const ed = byEmail.get(DEMO_EDUCATOR_EMAILS[c.by]);
      if (!ed || exists.has(`${ed.id}|${c.title}`)) continue;
      await insertCourse(app, tx, c, index, {
        educatorId: ed.id,
        educatorName: `${ed.first} ${ed.last}`,
        canCharge: Boolean(ed.charges),
        pool,
        // Ada's enrolments only on a fresh catalogue (an older demo has her in the first three courses already).
        ada: alreadyHadCourses ? undefined : ada.id,
        // Grace's paid courses are filled by real purchases (below), not by rows.
        skipFill: c.by === 0 && c.priceCents > 0 && c.timing !== 'past',
      });
      created++;
    }
  });
  step('courses');
  await seedGraceSales(app, ids);
  step('sales');
  // After the sales: each day's views are at least its checkouts.
  await seedDemoViews(
    app,
    educatorRows.map((e) => e.id),
  );
  step('views');
  const ms = Math.round(performance.now() - started);
  if (created > 0) app.log.info({ steps }, `demo catalogue: ${created} courses by ${educatorRows.length} educators in ${ms} ms`);
  return { created, ms, steps };
}

async function viewerFor(app: FastifyInstance, userId: string): Promise<Viewer> {
  const [u] = await app.database.db.select().from(user).where(eq(user.id, userId)).limit(1);
  return demoViewer(u);
}

/** Who buys which of Grace's courses, how, and who then drops (a refund). */
const SALES: { buyer: string; title: string; installments?: number; drop?: boolean }[] = [
  { buyer: 'alan@agora.local', title: 'Python for Curious Beginners' },
  { buyer: 'maya@agora.local', title: 'Python for Curious Beginners' },
  // Two monthly payments: the last one must fall before the six-week session ends (decision 0017).
  { buyer: 'noah@agora.local', title: 'Python for Curious Beginners', installments: 2 },
  { buyer: 'chloe@agora.local', title: 'Python for Curious Beginners', drop: true },
  { buyer: 'arjun@agora.local', title: 'Build Your First Website' },
  { buyer: 'mei@agora.local', title: 'Build Your First Website' },
];

/** What a sale left behind: a paid purchase (then maybe dropped), or nothing yet (none, or a checkout never paid). */
async function saleMade(app: FastifyInstance, buyerId: string, courseId: string) {
  const [p] = await app.database.db
    .select({ status: purchase.status })
    .from(purchase)
    .where(and(eq(purchase.userId, buyerId), eq(purchase.courseId, courseId), sql`${purchase.status} not in ('open', 'expired')`))
    .orderBy(sql`${purchase.createdAt} desc`)
    .limit(1);
  return p ?? null;
}

/**
 * Grace's sales through the real checkout (the use cases and the sandbox's card form, as
 * a learner pays), one drop refunded by the course's policy. Sandbox only, each sale once:
 * a sale already paid is skipped (its drop made if an interrupted attempt had not), so an
 * attempt cut short resumes with the sales it had not made.
 */
async function seedGraceSales(app: FastifyInstance, ids: Map<string, string>) {
  if (app.config.payments.mode !== 'sandbox') return;
  const db = app.database.db;
  const graceId = ids.get(GRACE);
  if (!graceId) return;
  let made = 0;
  const courses = await db
    .select({ id: course.id, title: course.title, priceCents: course.priceCents, status: course.status })
    .from(course)
    .where(eq(course.educatorId, graceId));
  for (const sale of SALES) {
    const c = courses.find((x) => x.title === sale.title && x.status === 'published');
    const buyerId = ids.get(sale.buyer);
    if (!c || !buyerId) continue;
    const before = await saleMade(app, buyerId, c.id);
    if (before) {
      if (sale.drop && ['fulfilled', 'completed'].includes(before.status)) {
        const [held] = await db
          .select({ sessionId: enrolment.sessionId })
          .from(enrolment)
          .where(and(eq(enrolment.learnerId, buyerId), eq(enrolment.courseId, c.id), eq(enrolment.status, 'active')))
          .limit(1);
        if (held) await dropEnrolment(app, await viewerFor(app, buyerId), { courseId: c.id, sessionId: held.sessionId });
      }
      continue;
    }
    made++;
    const [s] = await db
      .select({ id: courseSession.id })
      .from(courseSession)
      .where(and(eq(courseSession.courseId, c.id), eq(courseSession.status, 'scheduled'), sql`${courseSession.startsOn} > current_date`))
      .orderBy(courseSession.startsOn)
      .limit(1);
    if (!s) continue;
    let viewer = await viewerFor(app, buyerId);
    const customer = await ensureCustomer(app, viewer.user);
    viewer = await viewerFor(app, buyerId);
    const checkout = await createCourseCheckout(app, viewer, {
      customer,
      course: c.id,
      session: s.id,
      price: c.priceCents,
      ...(sale.installments ? { installments: sale.installments } : {}),
    });
    const paid = await app.inject({
      method: 'POST',
      url: `/sandbox/api/checkout/${checkout.sessionId}/confirm`,
      headers: { 'content-type': 'application/json' },
      payload: {
        client_secret: checkout.clientSecret,
        number: '4242 4242 4242 4242',
        exp: '12/34',
        cvc: '123',
        name: `${viewer.user.firstName} ${viewer.user.lastName}`,
      },
    });
    if (paid.statusCode >= 300) throw new Error(`sandbox card form answered ${paid.statusCode}`);
    await verifyCheckout(app, viewer, checkout.sessionId);
    if (sale.drop) await dropEnrolment(app, viewer, { courseId: c.id, sessionId: s.id });
  }
  if (made > 0) app.log.info('demo sales: Grace has sales, installments and a refund in the payments sandbox');
}
