import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PLAN_IDS } from '../../../src/shared/payments.js';
import type { TestApp } from '../../support/app.js';
import {
  classTimeBody,
  courseBody,
  educatorBody,
  makeClassTimes,
  makeCourse,
  makeLearner,
  makePublishedCourse,
  makeSession,
  putReview,
  firstClassTookPlace,
  sessionBody,
} from '../../support/courses.js';
import { call, get, post, sendAs, type Response } from '../../support/http.js';
import { clubBody, createClub, createClubEvents, eventBody } from '../../support/club-data.js';
import { fileForm } from '../../support/multipart.js';
import { pdfBytes } from '../../support/classroom.js';
import { buildPaymentsApp, buy, customerOf, makePayoutEducator, purchaseOf, waitFor } from '../../support/payments.js';
import { fillPath, inputJsonSchema, objectProperties, routeTable, type AppRoute, type JsonSchema } from '../../support/route-table.js';

vi.mock('fastify', async (original) => (await import('../../support/route-table.js')).recordRoutes(await original()));

/**
 * Cross-user matrix (issue 12), generated from the app's own route table: every API route
 * that takes an id (in its path, query or body) is called by other users with the ids of
 * user A's data, with every method it has. The answer must be 403/404 (401 signed out),
 * never 2xx, never 5xx, and no answer may carry A's private data. A new route is covered
 * by the table; a new kind of id with no fixture below fails the test until it gets one.
 */

/** Routes outside the matrix, with the reason (prefix match on the registered path). */
const OUT_OF_SCOPE: Record<string, string> = {
  '/api/auth/': "better-auth's own endpoints (ids travel in signed tokens; narrowed by issue 12 defect 5)",
  '/api/docs': 'the OpenAPI browser (static files, development only)',
  '/api/dev/': 'development tools, never registered in production',
  '/api/bench/': 'benchmark routes, only with BENCH_ROUTES=true',
};

/**
 * Routes another user may call with A's ids and get a 2xx, with the reason. The answer
 * is still checked for A's private data (unless `anyData` says why it may not apply).
 */
const PUBLIC: Record<string, { when: Variant[]; reason: string; anyData?: string }> = {
  'GET /api/courses/:courseId': { when: ['published'], reason: 'a published course page is public (sessions, class times, reviews)' },
  'HEAD /api/courses/:courseId': { when: ['published'], reason: 'as GET' },
  'GET /api/educators/:educatorId': { when: ['published', 'draft'], reason: 'the educator profile is public (published courses only)' },
  'HEAD /api/educators/:educatorId': { when: ['published', 'draft'], reason: 'as GET' },
  'POST /api/courses/:courseId/sessions/:sessionId/enrol': {
    when: ['published'],
    reason: "enrolling in a published session is what learners do (a paid one answers the caller's own checkout link)",
  },
  'GET /api/course/:courseID/checkout': {
    when: ['published'],
    reason: "the order summary of a published course, with the caller's own customer",
  },
  'HEAD /api/course/:courseID/checkout': { when: ['published'], reason: 'as GET' },
  'POST /api/course/:courseID/checkout/promo-code': {
    when: ['published'],
    reason: "the price with A's code for a published course of A's: what codes are for (the caller's own quote)",
  },
  'GET /api/calendar/feed/:file': {
    when: ['published', 'draft'],
    reason: 'a capability URL: holding the feed link is the permission (its owner rotates it to revoke)',
    anyData: "the feed is A's own calendar by design; a guessed link is checked to answer 404",
  },
  'HEAD /api/calendar/feed/:file': { when: ['published', 'draft'], reason: 'as GET', anyData: 'as GET' },
  // The mailbox: a user id names the person to talk to; the thread is always the caller's own
  // with that person (A's conversations with others never show: A's message to the learner is a private marker).
  'GET /api/mailbox/conversations/:userId': {
    when: ['published'],
    reason: "the caller's own thread with A (empty), never A's with others",
  },
  'HEAD /api/mailbox/conversations/:userId': { when: ['published'], reason: 'as GET' },
  'POST /api/mailbox/conversations/:userId/messages': { when: ['published'], reason: 'anyone may message A (unless blocked)' },
  'POST /api/mailbox/conversations/:userId/read': { when: ['published'], reason: "marks the caller's own thread with A read" },
  'PUT /api/mailbox/blocks/:userId': { when: ['published'], reason: 'anyone may block A' },
  'DELETE /api/mailbox/blocks/:userId': { when: ['published'], reason: "lifts the caller's own block of A" },
  'GET /api/clubs/:clubId': {
    when: ['published', 'draft'],
    reason: "a club's public part (name, description, member count) is for everyone; A's club is an approval club, so no members or events",
  },
  'HEAD /api/clubs/:clubId': { when: ['published', 'draft'], reason: 'as GET' },
  'GET /api/certificates/:code': {
    when: ['published', 'draft'],
    reason: 'verifying a certificate is for anyone (issue 25): the code is what its learner hands out',
    anyData: "the answer is the certificate's public part (the learner's name, the course, the dates), never an id or an email",
  },
  'HEAD /api/certificates/:code': { when: ['published', 'draft'], reason: 'as GET', anyData: 'as GET' },
  'POST /api/clubs/:clubId/join': {
    when: ['published', 'draft'],
    reason: "asking to join a club is what users do (the caller's own request)",
  },
  'POST /api/clubs/:clubId/leave': { when: ['published', 'draft'], reason: "withdrawing the caller's own request to join" },
};

