import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { landingResult, type LandingResult } from '../../shared/landing-schemas.js';
import { getFeaturedClubs } from '../clubs/featured-clubs.js';
import { getLandingCourses } from '../courses/landing-service.js';

/**
 * GET /api/landing (public, no session): what the landing page shows from the data.
 * Composition, not a domain: it gathers courses and clubs (courses never import clubs).
 */
export async function landingRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/landing',
    {
      schema: {
        tags: ['system'],
        summary: 'Public figures (courses, educators, cities) and featured courses and clubs for the landing page',
        response: { 200: landingResult },
      },
    },
    async (_request, reply): Promise<LandingResult> => {
      const [{ figures, featured }, featuredClubs] = await Promise.all([getLandingCourses(app), getFeaturedClubs(app)]);
      reply.header('cache-control', 'public, max-age=60');
      return { figures, featuredCourses: featured, featuredClubs };
    },
  );
}
