import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { user } from '../db/schema.js';

/**
 * Reference routes for `npm run bench` (BENCH_ROUTES=true; refused in production):
 * one without I/O, one with a single primary-key SELECT prepared like the session query.
 */
export async function benchRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/bench/noop', { schema: { hide: true, response: { 200: z.object({ ok: z.boolean() }) } } }, async () => ({ ok: true }));

  const byId = app.database.db.select({ id: user.id, email: user.email }).from(user)
    .where(eq(user.id, sql.placeholder('id'))).limit(1).prepare('bench_user_by_id');
  r.get('/api/bench/select', {
    schema: { hide: true, querystring: z.object({ id: z.uuid() }), response: { 200: z.object({ found: z.boolean() }) } },
  }, async (request) => {
    const rows = await byId.execute({ id: request.query.id });
    return { found: rows.length > 0 };
  });
}