type Variant = 'published' | 'draft';

interface Fixtures {
  clubId: string;
  clubEventId: string;
  courseId: string;
  sessionId: string;
  classTimeId: string;
  userId: string;
  educatorId: string;
  authSessionId: string;
  feedFile: string;
  customer: string;
  connectAccount: string;
  checkoutSession: string;
  email: string;
  notificationId: string;
  messageId: string;
  clientId: string;
  learnerId: string;
  certificateCode: string;
  promoCodeId: string;
  promoCode: string;
  postId: string;
  replyId: string;
  fileId: string;
  learnerProfileId: string;
}

/** Path parameter -> A's id (one name per kind of id: docs/glossary.md). */
const PATH_IDS: Record<string, (f: Fixtures) => string> = {
  courseId: (f) => f.courseId,
  courseID: (f) => f.courseId,
  sessionId: (f) => f.sessionId,
  signInSessionId: (f) => f.authSessionId,
  classTimeId: (f) => f.classTimeId,
  userId: (f) => f.userId,
  educatorId: (f) => f.educatorId,
  file: (f) => `${f.feedFile}.ics`,
  // A's own notification (a learner enrolled in A's course).
  notificationId: (f) => f.notificationId,
  messageId: (f) => f.messageId,
  clubId: (f) => f.clubId,
  eventId: (f) => f.clubEventId,
  // A's learner (enrolled in A's published session): marked only by A.
  learnerId: (f) => f.learnerId,
  // The certificate of A's learner in A's course: its PDF is the learner's, its revocation A's.
  code: (f) => f.certificateCode,
  // A's promo code (ending it: A only; the admin route's role check comes first).
  codeId: (f) => f.promoCodeId,
  // A's classroom (the published session): a post, the learner's reply, a file.
  postId: (f) => f.postId,
  replyId: (f) => f.replyId,
  fileId: (f) => f.fileId,
  // A's learner profile (family accounts, ADR 0074): A's only; another account's answers 404.
  learnerProfileId: (f) => f.learnerProfileId,
  // Admin routes (admins only): any job id, the role check comes first.
  jobId: () => randomUUID(),
};

/** Body or query fields that name someone's resource -> A's value. */
const FIELD_IDS: Record<string, (f: Fixtures) => string | number> = {
  course: (f) => f.courseId,
  session: (f) => f.sessionId,
  customer: (f) => f.customer,
  user_id: (f) => f.userId,
  stripe_connect_account_id: (f) => f.connectAccount,
  session_id: (f) => f.checkoutSession,
  // The sender's own idempotency key (unique per sender): A's key, to show it reaches nothing of A's.
  clientId: (f) => f.clientId,
  courseId: (f) => f.courseId,
  // One of A's learners (family accounts, ADR 0074): dropping or previewing it as B finds nothing of B's (404).
  learnerId: (f) => f.learnerProfileId,
};

