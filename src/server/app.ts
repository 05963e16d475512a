import { loggerOptions, logRequests } from './http/logger.js';
import Fastify, { LogController, type FastifyInstance, type FastifyRequest } from 'fastify';
import compress from '@fastify/compress';
import helmet from 'helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/client.js';
import { createMailer, queuedMailer, type Mailer } from './email/mailer.js';
import { createJobQueue, type JobQueue } from './jobs/queue.js';
import { createRealtime, type Realtime } from './realtime/hub.js';
import { createFanOut } from './realtime/fan-out.js';
import { createPresence } from './realtime/presence.js';
import { installRealtimeSockets, type RealtimeSockets } from './realtime/sockets.js';
import { createAuth, SESSION_MAX_AGE_SECONDS, sessionCookieName, type Auth } from './accounts/auth.js';
import { createViewerResolver, signedInSessions, tokenFromCookie, touchSignInSession, type Viewer } from './accounts/viewer.js';
import { installErrorHandler, AppError, frameworkError, nulBytePath } from './http/errors.js';
import { apiDocs } from './http/api-docs.js';
import { authRoutes } from './accounts/auth-routes.js';
import { adminRoutes } from './admin/routes.js';
import { accountDeletionRoutes } from './admin/account-deletion-routes.js';
import { accountRoutes } from './accounts/routes.js';
import { twoFactorRoutes } from './accounts/two-factor-routes.js';
import { accountSettingsRoutes } from './accounts/account-settings-routes.js';
import { userRoutes } from './accounts/user-routes.js';
import { courseRoutes } from './courses/routes.js';
import { createCourseEvents, type CourseEvents } from './courses/events.js';
import { createAccountEvents, type AccountEvents } from './accounts/events.js';
import { createMailboxEvents, type MailboxEvents } from './mailbox/events.js';
import { createPaymentEvents, type PaymentEvents } from './payments/events.js';
import { startMailboxRealtime } from './mailbox/live.js';
import { mailboxRoutes } from './mailbox/routes.js';
import { registerUnreadReminder } from './mailbox/unread-reminder.js';
import { createClubEvents, type ClubEvents } from './clubs/events.js';
import { clubRoutes } from './clubs/routes.js';
import { registerClubJobs } from './clubs/reminders.js';
import { courseSearchRoutes } from './courses/search-routes.js';
import { educatorRoutes } from './educators/routes.js';
import { systemRoutes } from './system/routes.js';
import { landingRoutes } from './system/landing-routes.js';
import { contactRoutes } from './contact/routes.js';
import { subscribeContactErasure } from './contact/erasure.js';
import { subscribeClubErasure } from './clubs/erasure.js';
import { subscribeCourseErasure } from './courses/erasure.js';
import { subscribeMailboxErasure } from './mailbox/erasure.js';
import { subscribeNotificationErasure } from './notifications/erasure.js';
import { devRoutes } from './dev/routes.js';
import { benchRoutes } from './dev/bench-routes.js';
import { pageRoutes } from './pages/routes.js';
import { paymentRoutes } from './payments/routes.js';
import { notificationRoutes } from './notifications/routes.js';
import { registerNotificationJobs } from './notifications/email-jobs.js';
import { analyticsRoutes } from './analytics/routes.js';
import { countCoursePageViews } from './analytics/page-views.js';
import { createStripeClient } from './payments/stripe-client.js';
import { ensureCustomerInBackground } from './payments/customers.js';
import type Stripe from 'stripe';
import { createImageStore, type ImageStore } from './storage/images.js';
import { AVATAR_MAX_BYTES } from '../shared/accounts.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    mailer: Mailer;
    /** Durable background jobs in the app's database (jobs/queue.ts). */
    jobs: JobQueue;
    auth: Auth;
    images: ImageStore;
    /** Resolves a Cookie header to the signed-in user (one query), or null. */
    viewerFromCookie(cookieHeader: string | undefined): Promise<Viewer | null>;
    /** The signed-in user of this request, or null. */
    resolveViewer(request: FastifyRequest): Promise<Viewer | null>;
    /** The signed-in user, or a 401. */
    requireViewer(request: FastifyRequest): Promise<Viewer>;
    /**
     * requireViewer in the caller's own statement, one round trip for a hot route: `load` is
     * given the cookie's verified session token, reads the viewer with viewerBySessionToken
     * (accounts/viewer.ts) beside its own data, and returns both (not called without a valid
     * cookie). A 401 when there is no viewer, before anything else.
     */
    requireViewerWith<T>(
      request: FastifyRequest,
      load: (token: string) => Promise<{ viewer: Viewer | null; data: T }>,
    ): Promise<{ viewer: Viewer; data: T }>;
    /** The viewer this request already resolved (undefined: it never asked). */
    resolvedViewer(request: FastifyRequest): Viewer | null | undefined;
    /** The Stripe SDK client (real Stripe, or the payments sandbox of this server). */
    stripe(): Stripe;
    /**
     * Graceful shutdown, before close(): new requests answer 503 and those in flight are
     * waited for (at most `ceilingMs`), so close() never cuts one half way.
     */
    drain(ceilingMs?: number): Promise<void>;
    /** Pushes events to a user's open tabs (realtime/hub.ts), on every app process. */
    realtime: Realtime;
    /** This process's open WebSockets (realtime/sockets.ts). */
    realtimeSockets: RealtimeSockets;
    /** What accounts announce; other domains subscribe at start-up (accounts/events.ts). */
    accountEvents: AccountEvents;
    /** What courses announce; other domains subscribe at start-up (courses/events.ts). */
    courseEvents: CourseEvents;
    /** What the mailbox announces; notifications subscribe at start-up (mailbox/events.ts). */
    mailboxEvents: MailboxEvents;
    /** What payments announce; notifications subscribe at start-up (payments/events.ts). */
    paymentEvents: PaymentEvents;
    /** What clubs announce; notifications subscribe at start-up (clubs/events.ts). */
    clubEvents: ClubEvents;
  }
}

