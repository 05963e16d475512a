import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBody } from '../../shared/errors.js';
import {
  learnerProfileAnswer,
  learnerProfileBody,
  learnerProfileChanges,
  learnerProfileList,
  learnerProfileParams,
  learnerProfileRemoved,
} from '../../shared/learner-profile-schemas.js';
import { addLearnerProfile, listLearnerProfiles, removeLearnerProfile, updateLearnerProfile } from './learner-profile-service.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 429: errorBody };

/** Family accounts (ADR 0074): the signed-in account's learners, people it enrols who have no account. */
export async function learnerProfileRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['accounts'];

  r.get(
    '/api/me/learners',
    {
      schema: {
        tags,
        summary: 'Your learners (children you enrol without an account of their own)',
        response: { 200: learnerProfileList, ...errors },
      },
    },
    async (request) => listLearnerProfiles(app, await app.requireViewer(request)),
  );

  r.post(
    '/api/me/learners',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'Add a learner: a first name, an age ("8") or a range ("8-10"), optional notes for the educators',
        body: learnerProfileBody,
        response: { 201: learnerProfileAnswer, ...errors },
      },
    },
    async (request, reply) => {
      const learner = await addLearnerProfile(app, await app.requireViewer(request), request.body);
      return reply.code(201).send({ learner, message: `${learner.firstName} was added to your learners.` });
    },
  );

  r.patch(
    '/api/me/learners/:learnerProfileId',
    {
      schema: {
        tags,
        summary: "Edit a learner's first name, age or notes (a new age counts from today)",
        params: learnerProfileParams,
        body: learnerProfileChanges,
        response: { 200: learnerProfileAnswer, ...errors },
      },
    },
    async (request) => {
      const learner = await updateLearnerProfile(app, await app.requireViewer(request), request.params.learnerProfileId, request.body);
      return { learner, message: `${learner.firstName} was saved.` };
    },
  );

  r.delete(
    '/api/me/learners/:learnerProfileId',
    {
      schema: {
        tags,
        summary: 'Remove a learner (refused while they have classes: drop those first)',
        params: learnerProfileParams,
        response: { 200: learnerProfileRemoved, ...errors },
      },
    },
    async (request) => removeLearnerProfile(app, await app.requireViewer(request), request.params.learnerProfileId),
  );
}
