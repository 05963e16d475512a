import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { changeEmailBody, changePasswordBody, settingsMessage } from '../../shared/account-settings-schemas.js';
import { errorBody } from '../../shared/errors.js';
import { createAttemptCounter } from './attempts.js';
import { changePassword, confirmEmailChange, requestEmailChange } from './account-settings.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 409: errorBody, 429: errorBody };
const perIp = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });

/** Settings: a new password, a new email address (confirmed by a link to it). */
export async function accountSettingsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const attempts = createAttemptCounter(app.database.db);
  const tags = ['accounts'];

  r.post(
    '/api/accounts/password/change',
    {
      config: perIp(10),
      schema: {
        tags,
        summary: 'Change the password (the current one first); other devices are signed out',
        body: changePasswordBody,
        response: { 200: settingsMessage, ...errors },
      },
    },
    async (request) => {
      const { signedOut } = await changePassword(app, attempts, await app.requireViewer(request), request.body);
      return {
        ok: true as const,
        message: `Your password has been changed.${signedOut ? ` ${signedOut === 1 ? 'One other device was' : `${signedOut} other devices were`} signed out.` : ''}`,
      };
    },
  );

  r.post(
    '/api/accounts/email',
    {
      config: perIp(10),
      schema: {
        tags,
        summary: 'Ask to change the email: a link goes to the new address',
        body: changeEmailBody,
        response: { 200: settingsMessage, ...errors },
      },
    },
    async (request) => {
      const { message } = await requestEmailChange(app, attempts, await app.requireViewer(request), request.body);
      return { ok: true as const, message };
    },
  );

  r.get(
    '/api/accounts/email-change/confirm',
    {
      config: perIp(30),
      schema: {
        tags,
        summary: 'The link from the new address: the email changes, then the browser goes to the settings',
        querystring: z.object({ token: z.string().max(200) }),
        response: { 302: z.null(), 400: errorBody, 429: errorBody },
      },
    },
    async (request, reply) => {
      const { ok } = await confirmEmailChange(app, request.query.token);
      return reply.redirect(ok ? '/email-verified?change=done' : '/email-verified?change=invalid', 302);
    },
  );
}
