import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import compress from '@fastify/compress';
import helmet from 'helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/client.js';
import { createMailer, type Mailer } from './email/mailer.js';
import { createAuth, SESSION_MAX_AGE_SECONDS, sessionCookieName, type Auth } from './accounts/auth.js';
import { createViewerResolver, touchSignInSession, type Viewer } from './accounts/viewer.js';
import { installErrorHandler, AppError } from './http/errors.js';
import { apiDocs } from './http/api-docs.js';
import { authRoutes } from './accounts/auth-routes.js';
import { accountRoutes } from './accounts/routes.js';
import { userRoutes } from './accounts/user-routes.js';
import { courseRoutes } from './courses/routes.js';
import { createCourseEvents, type CourseEvents } from './courses/events.js';
import { courseSearchRoutes } from './courses/search-routes.js';
import { educatorRoutes } from './educators/routes.js';
import { systemRoutes } from './system/routes.js';
import { devRoutes } from './dev/routes.js';
import { benchRoutes } from './dev/bench-routes.js';
import { pageRoutes } from './http/pages.js';
import { paymentRoutes } from './payments/routes.js';
import { paymentsSandbox } from './payments-sandbox/index.js';
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
    auth: Auth;
    images: ImageStore;
    /** Resolves a Cookie header to the signed-in user (one query), or null. */
    viewerFromCookie(cookieHeader: string | undefined): Promise<Viewer | null>;
    /** The signed-in user of this request, or null. */
    resolveViewer(request: FastifyRequest): Promise<Viewer | null>;
    /** The signed-in user, or a 401. */
    requireViewer(request: FastifyRequest): Promise<Viewer>;
    /** The Stripe SDK client (real Stripe, or the payments sandbox of this server). */
    stripe(): Stripe;
    /** What courses announce; other domains subscribe at start-up (courses/events.ts). */
    courseEvents: CourseEvents;
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
    logger: { level: config.logLevel },
    genReqId: (req) => (typeof req.headers['x-request-id'] === 'string' ? req.headers['x-request-id'].slice(0, 64) : randomUUID()),
    trustProxy: config.production,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

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

  const db = database ?? (await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir }));
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, db: db.db, log: app.log });
  const auth = createAuth({ config, db: db.db, mailer, log: app.log, onUserSeen: (userId) => ensureCustomerInBackground(app, userId) });
  const viewerFromCookie = createViewerResolver(db.db, sessionCookieName(config), config.authSecret);
  const resolveViewer = async (request: FastifyRequest) => {
    const viewer = await viewerFromCookie(request.headers.cookie);
    if (viewer) {
      touchSignInSession(db.db, viewer, SESSION_MAX_AGE_SECONDS).catch((err) => request.log.warn({ err }, 'could not touch session'));
    }
    return viewer;
  };

  app.decorate('config', config);
  app.decorate('database', db);
  app.decorate('mailer', mailer);
  app.decorate('auth', auth);
  app.decorate('images', createImageStore(config.dataDir));
  app.decorate('viewerFromCookie', viewerFromCookie);
  app.decorate('resolveViewer', resolveViewer);
  app.decorate('stripe', createStripeClient(config.payments, app));
  app.decorate('courseEvents', createCourseEvents(app.log));
  app.decorate('requireViewer', async (request) => {
    const viewer = await resolveViewer(request);
    if (!viewer) throw new AppError(401, 'unauthorized', 'Your session has ended. Please log in again.');
    return viewer;
  });

  app.addHook('onClose', async () => {
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
  app.addHook('onRequest', (request, reply, done) => secureHeaders(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined)));
  await app.register(compress, { global: true, threshold: 1024 });
  await app.register(rateLimit, { global: false });
  await app.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5 } });

  // Same-origin check for every state-changing API call (CSRF defence besides SameSite=Lax).
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/') || request.url.startsWith('/api/auth/')) return;
    if (['GET', 'HEAD', 'OPTIONS'].includes(request.method)) return;
    const origin = request.headers.origin;
    if (origin && origin !== config.publicUrl && !isSameHost(origin, request.headers.host)) {
      throw new AppError(403, 'bad_origin', 'This request came from another site and was refused');
    }
    if (!origin && request.headers['sec-fetch-site'] === 'cross-site') {
      throw new AppError(403, 'bad_origin', 'This request came from another site and was refused');
    }
  });

  if (config.devTools) await app.register(apiDocs);
  await app.register(authRoutes);
  await app.register(systemRoutes);
  await app.register(accountRoutes);
  await app.register(userRoutes);
  await app.register(educatorRoutes);
  await app.register(courseSearchRoutes);
  await app.register(courseRoutes);
  await app.register(paymentRoutes);
  if (config.payments.mode === 'sandbox' && !config.production) await app.register(paymentsSandbox);
  if (config.devTools) await app.register(devRoutes);
  if (config.benchRoutes) await app.register(benchRoutes);
  await app.register(pageRoutes);

  return app;
}

function isSameHost(origin: string, host: string | undefined): boolean {
  try {
    return !!host && new URL(origin).host === host;
  } catch {
    return false;
  }
}
