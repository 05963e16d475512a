import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { searchQuery } from '../../shared/courses-schemas.js';
import { searchCoursesAsViewer, searchCoursesJson } from '../courses/search-service.js';
import { clubSearchQuery } from '../../shared/clubs-schemas.js';
import { searchClubsJson } from '../clubs/search-clubs.js';
import { user } from '../db/schema/accounts.js';
import { personParams, sendMessageInput, sentMessage } from '../../shared/mailbox-schemas.js';

/**
 * Reference routes for `npm run bench` (BENCH_ROUTES=true; refused in production):
 * one without I/O, one with a single primary-key SELECT prepared like the session query,
 * and for the search bench (bench/search.ts) the naive search query and the real search
 * without its result cache, and for the realtime bench (bench/realtime.ts) an insert and a
 * publish. None of them looks at the session.
 */
export async function benchRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/bench/noop', { schema: { hide: true, response: { 200: z.object({ ok: z.boolean() }) } } }, async () => ({ ok: true }));

  const byId = app.database.db
    .select({ id: user.id, email: user.email })
    .from(user)
    .where(eq(user.id, sql.placeholder('id')))
    .limit(1)
    .prepare('bench_user_by_id');
  r.get(
    '/api/bench/select',
    {
      schema: { hide: true, querystring: z.object({ id: z.uuid() }), response: { 200: z.object({ found: z.boolean() }) } },
    },
    async (request) => {
      const rows = await byId.execute({ id: request.query.id });
      return { found: rows.length > 0 };
    },
  );

  // The naive searches: rank every match, sort, keep 20 (what the issues' budgets compare
  // with): courses for bench/search.ts, clubs for bench/clubs.ts.
  const naiveSearch = (path: string, table: 'course' | 'club', published: boolean) =>
    r.get(
      path,
      {
        schema: {
          hide: true,
          querystring: z.object({ q: z.string().min(1).max(200) }),
          response: { 200: z.object({ ids: z.array(z.string()) }) },
        },
      },
      async (request) => {
        const res = (await app.database.db.execute(sql`
        select id from ${sql.identifier(table)}, websearch_to_tsquery('english', ${request.query.q}) q
        where ${published ? sql`status = 'published' and ` : sql``}search @@ q
        order by ts_rank(search, q) desc, id limit 20`)) as unknown as { rows: { id: string }[] };
        return { ids: res.rows.map((row) => row.id) };
      },
    );
  naiveSearch('/api/bench/search-naive', 'course', true);
  naiveSearch('/api/bench/club-search-naive', 'club', false);

  // GET /api/courses/search without the cache: the session lookup as the real route does it on
  // a miss (in a one-word search's own statement), and a search that queries on every call
  // (the uncached budgets of ADR 0004).
  r.get(
    '/api/bench/search-uncached',
    {
      schema: { hide: true, querystring: searchQuery },
    },
    async (request, reply) => {
      const body = await searchCoursesAsViewer(app.searchRunner, request.query, {
        requireViewer: () => app.requireViewer(request),
        requireViewerWith: (load) => app.requireViewerWith(request, load),
      });
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );

  // The same without the cache as before ADR 0077: the session lookup in a statement of its
  // own, then the search (the bench's same-run reference for what reading the session in
  // the search's statement saves).
  r.get('/api/bench/search-uncached-two-trips', { schema: { hide: true, querystring: searchQuery } }, async (request, reply) => {
    await app.requireViewer(request);
    return reply.type('application/json; charset=utf-8').send(await searchCoursesJson(app.searchRunner, request.query));
  });

  // GET /api/clubs/search without the session lookup (club search has no cache): the search's
  // own cost, beside the naive query, which has no session lookup either.
  // The answer as the route sends it: PostgreSQL's JSON text.
  r.get('/api/bench/club-search-uncached', { schema: { hide: true, querystring: clubSearchQuery } }, async (request, reply) =>
    reply.type('application/json; charset=utf-8').send(await searchClubsJson(app.searchRunner, request.query)),
  );

  // The realtime bench: what sending a message costs (one insert, then a publish after the
  // commit), with ids only in the event. The bench creates bench_message before the load.
  r.post(
    '/api/bench/realtime/send',
    {
      schema: {
        hide: true,
        body: z.object({ from: z.uuid(), to: z.uuid(), seq: z.number().int().min(0) }),
        response: { 200: z.object({ id: z.string() }) },
      },
    },
    async (request) => {
      const { from, to, seq } = request.body;
      const res = (await app.database.db.execute(
        sql`insert into bench_message (from_id, to_id, seq) values (${from}, ${to}, ${seq}) returning id`,
      )) as unknown as { rows: { id: string | number }[] };
      const id = String(res.rows[0].id);
      // `publishedAt` (bench only) lets the bench time the fan-out alone: same machine, same clock.
      await app.realtime.publish(to, { type: 'bench.message', id, n: seq, publishedAt: Date.now() });
      return { id };
    },
  );

  // The mailbox bench's reference: the send-message route's insert alone (the session
  // lookup and validation as the real route, then one autocommit INSERT into the pair's
  // conversation), beside which POST /api/mailbox/conversations/:userId/messages is measured.
  r.post(
    '/api/bench/mailbox-insert/:userId',
    { schema: { hide: true, params: personParams, body: sendMessageInput, response: { 201: sentMessage } } },
    async (request, reply) => {
      const viewer = await app.requireViewer(request);
      const me = viewer.user.id;
      const res = (await app.database.db.execute(sql`
        insert into message (conversation_id, sender_id, body, client_id)
        select conversation_id, ${me}::uuid, ${request.body.body}, ${request.body.clientId}::uuid
        from conversation_member where user_id = ${me} and other_user_id = ${request.params.userId}
        returning id, created_at`)) as unknown as { rows: { id: string; created_at: string | Date }[] };
      const row = res.rows[0];
      return reply.status(201).send({
        message: {
          id: String(row.id),
          senderId: me,
          body: request.body.body,
          clientId: request.body.clientId,
          createdAt: new Date(row.created_at).toISOString(),
        },
      });
    },
  );
}
