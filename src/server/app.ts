import { loggerOptions, logRequests } from './http/logger.js';
import Fastify, { LogController, type FastifyInstance, type FastifyRequest } from 'fastify';
import compress from '@fastify/compress';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/client.js';
import { createMailer, queuedMailer, type Mailer } from './email/mailer.js';
import { createJobQueue, type JobQueue } from './jobs/queue.js';
import { createRealtime, type Realtime } from './realtime/hub.js';
import { createFanOut } from './realtime/fan-out.js';
import { createPresence } from './realtime/presence.js';
import type { RealtimeSockets } from './realtime/sockets.js';
import { createAuth, type Auth } from './accounts/auth.js';
import { databaseRateLimitStore } from './accounts/rate-limit-store.js';
import type { Viewer } from './accounts/viewer.js';
import { installErrorHandler, frameworkError } from './http/errors.js';
import { installRequestIds, requestIdFrom, requestLogger } from './http/request-context.js';
import { createCourseEvents, type CourseEvents } from './courses/events.js';
import { createAccountEvents, type AccountEvents } from './accounts/events.js';
import { createMailboxEvents, type MailboxEvents } from './mailbox/events.js';
import { createPaymentEvents, type PaymentEvents } from './payments/events.js';
import { createClubEvents, type ClubEvents } from './clubs/events.js';
import { createClassroomEvents, type ClassroomEvents } from './classroom/events.js';
import { createCalendarSources } from './courses/calendar.js';
import { createStripeClient } from './payments/stripe-client.js';
import { ensureCustomerInBackground } from './payments/customers.js';
import type Stripe from 'stripe';
import { createImageStore, type ImageStore } from './storage/images.js';
import { createFileStore, type FileStore } from './storage/file-store.js';
import { AVATAR_MAX_BYTES } from '../shared/accounts.js';
import { installDrain } from './composition/drain.js';
import { queueStats } from './jobs/stats.js';
import { noObserve, observedMailer, type Observe } from './metrics/observe.js';
import { createMetrics, serveMetrics } from './metrics/prometheus.js';
import type { Tracing } from './metrics/tracing.js';
import { registerRoutes } from './composition/routes.js';
import { installRequestChecks, installSecureHeaders } from './composition/security.js';
import { installSockets } from './composition/sockets.js';
import { subscribeDomains } from './composition/subscriptions.js';
import { installViewer } from './composition/viewer.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    mailer: Mailer;
    /** Durable background jobs in the app's database (jobs/queue.ts). */
    jobs: JobQueue;
    /** What the app's parts report for the metrics (metrics/observe.ts); no-ops without metrics. */
    observe: Observe;
    auth: Auth;
    images: ImageStore;
    /** Every uploaded file: disk, PostgreSQL or S3, as configured (storage/file-store.ts). */
    files: FileStore;
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
    /**
     * While draining: resolves once no request but a health check was refused for `quietMs`
     * (the balancer stopped sending here), or after `ceilingMs`.
     */
    untilUnsent(quietMs: number, ceilingMs: number): Promise<void>;
    /** True once drain() or close() began: readiness answers 503. */
    isDraining(): boolean;
    /** Pushes events to a user's open tabs (realtime/hub.ts), on every app process. */
    realtime: Realtime;
    /** This process's open WebSockets (realtime/sockets.ts). */
    realtimeSockets: RealtimeSockets;
    /*
     * The domain event buses (events/domain-events.ts). Each is announced on by its own
     * domain only, and subscribed to by the others in their `subscriptions.ts` only
     * (eslint.config.js, ADR 0036).
     */
    /** What accounts announce (accounts/events.ts). */
    accountEvents: AccountEvents;
    /** What courses announce (courses/events.ts). */
    courseEvents: CourseEvents;
    /** What the mailbox announces (mailbox/events.ts). */
    mailboxEvents: MailboxEvents;
    /** What payments announce (payments/events.ts). */
    paymentEvents: PaymentEvents;
    /** What clubs announce (clubs/events.ts). */
    clubEvents: ClubEvents;
    /** What the classroom announces (classroom/events.ts). */
    classroomEvents: ClassroomEvents;
  }
}

export interface BuildOptions {
  config: Config;
  /** An already opened database (tests share one); otherwise opened from config. */
  database?: Database;
  /** Where the log goes instead of stdout (tests read it). */
  logStream?: { write(line: string): void };
  /** OpenTelemetry, started by main.ts when OTEL_EXPORTER_OTLP_ENDPOINT is set (metrics/tracing.ts). */
  tracing?: Tracing;
}

/**
 * The whole application as one Fastify instance. The server (main.ts) only starts it;
 * tests build it and use inject(). Composition, step by step: the services every use case
 * takes (AppServices), who is signed in, shutdown, the checks every request passes, the
 * realtime socket, then every domain's subscriptions and jobs and every route
 * (src/server/composition/, docs/decisions/0036-wiring-you-can-see.md).
 */