/** A field looks like an id: it must then have an entry in FIELD_IDS. */
const looksLikeId = (name: string, schema: JsonSchema) => schema.format === 'uuid' || /(^id$|Id$|ID$|_id$)/.test(name);

/** Valid bodies, so a refusal comes from the ownership check and not from validation. */
const BODIES: Record<string, (f: Fixtures) => Record<string, unknown>> = {
  'PUT /api/courses/:courseId': () => courseBody({ title: 'Taken over' }),
  'POST /api/courses/:courseId/sessions': () => sessionBody(),
  'PATCH /api/courses/:courseId/sessions/:sessionId': () => ({ capacity: 3 }),
  'POST /api/courses/:courseId/sessions/:sessionId/class-times': () => classTimeBody(45),
  'PATCH /api/courses/:courseId/sessions/:sessionId/class-times/:classTimeId': () => classTimeBody(47),
  'PUT /api/courses/:courseId/review': () => ({ rating: 1, text: 'Written by someone else' }),
  'PUT /api/educators/:educatorId': () => educatorBody({ headline: 'Taken over' }),
  'PATCH /api/users/:userId': () => ({ firstName: 'Mallory' }),
  'POST /api/stripe/create-product': () => ({ name: 'Hijacked product' }),
  'POST /api/stripe/course-embedded-checkout': () => ({ price: 4900 }),
  'POST /api/stripe/course-embedded-subscription': () => ({ price: 4900, installments: 3 }),
  'POST /api/stripe/create-embedded-checkout-session': () => ({ product: PLAN_IDS[0], price: 1900 }),
  'POST /api/stripe/create-stripe-account': (f) => ({ email: f.email }),
  'POST /api/admin/users/:userId/ban': () => ({ reason: 'Taken over' }),
  'POST /api/mailbox/conversations/:userId/messages': () => ({ body: 'Hello from someone else' }),
  'POST /api/mailbox/messages/:messageId/report': () => ({ reason: 'Reported by someone else' }),
  'PUT /api/clubs/:clubId': () => clubBody({ name: 'Taken over' }),
  'POST /api/clubs/:clubId/delete': () => ({ confirmName: 'Members-only circle of A' }),
  'POST /api/clubs/:clubId/members/:userId': () => ({ action: 'remove' }),
  'POST /api/clubs/:clubId/events': () => eventBody({ title: 'Hijacked event' }),
  'PUT /api/clubs/:clubId/events/:eventId': () => eventBody({ title: 'Hijacked event' }),
  'PUT /api/clubs/:clubId/events/:eventId/rsvp': () => ({ answer: 'going' }),
  'PUT /api/admin/users/:userId/role': () => ({ role: 'admin' }),
  'PUT /api/courses/:courseId/sessions/:sessionId/class-times/:classTimeId/attendance/:learnerId': () => ({ mark: 'absent' }),
  'PUT /api/courses/:courseId/certificate-rule': () => ({ minPercent: 1 }),
  'POST /api/educator/promo-codes': () => ({
    kind: 'percent',
    percentOff: 50,
    startsAt: new Date().toISOString(),
    endsAt: new Date(Date.now() + 86400_000).toISOString(),
    maxUses: 5,
  }),
  'POST /api/course/:courseID/checkout/promo-code': (f) => ({ code: f.promoCode }),
  'POST /api/courses/:courseId/sessions/:sessionId/classroom/posts': () => ({ body: 'Hijacked post' }),
  'PATCH /api/courses/:courseId/sessions/:sessionId/classroom/posts/:postId': () => ({ body: 'Hijacked text', pinned: true }),
  'POST /api/courses/:courseId/sessions/:sessionId/classroom/posts/:postId/replies': () => ({ body: 'Hijacked reply' }),
  'POST /api/courses/:courseId/sessions/:sessionId/classroom/posts/:postId/report': () => ({ reason: 'Reported by someone else' }),
  'POST /api/courses/:courseId/sessions/:sessionId/classroom/replies/:replyId/hide': () => ({ hidden: true }),
  'PUT /api/courses/:courseId/sessions/:sessionId/classroom/access/:userId': () => ({ access: 'removed' }),
  'POST /api/admin/users/:userId/delete': (f) => ({ confirmEmail: f.email }),
  'PATCH /api/me/learners/:learnerProfileId': () => ({ firstName: 'Taken over', age: '9' }),
  'POST /api/admin/clubs/:clubId/delete': () => ({ confirmName: 'Members-only circle of A', reason: 'Taken over' }),
};

