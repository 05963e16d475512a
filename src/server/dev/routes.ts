import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emailOutbox } from '../db/schema/email.js';
import { devRealtimeRoutes } from './realtime-routes.js';

/** Development tools; never registered in production. */
export async function devRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  await app.register(devRealtimeRoutes);
  r.get(
    '/api/dev/outbox',
    {
      schema: {
        tags: ['development'],
        summary: 'Emails kept in the local outbox, newest first',
        querystring: z.object({ to: z.string().optional(), limit: z.coerce.number().int().min(1).max(100).default(50) }),
        response: {
          200: z.array(
            z.object({
              id: z.string(),
              to: z.string(),
              subject: z.string(),
              text: z.string(),
              html: z.string(),
              created_at: z.string(),
              /** A calendar invitation the email carries (ADR 0068): its method and the iCalendar document. */
              icalEvent: z.object({ method: z.string(), content: z.string() }).nullable(),
            }),
          ),
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { to, limit } = request.query;
      const rows = await app.database.db
        .select()
        .from(emailOutbox)
        .where(to ? eq(emailOutbox.to, to.toLowerCase()) : undefined)
        .orderBy(desc(emailOutbox.createdAt))
        .limit(limit);
      return rows.map((m) => ({
        id: m.id,
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html,
        created_at: m.createdAt.toISOString(),
        icalEvent: m.icalEvent ?? null,
      }));
    },
  );
}
