import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config.js';
import { AppError, nulBytePath } from '../http/errors.js';

export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const STRIPE_WEBHOOK = '/api/stripe/webhook';
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

/** Whether a request comes from our own origin (the CSRF rule; the realtime socket's too). */
export type SameOrigin = (request: FastifyRequest) => boolean;

/** Secure headers on every answer (helmet's, computed once). */
export function installSecureHeaders(app: FastifyInstance, config: Config) {
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
        imgSrc: [
          "'self'",
          'data:',
          'blob:',
          ...(config.payments.mode === 'stripe' ? ['https://*.stripe.com'] : []),
          // Uploaded files redirect to a CDN when S3_PUBLIC_BASE_URL is set (storage/serve.ts).
          ...(config.storage.backend === 's3' && config.storage.s3.publicBaseUrl ? [new URL(config.storage.s3.publicBaseUrl).origin] : []),
        ],
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
}

/**
 * The checks every request passes before its route (docs/architecture.md): the same-origin
 * and content-type rule for every write (CSRF), and the NUL-byte check. Answers the
 * same-origin rule, which the realtime socket applies to its upgrade too.
 */
export function installRequestChecks(app: FastifyInstance, config: Config): SameOrigin {
  const sameOrigin: SameOrigin = (request) => {
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
  return sameOrigin;
}

function isSameHost(origin: string | undefined, host: string | undefined): boolean {
  try {
    return !!origin && !!host && new URL(origin).host === host;
  } catch {
    return false;
  }
}
