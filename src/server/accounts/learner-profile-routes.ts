import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../shared/errors.js';
import {
  learnerInviteAccept,
  learnerInviteBody,
  learnerInviteQuery,
  learnerInviteView,
  learnerProfileAnswer,
  learnerProfileBody,
  learnerProfileChanges,
  learnerProfileList,
  learnerProfileParams,
  learnerProfileRemoved,
} from '../../shared/learner-profile-schemas.js';
import { createAttemptCounter } from './attempts.js';
import { acceptLearnerInvite, cancelLearnerInvite, inviteLearner, pendingLearnerInvites, readLearnerInvite } from './learner-invites.js';
import { addLearnerProfile, listLearnerProfiles, removeLearnerProfile, updateLearnerProfile } from './learner-profile-service.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 429: errorBody };

/** Family accounts (ADR 0074): the signed-in account's learners, people it enrols who have no account. */
export async function learnerProfileRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['accounts'];
  const attempts = createAttemptCounter(app.database.db);
  const perIp = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });

  r.get(
    '/api/me/learners',
    {
      schema: {
        tags,
        summary: 'Your learners (children you enrol without an account of their own)',
        response: { 200: learnerProfileList, ...errors },
      },
    },
    async (request) => {
      const list = await listLearnerProfiles(app, await app.requireViewer(request));
      return {
        ...list,
        invites: await pendingLearnerInvites(
          app.database.db,
          list.items.map((l) => l.id),
        ),
      };
    },
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

  r.post(
    '/api/me/learners/:learnerProfileId/invite',
    {
      config: perIp(10),
      schema: {
        tags,
        summary: 'Invite a learner to an account of their own: a one-time link by email; their classes move to it',
        params: learnerProfileParams,
        body: learnerInviteBody,
        response: { 200: learnerProfileRemoved, ...errors },
      },
    },
    async (request) => inviteLearner(app, attempts, await app.requireViewer(request), request.params.learnerProfileId, request.body),
  );

  r.delete(
    '/api/me/learners/:learnerProfileId/invite',
    {
      schema: {
        tags,
        summary: "Cancel a learner's open invitation to an account of their own: its link stops working",
        params: learnerProfileParams,
        response: { 200: learnerProfileRemoved, ...errors },
      },
    },
    async (request) => cancelLearnerInvite(app, await app.requireViewer(request), request.params.learnerProfileId),
  );

  r.get(
    '/api/accounts/learner-invite',
    {
      config: perIp(30),
      schema: {
        tags,
        summary: "An invitation link's learner, address and account holder (the sign-up page shows them)",
        querystring: learnerInviteQuery,
        response: { 200: learnerInviteView, ...errors },
      },
    },
    async (request) => readLearnerInvite(app, request.query.token),
  );

  r.post(
    '/api/accounts/learner-invite',
    {
      config: perIp(10),
      schema: {
        tags,
        summary: "Create the learner's own account from the invitation (email verified); their enrolments move to it",
        body: learnerInviteAccept,
        response: { 201: z.object({ email: z.string(), message: z.string() }), ...errors },
      },
    },
    async (request, reply) => {
      const { email } = await acceptLearnerInvite(app, request.body);
      return reply.code(201).send({ email, message: 'Your account is ready, with your classes. Log in with your email and password.' });
    },
  );
}