let app: TestApp;
let routes: AppRoute[];
const fixtures = {} as Record<Variant, Fixtures>;
/** Strings only A (or A's learner) may ever see. */
let privateMarkers: string[] = [];
/** A's sign-in, to check after the matrix that A's data is unchanged. */
let aCookie = '';
let png: Buffer;

beforeAll(async () => {
  app = await buildPaymentsApp();
  routes = routeTable(app);
  png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .png()
    .toBuffer();

  // User A: an educator with payouts, a published paid course a learner bought, a draft course.
  const a = await makePayoutEducator(app);
  aCookie = a.cookie;
  const pub = await makePublishedCourse(app, a, { course: { priceCents: 4900, title: 'Published by A' } });
  const draftTitle = `Secret draft ${randomUUID()}`;
  const draftId = await makeCourse(app, a, { title: draftTitle });
  const draftSession = await makeSession(app, a, draftId);
  const [draftClassTime] = await makeClassTimes(app, a, draftId, draftSession);

  const learner = await makeLearner(app);
  const checkout = await buy(app, learner, pub.courseId, pub.sessionId, 4900);
  const purchase = await waitFor(async () => {
    const p = await purchaseOf(app, checkout.sessionId);
    return p?.status === 'fulfilled' ? p : null;
  }, 'purchase fulfilled');
  await firstClassTookPlace(app, pub.courseId);
  expect((await putReview(app, learner, pub.courseId, { rating: 5, text: 'Lovely evenings' })).statusCode).toBe(200);
  const learnerCustomer = await customerOf(app, learner);

  const feed = await post(app, '/api/calendar/feed', undefined, { cookie: a.cookie });
  expect(feed.statusCode, feed.body).toBe(200);
  const feedFile = /feed\/([^/]+)\.ics$/.exec(feed.json().url)![1];
  const aSession = (await get(app, '/api/accounts/session', { cookie: a.cookie })).json().session.id as string;
  const learnerSession = (await get(app, '/api/accounts/session', { cookie: learner.cookie })).json().session.id as string;

  const [aNotification] = await app.database.db
    .execute<{ id: string }>(sql`select id from notification where user_id = ${a.id} and in_app order by created_at limit 1`)
    .then((r) => (r as unknown as { rows: { id: string }[] }).rows);
  expect(aNotification, "A has a notification (the learner's enrolment)").toBeDefined();
  // A's conversation with the learner: its text and the message's id are private to the two.
  const secretMessage = `Secret message ${randomUUID()}`;
  const clientId = randomUUID();
  const sent = await post(
    app,
    `/api/mailbox/conversations/${learner.id}/messages`,
    { body: secretMessage, clientId },
    { cookie: a.cookie },
  );
  expect(sent.statusCode, sent.body).toBe(201);
  const messageId = sent.json().message.id as string;
  // A's approval club, with a member going to its event: members-only for everyone else.
  const clubMember = await makeLearner(app);
  const clubId = await createClub(sendAs(app, a.cookie), clubBody({ name: 'Members-only circle of A', visibility: 'approval' }));
  await post(app, `/api/clubs/${clubId}/join`, { answer: 'Please' }, { cookie: clubMember.cookie });
  expect((await post(app, `/api/clubs/${clubId}/members/${clubMember.id}`, { action: 'approve' }, { cookie: a.cookie })).statusCode).toBe(
    200,
  );
  const clubEventTitle = `Secret club event ${randomUUID()}`;
  const [clubEventId] = await createClubEvents(sendAs(app, a.cookie), clubId, { title: clubEventTitle });
  expect(
    (await call(app, 'PUT', `/api/clubs/${clubId}/events/${clubEventId}/rsvp`, { answer: 'going' }, { cookie: clubMember.cookie }))
      .statusCode,
  ).toBe(200);

  // A certificate of A's learner in A's published course (issued as the attendance pass would).
  const certificateCode = 'A7CERT1F1CAT';
  await app.database.db.execute(sql`
    insert into certificate (code, learner_id, session_id, course_id, educator_id, learner_name, course_title, educator_name,
                             starts_on, ends_on, hours_attended, hours_total, classes_attended, classes_total)
    values (${certificateCode}, ${learner.id}, ${pub.sessionId}, ${pub.courseId}, ${a.id}, 'Learner of A', 'Published by A', 'A',
            current_date, current_date, 1.5, 1.5, 1, 1)`);

  // A's promo code for the published course.
  const code = await post(
    app,
    '/api/educator/promo-codes',
    {
      courseId: pub.courseId,
      kind: 'percent',
      percentOff: 10,
      startsAt: new Date(Date.now() - 60_000).toISOString(),
      endsAt: new Date(Date.now() + 86400_000).toISOString(),
      maxUses: 5,
    },
    { cookie: a.cookie },
  );
  expect(code.statusCode, code.body).toBe(200);

  // A's classroom of the published session: a post with a file, and the learner's reply (members only).
  const classroom = `/api/courses/${pub.courseId}/sessions/${pub.sessionId}/classroom`;
  const form = await fileForm({ data: pdfBytes(), filename: 'Secret notes.pdf', type: 'application/pdf' });
  const uploaded = await call(app, 'POST', `${classroom}/files`, form.payload, { cookie: a.cookie, headers: form.headers });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const fileId = uploaded.json().id as string;
  const classroomSecret = `Secret classroom post ${randomUUID()}`;
  const classroomPost = await post(app, `${classroom}/posts`, { body: classroomSecret, fileIds: [fileId] }, { cookie: a.cookie });
  expect(classroomPost.statusCode, classroomPost.body).toBe(201);
  const postId = classroomPost.json().id as string;
  const classroomReply = `Secret classroom reply ${randomUUID()}`;
  const replied = await post(app, `${classroom}/posts/${postId}/replies`, { body: classroomReply }, { cookie: learner.cookie });
  expect(replied.statusCode, replied.body).toBe(201);
  const replyId = replied.json().id as string;

  // A's learner profile: its name and notes are A's (and its educators') only.
  const learnerSecret = `Secret learner note ${randomUUID()}`;
  const learnerProfile = await post(
    app,
    '/api/me/learners',
    { firstName: 'Zebediah', age: '9', notes: learnerSecret },
    { cookie: a.cookie },
  );
  expect(learnerProfile.statusCode, learnerProfile.body).toBe(201);

  const common = {
    learnerProfileId: learnerProfile.json().learner.id as string,
    learnerId: learner.id,
    certificateCode,
    promoCodeId: code.json().id as string,
    promoCode: code.json().code as string,
    postId,
    replyId,
    fileId,
    clubId,
    clubEventId,
    userId: a.id,
    notificationId: aNotification.id,
    educatorId: a.id,
    authSessionId: aSession,
    feedFile,
    customer: learnerCustomer,
    connectAccount: a.accountId,
    checkoutSession: checkout.sessionId,
    email: a.email,
    messageId,
    clientId,
  };
  fixtures.published = { ...common, courseId: pub.courseId, sessionId: pub.sessionId, classTimeId: pub.classTimeIds[0] };
  fixtures.draft = { ...common, courseId: draftId, sessionId: draftSession, classTimeId: draftClassTime };
  privateMarkers = [
    a.email,
    learner.email,
    learner.id,
    learnerCustomer,
    a.accountId,
    checkout.sessionId,
    purchase.id,
    purchase.enrolment_id!,
    aSession,
    learnerSession,
    feedFile,
    draftId,
    draftTitle,
    secretMessage,
    clubEventTitle,
    clubEventId,
    clubMember.id,
    clubMember.email,
    classroomSecret,
    classroomReply,
    'Secret notes.pdf',
    learnerSecret,
    'Zebediah',
  ];
});
afterAll(async () => {
  await app?.close();
});

