import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deleteAccountBody, settingsMessage } from '../../shared/account-settings-schemas.js';
import { errorBody } from '../../shared/errors.js';
import { createAttemptCounter } from '../accounts/attempts.js';
import { deleteOwnAccount } from './account-deletion.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 409: errorBody, 429: errorBody };

/** Settings: deleting one's own account (the erasure of the admin console). */
export async function accountDeletionRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const attempts = createAttemptCounter(app.database.db);
  r.post(
    '/api/accounts/delete',
    {
      config: { rateLimit: { max: 5, timeWindow: '1 minute' } },
      schema: {
        tags: ['accounts'],
        summary: 'Delete your own account: personal data erased, payment records kept under a pseudonym',
        body: deleteAccountBody,
        response: { 200: settingsMessage, ...errors },
      },
    },
    async (request, reply) => {
      await deleteOwnAccount(app, attempts, reply, await app.requireViewer(request), request.body);
      return { ok: true as const, message: 'Your account has been deleted.' };
    },
  );
}
