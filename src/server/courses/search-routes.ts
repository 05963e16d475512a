import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { exploreResult, searchQuery, searchResult, type ExploreResult, type SearchResult } from '../../shared/courses-schemas.js';
import { errorBody } from '../../shared/errors.js';
import { AppError } from '../http/errors.js';
import { getExplore } from './explore-service.js';
import { SearchCache, listenForCourseChanges } from './search-cache.js';
import type { Viewer } from '../accounts/viewer.js';
import type { SearchParams } from './search-parts.js';
import { isOneWordShape } from './search-one-word.js';
import { searchCoursesJson } from './search-service.js';
import { normalizeQuery, type SearchRunner } from './search-shared.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Search and explore answers; dropped whenever course data changes. */
    searchCache: SearchCache;
    /** Runs search statements (the fixed relevance shape as a prepared statement). */
    searchRunner: SearchRunner;
  }
}

/**
 * The settings of the search connections. A generic plan is made once, without the
 * values: it must not depend on estimates that vary by word or filter, so the planner is
 * told to avoid what would only pay off for some values (docs/decisions/0048-search-connections-cannot-sort.md):
 * a sort where an index gives the order (the relevance walks must follow their index and
 * stop after k rows, never sort every match a filter estimate made look few), parallel workers (launching them costs more than the whole search) and
 * JIT (the disabled paths' costs would trigger it; compiling takes seconds). Where no
 * alternative exists (sorting GIN matches) the sort is still taken.
 */
export const SEARCH_CONNECTION_OPTIONS =
  '-c plan_cache_mode=force_generic_plan -c enable_sort=off -c max_parallel_workers_per_gather=0 -c jit=off';

/**
 * On PostgreSQL, the prepared search statements run on connections of their own, where
 * plan_cache_mode = force_generic_plan: it is planned once per connection, and its shape
 * does not depend on the plan's estimates (search-sql.ts, relevanceSql). Only the
 * search statement of that shape uses them; every other query keeps the app's pool and
 * PostgreSQL's default (a plan for each value).
 */
async function searchRunner(app: FastifyInstance): Promise<{ runner: SearchRunner; close: () => Promise<void> }> {
  const db = app.database.db;
  const url = app.config.databaseUrl;
  if (app.database.kind !== 'postgres' || !url) return { runner: { db }, close: async () => {} };
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: 10, options: SEARCH_CONNECTION_OPTIONS });
  pool.on('error', (err) => app.log.warn({ err }, 'search connection failed'));
  const dialect = new PgDialect();
  const runner: SearchRunner = {
    db,
    prepared: async (name, query) => {
      const { sql: text, params } = 'params' in query ? query : dialect.sqlToQuery(query);
      return pool.query({ name, text, values: params });
    },
  };
  return { runner, close: () => pool.end() };
}

const errors = { 400: errorBody, 401: errorBody };
const JSON_TYPE = 'application/json; charset=utf-8';

/** The cache key of a search: every parameter, normalized, in a fixed order. */
function searchKey(p: SearchParams): string {
  return JSON.stringify([
    's',
    normalizeQuery(p.q) ?? '',
    p.category ?? '',
    p.level ?? '',
    p.format ?? '',
    p.city?.trim().toLowerCase() ?? '',
    p.free ?? '',
    p.minPrice ?? '',
    p.maxPrice ?? '',
    p.startsAfter ?? '',
    p.hasSeats ?? '',
    p.age ?? '',
    p.sort,
    p.page,
    p.pageSize,
  ]);
}

/**
 * GET /api/courses/search and GET /api/explore. Registered before the course routes;
 * wrapped with fastify-plugin because its hook (below) must see every API write.
 */
export const courseSearchRoutes = fp(
  async function courseSearchRoutes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['courses'];
    const cache = new SearchCache();
    app.decorate('searchCache', cache);
    const { runner, close } = await searchRunner(app);
    app.decorate('searchRunner', runner);
    app.addHook('onClose', close);

    const stopListening = await listenForCourseChanges({ database: app.database, url: app.config.databaseUrl, cache, log: app.log });
    app.addHook('onClose', async () => stopListening());
    // Read-your-writes on this server: once one of its API writes has answered (its
    // transaction committed), nothing cached before may be served. Other servers and
    // scripts are covered by the NOTIFY the course trigger sends.
    app.addHook('onSend', async (request) => {
      if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS' && request.url.startsWith('/api/'))
        cache.invalidate();
    });

    r.get(
      '/api/courses/search',
      {
        schema: {
          tags,
          summary:
            'Search published courses: full text over title, summary, description and educator name, typo-tolerant, with filters and sorts',
          querystring: searchQuery,
          response: { 200: searchResult, ...errors },
        },
      },
      async (request, reply) => {
        const p = request.query;
        if (p.minPrice !== undefined && p.maxPrice !== undefined && p.minPrice > p.maxPrice) {
          await app.requireViewer(request);
          throw AppError.badRequest('The minimum price is above the maximum', { maxPrice: 'Must be at least the minimum price' });
        }
        // SearchResult as JSON text, the cards written by PostgreSQL (searchCoursesJson): a
        // string with a JSON content type is sent as is, without serializing again.
        const key = searchKey(p);
        const ready = cache.ready(key);
        if (ready || !isOneWordShape(p)) {
          await app.requireViewer(request);
          return reply
            .type(JSON_TYPE)
            .send((await (ready ?? cache.get(key, () => searchCoursesJson(runner, p)))) as unknown as SearchResult);
        }
        // A one-word search to compute: the session is read in the search's first statement
        // (one round trip, docs/decisions/0077-search-reads-the-session.md).
        const { data } = await app.requireViewerWith(request, async (token) => {
          let viewer: Viewer | null | undefined;
          const body = await cache.get(key, () => searchCoursesJson(runner, p, { token, read: (v) => (viewer = v) }));
          // Another request's computation of the same search answered (it began meanwhile): the session on its own.
          return { viewer: viewer === undefined ? await app.viewerFromCookie(request.headers.cookie) : viewer, data: body };
        });
        return reply.type(JSON_TYPE).send(data as unknown as SearchResult);
      },
    );

    r.get(
      '/api/explore',
      {
        schema: {
          tags,
          summary: 'Featured, upcoming and popular courses and courses near you, nearest first for your city',
          response: { 200: exploreResult, ...errors },
        },
      },
      async (request, reply) => {
        const viewer = await app.requireViewer(request);
        const city = viewer.user.city?.trim().toLowerCase() ?? '';
        const body = await cache.get(JSON.stringify(['e', city]), async () =>
          JSON.stringify(exploreResult.parse(await getExplore(app, city || null))),
        );
        return reply.type(JSON_TYPE).send(body as unknown as ExploreResult);
      },
    );
  },
  { name: 'course-search' },
);
