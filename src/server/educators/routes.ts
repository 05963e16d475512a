import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { educatorInput } from '../../shared/educators-schemas.js';
import { errorBody } from '../../shared/errors.js';
import { readUpload } from '../http/uploads.js';
import { becomeEducator, setEducatorPhoto, updateEducator } from './educator-service.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };
const params = z.object({ educatorId: z.uuid('Unknown educator') });
const ok = z.object({ ok: z.literal(true), message: z.string() });

/** The educator's own use cases; their public profile (which lists courses) is served by courses (ADR 0035). */
export async function educatorRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['educators'];

  r.post(
    '/api/educators',
    {
      schema: { tags, summary: 'Become an educator (onboarding step 1)', body: educatorInput, response: { 201: ok, ...errors } },
    },
    async (request, reply) => {
      await becomeEducator(app, await app.requireViewer(request), request.body);
      return reply.status(201).send({ ok: true as const, message: 'Welcome, educator!' });
    },
  );

  r.put(
    '/api/educators/:educatorId',
    {
      schema: { tags, summary: 'Edit your educator profile', params, body: educatorInput, response: { 200: ok, ...errors } },
    },
    async (request) => {
      await updateEducator(app, await app.requireViewer(request), request.params.educatorId, request.body);
      return { ok: true as const, message: 'Profile saved' };
    },
  );

  r.post(
    '/api/educators/:educatorId/photo',
    {
      schema: {
        tags,
        summary: 'Upload your educator photo',
        consumes: ['multipart/form-data'],
        params,
        response: { 200: z.object({ profileImage: z.string() }), ...errors },
      },
    },
    async (request) => {
      const url = await setEducatorPhoto(app, await app.requireViewer(request), request.params.educatorId, () => readUpload(request));
      return { profileImage: url };
    },
  );
}
