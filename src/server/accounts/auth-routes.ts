import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../http/errors.js';
import { forwardCookies, toHeaders } from '../http/headers.js';

/** Only same-site relative paths are accepted as where a flow returns. */
const relativePath = z
  .string()
  .max(2048)
  .refine((v) => v.startsWith('/') && !v.startsWith('//') && !v.startsWith('/\\'), 'must be a path on this site');

/** Text from a link: bounded, and never a NUL (PostgreSQL cannot store it). */
const linkText = z
  .string()
  .max(4096)
  .refine((v) => !v.includes('\0'), 'must not contain a NUL character');

const oauth2SignInBody = z.object({
  providerId: z.string().min(1),
  callbackURL: relativePath.optional(),
  errorCallbackURL: relativePath.optional(),
  newUserCallbackURL: relativePath.optional(),
});

const linkLimit = { rateLimit: { max: 60, timeWindow: '1 minute' } };
const hidden = { hide: true };

/**
 * The only endpoints of better-auth reachable over HTTP (docs/decisions/0012): starting
 * "Continue with Google", and the three GETs a browser arrives at from outside (the
 * verification link and the password-reset link of our emails, Google's redirect back).
 * Everything else the library offers (sessions with their tokens, change-password,
 * update-user, its own emails...) answers 404: our routes under /api/accounts and
 * /api/users do that work with our validation, messages and limits.
 */
export async function authRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // "Continue with Google": starts the redirect flow of a generic OAuth provider and
  // answers { url, redirect }. The library serves this as /sign-in/social { provider };
  // the web app and its tests use /sign-in/oauth2 { providerId }.
  r.post(
    '/api/auth/sign-in/oauth2',
    {
      config: linkLimit,
      schema: { ...hidden, body: oauth2SignInBody },
    },
    async (request, reply) => {
      const { providerId, ...urls } = request.body;
      const { headers, response } = await app.auth.api.signInSocial({
        body: { provider: providerId, ...urls },
        headers: toHeaders(request),
        returnHeaders: true,
      });
      forwardCookies(headers, reply);
      return response;
    },
  );

  // The emailed verification link (signs in on success and redirects to callbackURL).
  r.get(
    '/api/auth/verify-email',
    {
      config: linkLimit,
      schema: { ...hidden, querystring: z.object({ token: linkText, callbackURL: relativePath }) },
    },
    (request, reply) => forward(app, request, reply),
  );

  // The emailed password-reset link: redirects to our page with the token (or an error).
  r.get(
    '/api/auth/reset-password/:token',
    {
      config: linkLimit,
      schema: { ...hidden, params: z.object({ token: linkText }), querystring: z.object({ callbackURL: relativePath }) },
    },
    (request, reply) => forward(app, request, reply),
  );

  // The identity provider's redirect back (code and state, or an error).
  r.get(
    '/api/auth/callback/:providerId',
    {
      config: linkLimit,
      schema: { ...hidden, params: z.object({ providerId: z.enum(['google']) }), querystring: z.record(z.string(), linkText) },
    },
    (request, reply) => forward(app, request, reply),
  );

  // The library's own error page, where a failed OAuth callback used to land (a JSON 404):
  // the person goes to the Google login page, which says 'Google Auth Error' (issue 23).
  r.get('/api/auth/error', { schema: { ...hidden, querystring: z.record(z.string(), linkText) } }, (request, reply) => {
    const code = request.query.error ?? '';
    reply.redirect(`/google-login?error=${/^[\w-]{1,64}$/.test(code) ? code : 'unknown'}`);
  });

  // Every other path of the library is not found, whatever the body (hence no parsing
  // here); without this the page routes would answer an unknown GET with the app.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
    scope.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: '/api/auth/*',
      schema: hidden,
      handler: async () => {
        throw AppError.notFound();
      },
    });
  });
}

/**
 * Hands a validated request to the library with our idea of the client's address
 * (toHeaders sets X-Forwarded-For from request.ip, never the client's own header).
 */
async function forward(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  const response = await app.auth.handler(
    new Request(new URL(request.url, app.config.publicUrl), { method: 'GET', headers: toHeaders(request) }),
  );
  reply.status(response.status);
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie' && key !== 'content-length' && key !== 'content-encoding') reply.header(key, value);
  });
  forwardCookies(response.headers, reply);
  const text = await response.text();
  if (response.status >= 500) {
    request.log.error({ status: response.status, body: text }, 'auth library error');
    throw new AppError(500, 'internal', 'Internal Server Error');
  }
  // A link's answer is a redirect, an error is passed on; a success body of the library
  // is not (it can carry the session).
  if (response.status >= 400) return reply.send(text);
  return reply.send(response.status >= 300 ? '' : JSON.stringify({ ok: true }));
}
