import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { buildId } from '../http/build-info.js';
import { errorBody } from '../../shared/errors.js';
import { unreadResponse } from '../../shared/realtime-schemas.js';

export async function systemRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness with the database reachable',
        response: {
          200: z.object({ status: z.literal('ok'), database: z.string() }),
          // The database is not answering, or (the error body) the server is shutting down.
          503: z.union([z.object({ status: z.literal('unavailable'), database: z.string() }), errorBody]),
        },
      },
    },
    async (_request, reply) => {
      const ok = await app.database.ping();
      if (!ok) return reply.status(503).send({ status: 'unavailable' as const, database: app.database.kind });
      return { status: 'ok' as const, database: app.database.kind };
    },
  );

  r.get(
    '/api/version',
    {
      schema: {
        tags: ['system'],
        summary: 'The deployed build, polled by the web app, and the log-ins it offers',
        response: { 200: z.object({ buildId: z.string(), googleLogin: z.boolean() }) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { buildId: buildId(), googleLogin: app.config.google !== null };
    },
  );

  // The app shell's unread badge: every domain's counter (realtime/hub.ts), summed.
  r.get(
    '/api/me/unread',
    {
      schema: {
        tags: ['system'],
        summary: 'Unread counts for the app shell badge (messages, notifications ...) and their total',
        response: { 200: unreadResponse, 401: errorBody },
      },
    },
    async (request, reply) => {
      const viewer = await app.requireViewer(request);
      reply.header('cache-control', 'no-store');
      const counts = await app.realtime.unreadCounts(viewer.user.id);
      const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
      return { counts, total };
    },
  );
}
