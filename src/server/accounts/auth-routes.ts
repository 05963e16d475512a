import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forwardCookies, toHeaders } from '../http/headers.js';

/** Only same-site relative paths are accepted as where the Google flow returns. */
const relativePath = z
  .string()
  .refine((v) => v.startsWith('/') && !v.startsWith('//') && !v.startsWith('/\\'), 'must be a path on this site');

const oauth2SignInBody = z.object({
  providerId: z.string().min(1),
  callbackURL: relativePath.optional(),
  errorCallbackURL: relativePath.optional(),
  newUserCallbackURL: relativePath.optional(),
});

/**
 * Mounts better-auth's own endpoints (email-verification link, password-reset link,
 * Google redirect flow, sign-out, session) under /api/auth/*, in a scope that keeps the
 * raw body so the library parses it itself.
 */
export async function authRoutes(app: FastifyInstance) {
  // "Continue with Google": starts the redirect flow of a generic OAuth provider and
  // answers { url, redirect }. The library serves this as /sign-in/social { provider };
  // the web app and its tests use /sign-in/oauth2 { providerId }.
  app.withTypeProvider<ZodTypeProvider>().post('/api/auth/sign-in/oauth2', {
    config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
    schema: { hide: true, body: oauth2SignInBody },
  }, async (request, reply) => {
    const { providerId, ...urls } = request.body;
    const { headers, response } = await app.auth.api.signInSocial({
      body: { provider: providerId, ...urls },
      headers: toHeaders(request),
      returnHeaders: true,
    });
    forwardCookies(headers, reply);
    return response;
  });

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

    scope.route({
      method: ['GET', 'POST'],
      url: '/api/auth/*',
      schema: { hide: true },
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      handler: async (request, reply) => {
        const url = new URL(request.url, app.config.publicUrl);
        const headers = new Headers();
        for (const [key, value] of Object.entries(request.headers)) {
          if (value === undefined) continue;
          headers.set(key, Array.isArray(value) ? value.join(', ') : value);
        }
        const body = request.method === 'GET' ? undefined : (request.body as Buffer | undefined);
        const response = await app.auth.handler(
          new Request(url, { method: request.method, headers, body: body?.length ? new Uint8Array(body) : undefined }),
        );
        reply.status(response.status);
        response.headers.forEach((value, key) => {
          if (key !== 'set-cookie' && key !== 'content-length' && key !== 'content-encoding') reply.header(key, value);
        });
        const cookies = response.headers.getSetCookie();
        if (cookies.length) reply.header('set-cookie', cookies);
        const text = await response.text();
        if (response.status >= 500) request.log.error({ status: response.status, body: text }, 'auth library error');
        return reply.send(response.status >= 500 ? JSON.stringify({ error: { code: 'internal', message: 'Internal Server Error' } }) : text);
      },
    });
  });
}
