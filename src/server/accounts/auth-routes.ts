import type { FastifyInstance } from 'fastify';

/**
 * Mounts better-auth's own endpoints (email-verification link, password-reset link,
 * Google redirect flow, sign-out, session) under /api/auth/*, in a scope that keeps the
 * raw body so the library parses it itself.
 */
export async function authRoutes(app: FastifyInstance) {
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