interface Probe {
  route: AppRoute;
  variant: Variant;
  url: string;
  body?: Record<string, unknown>;
  multipart: boolean;
}

/** Every request of the matrix for one route (one per fixture variant it depends on). */
function probesFor(route: AppRoute, problems: string[]): Probe[] {
  const query = objectProperties(inputJsonSchema(route.schema.querystring));
  const body = objectProperties(inputJsonSchema(route.schema.body));
  const queryIds = Object.entries(query)
    .filter(([name, s]) => name in FIELD_IDS || looksLikeId(name, s))
    .map(([name]) => name);
  const bodyIds = Object.entries(body)
    .filter(([name, s]) => name in FIELD_IDS || looksLikeId(name, s))
    .map(([name]) => name);
  const pathIds = route.params;
  if (!pathIds.length && !queryIds.length && !bodyIds.length) return [];

  const key = `${route.method} ${route.url}`;
  const pathSource = (name: string) => PATH_IDS[name];
  for (const name of pathIds) if (!pathSource(name)) problems.push(`${key}: no fixture for path parameter :${name} (add it to PATH_IDS)`);
  for (const name of [...queryIds, ...bodyIds])
    if (!FIELD_IDS[name]) problems.push(`${key}: no fixture for id field "${name}" (add it to FIELD_IDS)`);
  if (problems.length) return [];

  // Both variants where a course is involved (a draft is private, a published one is not).
  const usesCourse = [...pathIds, ...queryIds, ...bodyIds].some((n) =>
    /^(courseId|courseID|sessionId|classTimeId|course|session)$/.test(n),
  );
  const variants: Variant[] = usesCourse ? ['published', 'draft'] : ['published'];
  return variants.map((variant) => {
    const f = fixtures[variant];
    const values = Object.fromEntries(pathIds.map((n) => [n, pathSource(n)(f)]));
    const q = new URLSearchParams(queryIds.map((n) => [n, String(FIELD_IDS[n](f))]));
    const url = fillPath(route.url, values) + (queryIds.length ? `?${q}` : '');
    const hasBody = !!route.schema.body;
    const payload = hasBody ? { ...BODIES[key]?.(f), ...Object.fromEntries(bodyIds.map((n) => [n, FIELD_IDS[n](f)])) } : undefined;
    return { route, variant, url, body: payload, multipart: !!route.schema.consumes?.includes('multipart/form-data') };
  });
}

