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
        summary: 'The database reachable (kept for existing monitors; probes use /api/health/live and /api/health/ready)',
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
    '/api/health/live',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness: the process answers (no database asked); restart the instance only when this fails',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok' as const };
    },
  );

  const readiness = z.object({
    status: z.enum(['ok', 'unavailable']),
    database: z.enum(['reachable', 'unreachable']),
    migrations: z.enum(['current', 'pending', 'unknown']),
    draining: z.boolean(),
  });
  r.get(
    '/api/health/ready',
    {
      schema: {
        tags: ['system'],
        summary: 'Readiness: the database answers, every migration of this build is applied, and the instance is not draining',
        response: { 200: readiness, 503: readiness },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      const draining = app.isDraining();
      const [reachable, current] = await Promise.all([app.database.ping(), withinMs(app.database.schemaCurrent(), 2000, false)]);
      const body = {
        database: reachable ? ('reachable' as const) : ('unreachable' as const),
        migrations: !reachable ? ('unknown' as const) : current ? ('current' as const) : ('pending' as const),
        draining,
      };
      const ok = reachable && current && !draining;
      return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', ...body });
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

/** `promise`'s value, or `fallback` when it takes longer than `ms` (a hung database) or fails. */
function withinMs<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.catch(() => fallback),
    new Promise<T>((resolve) => {
      timer = setTimeout(() => resolve(fallback), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
