import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { analyticsQuery, analyticsResult, type AnalyticsResult } from '../../shared/analytics-schemas.js';
import { errorBody } from '../../shared/errors.js';
import { analyticsAnswer } from './analytics-service.js';
import { coursesCsv, salesCsv } from './csv-service.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };
const params = z.object({ educatorId: z.uuid('Unknown educator') });

/** Educator analytics (issue 13): figures, series, the per-course table, and two CSVs. */
export async function analyticsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['analytics'];

  r.get(
    '/api/educator/:educatorId/analytics',
    {
      schema: {
        tags,
        summary: "An educator's figures over a range (the educator and admins only)",
        params,
        querystring: analyticsQuery,
        response: { 200: analyticsResult, ...errors },
      },
    },
    async (request, reply) => {
      const answer = await analyticsAnswer(app, await app.requireViewer(request), request.params.educatorId, request.query, {
        // Bench only (BENCH_ROUTES, refused in production): measure the computation beside the cached answer.
        fresh: app.config.benchRoutes && !!request.headers['x-bench-no-cache'],
      });
      // Serialized once (analytics-service.ts) and sent as is, like the course page.
      return reply.type('application/json; charset=utf-8').send(answer.json as unknown as AnalyticsResult);
    },
  );

  for (const [name, build, summary] of [
    ['courses', coursesCsv, 'The per-course table as CSV'],
    ['sales', salesCsv, 'Every sale in the range as CSV'],
  ] as const) {
    r.get(
      `/api/educator/:educatorId/analytics/${name}.csv`,
      { schema: { tags, summary, params, querystring: analyticsQuery } },
      async (request, reply) => {
        const file = await build(app, await app.requireViewer(request), request.params.educatorId, request.query);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${file.filename}"`)
          .send(file.body);
      },
    );
  }
}