export async function buildApp({ config, database, logStream, tracing }: BuildOptions): Promise<FastifyInstance> {
  const logger = loggerOptions(config);
  const app = Fastify({
    logger: logStream && typeof logger === 'object' ? { ...logger, transport: undefined, stream: logStream } : logger,
    // Fastify's two lines per request are replaced by logRequests' one.
    logController: new LogController({ disableRequestLogging: true }),
    // A balancer's or client's X-Request-Id when it is sane, else a new one; echoed (http/request-context.ts).
    genReqId: (req) => requestIdFrom(req.headers['x-request-id']),
    childLoggerFactory: (logger, bindings, options) => requestLogger(logger, bindings, options),
    // Only a configured proxy may say who the client is (rate limits and the device list use it).
    // Fastify ignores a bare hop count (it cannot tell the proxy from a direct client), so a
    // count is trusted as asked: the README says to use it only when the proxy is the sole way in.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    bodyLimit: 1024 * 1024,
    frameworkErrors: frameworkError,
    routerOptions: { ignoreTrailingSlash: true },
    // Requests that arrive while the server closes are refused by the drain hook (composition/drain.ts:
    // 503 shutting_down, with Retry-After), not by Fastify's own 503 in another error shape.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();
  installRequestIds(app);
  logRequests(app, config);
  // Each request a span named by its route, before any route exists (ADR 0063).
  if (tracing) await app.register(tracing.plugin);

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
      migrate: config.migrateOnStart,
      onConnectionError: (err) => app.log.warn({ err: err.message }, 'database connection lost; the pool reconnects on the next query'),
    }));
  // Prometheus metrics when METRICS_PORT or METRICS_TOKEN is set (metrics/prometheus.ts, ADR 0063).
  const metrics = config.metrics
    ? createMetrics({
        poolStats: () => db.poolStats(),
        queueStats: () => queueStats(db.db),
        socketsOpen: () => (app.hasDecorator('realtimeSockets') ? app.realtimeSockets.count() : 0),
      })
    : null;
  const observe = metrics?.observe ?? noObserve;
  if (metrics && config.metrics) {
    metrics.install(app);
    serveMetrics(app, metrics, { host: config.host, port: config.metrics.port, token: config.metrics.token });
  }
  const jobs = createJobQueue(db.db, app.log, config.jobs);
  // Over SMTP an email is a background job: no request waits on the mail server (ADR 0012).
  // The local outbox is a table insert already, as quick and as durable as the job itself.
  const directMailer = observedMailer(createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, db: db.db, log: app.log }), observe);
  const mailer = directMailer.transport === 'smtp' ? queuedMailer(directMailer, jobs) : directMailer;
  // Realtime fan-out between processes: PostgreSQL LISTEN/NOTIFY (PGlite's own in one
  // process), ADR 0018. The listener starts with the app and stops with it.
  const realtime = createRealtime({
    fanOut: createFanOut({ database: db, databaseUrl: config.databaseUrl, log: app.log }),
    presence: createPresence({ database: db, log: app.log }),
    log: app.log,
  });

  // The services every use case takes (AppServices).
  app.decorate('config', config);
  app.decorate('database', db);
  app.decorate('mailer', mailer);
  app.decorate('jobs', jobs);
  app.decorate('observe', observe);
  app.decorate('realtime', realtime);
  app.decorate(
    'auth',
    createAuth({ config, db: db.db, mailer, log: app.log, onUserSeen: (userId) => ensureCustomerInBackground(app, userId) }),
  );
  const files = createFileStore(config.storage, { dataDir: config.dataDir, database: db });
  app.decorate('files', files);
  app.decorate('images', createImageStore(files));
  app.decorate('stripe', createStripeClient(config.payments, app));
  app.decorate('accountEvents', createAccountEvents(app.log));
  app.decorate('courseEvents', createCourseEvents(app.log));
  app.decorate('mailboxEvents', createMailboxEvents(app.log));
  app.decorate('paymentEvents', createPaymentEvents(app.log));
  app.decorate('clubEvents', createClubEvents(app.log));
  app.decorate('classroomEvents', createClassroomEvents(app.log));
  installViewer(app, { config, db });
  installDrain(app);

  app.addHook('onReady', async () => {
    await realtime.start();
    await jobs.start();
    // Not fatal (the store may come up later; until then its requests answer 503), but said at once.
    void files.ping().then((ok) => {
      if (!ok) app.log.warn({ backend: files.backend }, 'file storage does not answer: uploads and /uploads/ answer 503 until it does');
    });
  });
  app.addHook('onClose', async () => {
    await jobs.stop();
    await realtime.stop();
    mailer.close();
    await files.close();
    if (!database) await db.close();
  });

  installSecureHeaders(app, config);
  await app.register(compress, { global: true, threshold: 1024 });
  // Every route's limit counts in PostgreSQL, so it holds across instances (ADR 0057).
  await app.register(rateLimit, { global: false, store: databaseRateLimitStore(db.db) });
  await app.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5 } });
  const sameOrigin = installRequestChecks(app, config);
  await installSockets(app, { config, db, realtime, sameOrigin });

  // What other domains add to a user's calendar (courses/calendar.ts): filled by their
  // subscriptions, read by the calendar's routes.
  const calendarSources = createCalendarSources();
  subscribeDomains(app, { calendarSources });
  await registerRoutes(app, { config, db, calendarSources });
  return app;
}

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}
