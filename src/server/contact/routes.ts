import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contactForm, contactInput, contactSent } from '../../shared/contact-schemas.js';
import { errorBody } from '../../shared/errors.js';
import { contactFormToken } from './form-token.js';
import { sendContactMessage } from './send-message.js';

const errors = { 400: errorBody, 429: errorBody, 500: errorBody };

/** The contact form's API (public: no session needed). */
export async function contactRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['contact'];

  r.get(
    '/api/contact/form',
    { schema: { tags, summary: 'A new contact form: its signed load time', response: { 200: contactForm } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { formToken: contactFormToken(app.config.authSecret) };
    },
  );

  r.post(
    '/api/contact',
    {
      schema: {
        tags,
        summary: 'Send a message to the team (stored, emailed to CONTACT_TO, confirmed to the sender)',
        body: contactInput,
        response: { 200: contactSent, ...errors },
      },
    },
    async (request) => {
      await sendContactMessage(app, await app.resolveViewer(request), { ...request.body, ip: request.ip });
      return { ok: true as const };
    },
  );
}
