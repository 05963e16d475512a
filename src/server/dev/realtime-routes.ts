import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../shared/errors.js';

/**
 * Development tools for realtime (never in production): push a test event to yourself,
 * and set a "dev" unread counter so the app shell's badge can be seen (and tested) moving
 * before any domain counts unread things. The counter lives in this process's memory: a
 * tool for one dev server, not a feature.
 */
export async function devRealtimeRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['development'];

  r.post(
    '/api/dev/realtime/echo',
    {
      schema: {
        tags,
        summary: 'Publish a dev.echo event to your own open tabs (through the fan-out)',
        body: z.object({ note: z.string().max(200).default('') }).default({ note: '' }),
        response: { 200: z.object({ ok: z.literal(true) }), 401: errorBody },
      },
    },
    async (request) => {
      const viewer = await app.requireViewer(request);
      await app.realtime.publish(viewer.user.id, { type: 'dev.echo', note: request.body.note, sentAt: Date.now() });
      return { ok: true as const };
    },
  );

  const devUnread = new Map<string, number>();
  let registered = false;
  r.put(
    '/api/dev/realtime/unread',
    {
      schema: {
        tags,
        summary: 'Set your "dev" unread counter (adds to the badge) and announce unread.changed',
        body: z.object({ count: z.number().int().min(0).max(10_000) }),
        response: { 200: z.object({ ok: z.literal(true) }), 401: errorBody },
      },
    },
    async (request) => {
      const viewer = await app.requireViewer(request);
      if (!registered) {
        registered = true;
        app.realtime.registerUnreadCounter('dev', async (userId) => devUnread.get(userId) ?? 0);
      }
      devUnread.set(viewer.user.id, request.body.count);
      await app.realtime.publish(viewer.user.id, { type: 'unread.changed' });
      return { ok: true as const };
    },
  );
}