async function send(probe: Probe, cookie: string | undefined): Promise<Response> {
  const { method } = probe.route;
  if (probe.multipart) {
    const form = await fileForm({ data: png, filename: 'x.png', type: 'image/png' });
    return call(app, method as 'POST', probe.url, form.payload, { cookie, headers: form.headers });
  }
  return call(app, method as 'GET', probe.url, probe.body, { cookie });
}

function leaks(res: Response): string[] {
  return privateMarkers.filter((m) => res.body.includes(m));
}

describe("cross-user matrix (every route with an id, as other users, with A's ids)", () => {
  it("refuses or hides A's data on every route, with every method", async () => {
    const inScope = routes.filter((r) => r.url.startsWith('/api/') && !Object.keys(OUT_OF_SCOPE).some((p) => r.url.startsWith(p)));
    const problems: string[] = [];
    const probes = inScope.flatMap((r) => probesFor(r, problems));
    expect(problems, 'routes with ids the matrix has no fixture for').toEqual([]);
    for (const key of Object.keys(PUBLIC)) {
      expect(
        probes.some((p) => `${p.route.method} ${p.route.url}` === key),
        `PUBLIC entry ${key} matches no route`,
      ).toBe(true);
    }

    // B: an educator with payouts of their own (so "not an educator" never hides a missing
    // ownership check); C: a plain learner; and nobody signed in.
    const b = await makePayoutEducator(app);
    await makePublishedCourse(app, b);
    const c = await makeLearner(app);
    const callers: { name: string; cookie?: string }[] = [
      { name: 'B (educator)', cookie: b.cookie },
      { name: 'C (learner)', cookie: c.cookie },
      { name: 'anonymous' },
    ];

    const failures: string[] = [];
    let requests = 0;
    const statuses: Record<number, number> = {};
    for (const caller of callers) {
      for (const probe of probes) {
        const key = `${probe.route.method} ${probe.route.url}`;
        const res = await send(probe, caller.cookie);
        requests++;
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        const where = `${caller.name} ${probe.route.method} ${probe.url} [${probe.variant}] -> ${res.statusCode} ${res.body.slice(0, 160)}`;
        const pub = PUBLIC[key];
        const allowed = pub?.when.includes(probe.variant);
        if (res.statusCode >= 500) failures.push(`5xx: ${where}`);
        else if (!allowed && ![401, 403, 404].includes(res.statusCode)) failures.push(`not refused: ${where}`);
        else if (!allowed && caller.cookie && res.statusCode === 401) failures.push(`401 for a signed-in user: ${where}`);
        if (!(allowed && pub.anyData)) {
          const leaked = leaks(res);
          if (leaked.length) failures.push(`leaks ${leaked.join(', ')}: ${where}`);
        }
        if (res.statusCode >= 400 && probe.route.method !== 'HEAD') {
          const shape = (() => {
            try {
              return res.json();
            } catch {
              return null;
            }
          })();
          if (typeof shape?.error?.code !== 'string' || typeof shape?.error?.message !== 'string')
            failures.push(`error body shape: ${where}`);
        }
      }
    }
    // Reads without an id (dashboard, payments, search ...) show the caller's own data only.
    const ownReads = inScope.filter((r) => r.method === 'GET' && !r.params.length && !probes.some((p) => p.route === r));
    for (const caller of callers.filter((x) => x.cookie)) {
      for (const route of ownReads) {
        const res = await get(app, route.url, { cookie: caller.cookie });
        requests++;
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        const where = `${caller.name} GET ${route.url} -> ${res.statusCode} ${res.body.slice(0, 160)}`;
        if (res.statusCode >= 500) failures.push(`5xx: ${where}`);
        const leaked = leaks(res);
        if (leaked.length) failures.push(`leaks ${leaked.join(', ')}: ${where}`);
      }
    }
    const routesCovered = new Set(probes.map((p) => `${p.route.method} ${p.route.url}`)).size;
    console.log(
      `cross-user matrix: ${routesCovered} routes (method + path) with ids, ${probes.length} probes x ${callers.length} callers, ` +
        `+ ${ownReads.length} id-less reads x 2 = ${requests} requests (statuses ${JSON.stringify(statuses)}), ${failures.length} failures`,
    );
    expect(failures).toEqual([]);

    // What public answers do carry is the caller's own view, never A's.
    const page = await get(app, `/api/courses/${fixtures.published.courseId}`, { cookie: b.cookie });
    expect(page.json()).toMatchObject({ isOwner: false });
    expect(page.json().sessions.every((s: { myEnrolment: unknown }) => s.myEnrolment === null)).toBe(true);
    const profile = await get(app, `/api/educators/${fixtures.published.educatorId}`, { cookie: b.cookie });
    expect(profile.json()).toMatchObject({ isMe: false });
    expect(profile.body).not.toContain('Secret draft');
    const guessed = await get(app, `/api/calendar/feed/${'x'.repeat(32)}.ics`);
    expect(guessed.statusCode).toBe(404);
    // A's learner survived every other caller's edit and removal.
    const mine = await get(app, '/api/me/learners', { cookie: aCookie });
    expect(mine.json().items).toMatchObject([{ id: fixtures.published.learnerProfileId, firstName: 'Zebediah', age: '9' }]);
  });
});

describe('the matrix itself', () => {
  it('fails for a route whose id it has no fixture for (a new route cannot slip by)', () => {
    const problems: string[] = [];
    probesFor({ method: 'GET', url: '/api/widgets/:widgetId', params: ['widgetId'], schema: {} }, problems);
    expect(problems).toEqual(['GET /api/widgets/:widgetId: no fixture for path parameter :widgetId (add it to PATH_IDS)']);
  });
});