export interface BuildOptions {
  config: Config;
  /** An already opened database (tests share one); otherwise opened from config. */
  database?: Database;
}

/**
 * The whole application as one Fastify instance. The server (main.ts) only starts it;
 * tests build it and use inject().
 */
export async function buildApp({ config, database }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config),
    // Fastify's two lines per request are replaced by logRequests' one.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (req) => (typeof req.headers['x-request-id'] === 'string' ? req.headers['x-request-id'].slice(0, 64) : randomUUID()),
    // Only a configured proxy may say who the client is (rate limits and the device list use it).
    // Fastify ignores a bare hop count (it cannot tell the proxy from a direct client), so a
    // count is trusted as asked: the README says to use it only when the proxy is the sole way in.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    bodyLimit: 1024 * 1024,
    frameworkErrors: frameworkError,
    routerOptions: { ignoreTrailingSlash: true },
    // Requests that arrive while the server closes are refused by the drain hook below (503
    // shutting_down, with Retry-After), not by Fastify's own 503 in another error shape.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();
  logRequests(app, config);

  // An empty JSON body (a POST that needs no input) is no body, not an error.
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    jsonParser(request, text, done);
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);

  const db =
    database ??
    (await openDatabase({
      url: config.databaseUrl,
      dataDir: config.dataDir,
      timeouts: config.databaseTimeouts,
      onConnectionError: (err) => app.log.warn({ err: err.message }, 'database connection lost; the pool reconnects on the next query'),
    }));
  const jobs = createJobQueue(db.db, app.log);
  // Over SMTP an email is a background job: no request waits on the mail server (ADR 0012).
  // The local outbox is a table insert already, as quick and as durable as the job itself.
  const directMailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, db: db.db, log: app.log });
  const mailer = directMailer.transport === 'smtp' ? queuedMailer(directMailer, jobs) : directMailer;
  const auth = createAuth({ config, db: db.db, mailer, log: app.log, onUserSeen: (userId) => ensureCustomerInBackground(app, userId) });
  const viewerFromCookie = createViewerResolver(db, sessionCookieName(config), config.authSecret);
  // The viewer each request resolved, so an onResponse hook (page-view counting) reads it without a second query.
  const resolved = new WeakMap<FastifyRequest, Viewer | null>();
  const adoptViewer = (request: FastifyRequest, viewer: Viewer | null) => {
    resolved.set(request, viewer);
    if (viewer) {
      touchSignInSession(db.db, viewer, SESSION_MAX_AGE_SECONDS).catch((err) => request.log.warn({ err }, 'could not touch session'));
    }
    return viewer;
  };
  const resolveViewer = async (request: FastifyRequest) => adoptViewer(request, await viewerFromCookie(request.headers.cookie));
  const sessionEnded = () => new AppError(401, 'unauthorized', 'Your session has ended. Please log in again.');

  app.decorate('config', config);
  app.decorate('database', db);
  app.decorate('mailer', mailer);
  app.decorate('jobs', jobs);
  // Realtime fan-out between processes: PostgreSQL LISTEN/NOTIFY (PGlite's own in one
  // process), ADR 0018. The listener starts with the app and stops with it.
  const realtime = createRealtime({
    fanOut: createFanOut({ database: db, databaseUrl: config.databaseUrl, log: app.log }),
    presence: createPresence({ database: db, log: app.log }),
    log: app.log,
  });
  app.decorate('realtime', realtime);
  app.decorate('auth', auth);
  app.decorate('images', createImageStore(config.dataDir));
  app.decorate('viewerFromCookie', viewerFromCookie);
  app.decorate('resolveViewer', resolveViewer);
  app.decorate('resolvedViewer', (request: FastifyRequest) => resolved.get(request));
  app.decorate('stripe', createStripeClient(config.payments, app));
  app.decorate('accountEvents', createAccountEvents(app.log));
  app.decorate('courseEvents', createCourseEvents(app.log));
  app.decorate('mailboxEvents', createMailboxEvents(app.log));
  app.decorate('paymentEvents', createPaymentEvents(app.log));
  app.decorate('clubEvents', createClubEvents(app.log));
  registerClubJobs(app);
  app.decorate('requireViewer', async (request) => {
    const viewer = await resolveViewer(request);
    if (!viewer) throw sessionEnded();
    return viewer;
  });
  app.decorate(
    'requireViewerWith',
    async <T>(request: FastifyRequest, load: (token: string) => Promise<{ viewer: Viewer | null; data: T }>) => {
      const token = tokenFromCookie(request.headers.cookie, sessionCookieName(config), config.authSecret);
      const loaded = token ? await load(token) : null;
      const viewer = adoptViewer(request, loaded?.viewer ?? null);
      if (!viewer || !loaded) throw sessionEnded();
      return { viewer, data: loaded.data };
    },
  );

  // Requests in flight, for drain(). The payments sandbox's API (/v1) is called by this
  // server's own requests through the SDK: it keeps answering while they finish, and is not
  // counted (a request waiting on it would otherwise wait on itself).
  let draining = false;
  let inFlight = 0;
  let onDrained: (() => void) | null = null;
  const counted = new WeakSet<FastifyRequest>();
  const finished = (request: FastifyRequest) => {
    if (counted.delete(request) && --inFlight === 0) onDrained?.();
  };
  app.addHook('onRequest', async (request, reply) => {
    // A WebSocket lives as long as the tab: it is closed on shutdown, not waited for.
    if (request.routeOptions.url?.startsWith('/v1/') || request.routeOptions.url === REALTIME_ROUTE) return;
    if (draining) {
      reply.header('connection', 'close');
      throw new AppError(503, 'shutting_down', 'The server is restarting. Please try again in a moment.', { retryAfterSeconds: 5 });
    }
    counted.add(request);
    inFlight++;
  });
  app.addHook('preClose', async () => {
    draining = true;
  });
  app.addHook('onResponse', async (request) => finished(request));
  app.addHook('onRequestAbort', async (request) => finished(request));
  app.decorate('drain', async (ceilingMs = 15_000) => {
    draining = true;
    if (inFlight === 0) return;
    await new Promise<void>((resolve) => {
      onDrained = resolve;
      setTimeout(resolve, ceilingMs).unref();
    });
  });

  app.addHook('onReady', async () => {
    await realtime.start();
    await jobs.start();
  });
  app.addHook('onClose', async () => {
    await jobs.stop();
    await realtime.stop();
    mailer.close();
    if (!database) await db.close();
  });

  // Secure headers, computed once (the Fastify wrapper rebuilt them on every request).
  // Real Stripe: Embedded Checkout loads Stripe.js and frames from stripe.com.
  const stripeJs = config.payments.mode === 'stripe' ? ['https://js.stripe.com'] : [];
  const stripeFrames = config.payments.mode === 'stripe' ? ['https://js.stripe.com', 'https://*.stripe.com'] : [];
  const stripeApi = config.payments.mode === 'stripe' ? ['https://api.stripe.com', 'https://*.stripe.com'] : [];
  const secureHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...stripeJs],
        frameSrc: ["'self'", ...stripeFrames],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...(config.payments.mode === 'stripe' ? ['https://*.stripe.com'] : [])],
        connectSrc: ["'self'", ...stripeApi],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: config.production ? [] : null,
      },
    },
    hsts: config.production,
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) =>
    secureHeaders(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined)),
  );
  await app.register(compress, { global: true, threshold: 1024 });
  await app.register(rateLimit, { global: false });
  await app.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5 } });

  const sameOrigin = (request: FastifyRequest) => {
    const origin = request.headers.origin;
    const fetchSite = request.headers['sec-fetch-site'];
    // A form posted by one of our own pages says `Origin: null` (our Referrer-Policy is
    // no-referrer); the browser's Sec-Fetch-Site, which no page can forge, says where it came from.
    const ours =
      origin === config.publicUrl || isSameHost(origin, request.headers.host) || (origin === 'null' && fetchSite === 'same-origin');
    return origin ? ours : fetchSite !== 'cross-site';
  };

  // CSRF defence besides SameSite=Lax, decided on the routed path (the raw URL can spell it
  // differently: /%61pi/...). Every state-changing request must come from our own origin,
  // and a JSON endpoint refuses the content types a plain HTML form can send.
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const route = request.routeOptions.url ?? '';
    // better-auth checks origins itself; the Stripe webhook is server to server and signed.
    if (route.startsWith('/api/auth/') || route === STRIPE_WEBHOOK) return;
    if (!sameOrigin(request)) {
      throw new AppError(403, 'bad_origin', 'This request came from another site and was refused');
    }
    if (route.startsWith('/api/')) {
      const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      const uploads = (request.routeOptions.schema as { consumes?: string[] } | undefined)?.consumes?.includes('multipart/form-data');
      // A route that takes a form on purpose (the one-click unsubscribe of RFC 8058) says so.
      const forms =
        (request.routeOptions.config as { acceptsForms?: boolean } | undefined)?.acceptsForms &&
        type === 'application/x-www-form-urlencoded';
      if (FORM_TYPES.has(type) && !(uploads && type === 'multipart/form-data') && !forms) {
        throw new AppError(415, 'unsupported_media_type', 'Send this request as JSON (Content-Type: application/json)');
      }
    }
  });

  // A NUL character in any text (body, query, path) is refused here, in one place: PostgreSQL
  // cannot store it. Raw bodies (better-auth's routes, the webhook) and the sandbox are theirs.
  app.addHook('preValidation', async (request) => {
    const route = request.routeOptions.url ?? '';
    if (route.startsWith('/api/auth/') || route === STRIPE_WEBHOOK || route.startsWith('/v1/') || route.startsWith('/sandbox/')) return;
    const field = nulBytePath(request.params) ?? nulBytePath(request.query) ?? nulBytePath(request.body);
    if (field)
      throw new AppError(400, 'invalid_input', `${field}: must not contain a NUL character`, {
        fields: { [field]: 'must not contain a NUL character' },
      });
  });

  // The realtime socket: signed in by the session cookie, same origin rule as every write
  // (a WebSocket upgrade is a GET the browser sends cross-site with cookies).
  app.decorate(
    'realtimeSockets',
    await installRealtimeSockets(app, {
      realtime,
      sameOrigin,
      authenticate: async (cookie) => {
        const viewer = await viewerFromCookie(cookie);
        return viewer && { userId: viewer.user.id, sessionId: viewer.signInSessionId };
      },
      signedInSessions: (sessions) => signedInSessions(db.db, sessions),
      // Soon, and once the longest statement that began before the socket's user was present has ended.
      catchUpAgainMs: [2_000, config.databaseTimeouts.statementMs + 1_000],
    }),
  );
  // A user's open sockets close promptly when their sessions end (this process or another):
  // the routes that end sessions ask every process to re-check that user's sockets.
  const endsSessionsOf = new WeakMap<FastifyRequest, { userId: string; signedOutSessionId?: string }>();
  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url ?? '';
    if (SAFE_METHODS.has(request.method)) return;
    if (ENDS_OWN_SESSIONS.has(route)) {
      const viewer = await viewerFromCookie(request.headers.cookie).catch(() => null);
      // A sign-out ends the caller's own session: its browser's sockets are told "signed out",
      // not "expired" (every tab of that browser shares the session).
      if (viewer)
        endsSessionsOf.set(request, { userId: viewer.user.id, ...(route === SIGN_OUT && { signedOutSessionId: viewer.signInSessionId }) });
    }
  });
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode >= 400) return;
    const route = request.routeOptions.url ?? '';
    const ended: { userId?: string; signedOutSessionId?: string } | undefined = ENDS_USER_SESSIONS.has(route)
      ? { userId: (request.params as { userId?: string }).userId }
      : endsSessionsOf.get(request);
    if (ended?.userId) await realtime.recheckSessions(ended.userId, ended.signedOutSessionId);
  });

  // Course page views (analytics/page-views.ts): counted after the answer is sent, flushed in batches.
  countCoursePageViews(app);
  if (config.devTools) await app.register(apiDocs);
  await app.register(authRoutes);
  await app.register(systemRoutes);
  await app.register(landingRoutes);
  await app.register(accountRoutes);
  await app.register(twoFactorRoutes);
  await app.register(accountSettingsRoutes);
  await app.register(userRoutes);
  await app.register(educatorRoutes);
  await app.register(courseSearchRoutes);
  await app.register(courseRoutes);
  await app.register(paymentRoutes);
  await app.register(notificationRoutes);
  // The jobs behind notification emails: at once, the daily digest, a message still unread (ADR 0015).
  registerNotificationJobs(app);
  await app.register(mailboxRoutes);
  // A message still unread after a while: announced once per conversation (ADR 0029).
  registerUnreadReminder(app);
  startMailboxRealtime(app);
  await app.register(contactRoutes);
  await app.register(clubRoutes);
  // Erasing an account reaches every domain holding its rows, inside the erasing
  // transaction (ADR 0024). Notifications last: what the others announce to the erased user goes too.
  subscribeCourseErasure(app);
  subscribeMailboxErasure(app);
  subscribeClubErasure(app);
  subscribeContactErasure(app);
  subscribeNotificationErasure(app);
  await app.register(analyticsRoutes);
  await app.register(adminRoutes);
  await app.register(accountDeletionRoutes);
  if (config.payments.mode === 'sandbox' && !config.production) {
    // Imported only here: with a Stripe key set, the sandbox's code is never loaded.
    const { stripeSandbox } = await import('@agora/stripe-sandbox');
    await app.register(stripeSandbox, {
      database: db.db,
      secretKey: config.payments.secretKey,
      webhookSecret: config.payments.webhookSecret,
      connectWebhookSecret: config.payments.connectWebhookSecret,
      webhookUrl: '/api/stripe/webhook',
      publicUrl: config.publicUrl,
    });
  }
  if (config.devTools) await app.register(devRoutes);
  if (config.benchRoutes) await app.register(benchRoutes);
  await app.register(pageRoutes);

  return app;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const REALTIME_ROUTE = '/api/realtime';
/** Signing out ends the caller's own session: its sockets close as "signed out" (ADR 0023). */
const SIGN_OUT = '/api/accounts/sign-out';
/** Routes that end some of the caller's sessions: their sockets are re-checked after. */
const ENDS_OWN_SESSIONS = new Set([
  SIGN_OUT,
  '/api/accounts/sessions/:signInSessionId',
  '/api/accounts/sessions/revoke-others',
  '/api/accounts/sessions/revoke-all',
  '/api/accounts/password',
]);
/** Admin routes that end a user's sessions (the user is the path's :userId). */
const ENDS_USER_SESSIONS = new Set(['/api/admin/users/:userId/ban', '/api/admin/users/:userId/delete']);
const STRIPE_WEBHOOK = '/api/stripe/webhook';
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

function isSameHost(origin: string | undefined, host: string | undefined): boolean {
  try {
    return !!origin && !!host && new URL(origin).host === host;
  } catch {
    return false;
  }
}
