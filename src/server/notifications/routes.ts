import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../shared/errors.js';
import {
  notificationList,
  notificationListQuery,
  notificationParams,
  notificationPreferences,
  notificationPreferencesInput,
  notificationView,
  unsubscribeQuery,
} from '../../shared/notifications-schemas.js';
import { AppError } from '../http/errors.js';
import { listNotifications, markAllRead, markRead, readNotification } from './notification-service.js';
import { readPreferences, updatePreferences } from './preferences.js';
import { unsubscribePage } from './unsubscribe-page.js';
import { readUnsubscribeToken, scopeLabel, unsubscribe } from './unsubscribe.js';

const errors = { 400: errorBody, 401: errorBody, 404: errorBody, 500: errorBody };

/** /api/notifications/*: the viewer's notifications and preferences; the unsubscribe link of every notification email. */
export async function notificationRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['notifications'];

  r.get(
    '/api/notifications',
    {
      schema: {
        tags,
        summary: 'Your notifications, newest first (cursor pages; unread=true for the unread ones)',
        querystring: notificationListQuery,
        response: { 200: notificationList, ...errors },
      },
    },
    async (request) => listNotifications(app, await app.requireViewer(request), request.query),
  );

  r.post(
    '/api/notifications/read-all',
    { schema: { tags, summary: 'Mark all your notifications read', response: { 200: z.object({ marked: z.number() }), ...errors } } },
    async (request) => markAllRead(app, await app.requireViewer(request)),
  );

  r.get(
    '/api/notifications/preferences',
    {
      schema: {
        tags,
        summary: 'Your notification preferences, per type and channel',
        response: { 200: notificationPreferences, ...errors },
      },
    },
    async (request) => readPreferences(app, await app.requireViewer(request)),
  );

  r.put(
    '/api/notifications/preferences',
    {
      schema: {
        tags,
        summary: 'Change your notification preferences (only the types given)',
        body: notificationPreferencesInput,
        response: { 200: notificationPreferences, ...errors },
      },
    },
    async (request) => updatePreferences(app, await app.requireViewer(request), request.body),
  );

  r.get(
    '/api/notifications/:notificationId',
    {
      schema: { tags, summary: 'One of your notifications', params: notificationParams, response: { 200: notificationView, ...errors } },
    },
    async (request) => readNotification(app, await app.requireViewer(request), request.params.notificationId),
  );

  r.post(
    '/api/notifications/:notificationId/read',
    {
      schema: {
        tags,
        summary: 'Mark one of your notifications read',
        params: notificationParams,
        response: { 200: notificationView, ...errors },
      },
    },
    async (request) => markRead(app, await app.requireViewer(request), request.params.notificationId),
  );

  // The unsubscribe link works without signing in. GET: a confirmation page; POST: unsubscribes
  // (the mail client's one-click POST of RFC 8058, or the page's button). A browser gets HTML,
  // anything else JSON.
  await app.register(async (scoped) => {
    // RFC 8058's POST is a form body ("List-Unsubscribe=One-Click"): accepted here, and ignored.
    scoped.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, _body, done) => done(null, undefined));
    const s = scoped.withTypeProvider<ZodTypeProvider>();
    const config = { acceptsForms: true };
    const page = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/html');
    const refuse = (request: FastifyRequest, reply: FastifyReply) => {
      if (!page(request))
        throw new AppError(400, 'invalid_link', 'This unsubscribe link is not valid', { fields: { token: 'Not a link we sent' } });
      return reply
        .status(400)
        .type('text/html; charset=utf-8')
        .send(
          unsubscribePage({
            title: 'This link does not work',
            detail: 'It may be incomplete: copy the whole link from the email, or change your notification settings after logging in.',
          }),
        );
    };

    s.get(
      '/api/notifications/unsubscribe',
      { config, schema: { tags, summary: 'The confirmation page of an unsubscribe link (no sign-in)', querystring: unsubscribeQuery } },
      async (request, reply) => {
        const found = readUnsubscribeToken(app.config.authSecret, request.query.token);
        if (!found) return refuse(request, reply);
        const what = scopeLabel(found.scope);
        if (!page(request)) return { scope: found.scope };
        return reply.type('text/html; charset=utf-8').send(
          unsubscribePage({
            title: `Stop emails about ${what}?`,
            detail: `You will no longer get emails about ${what}. You still see them in Agora, and you can turn them back on in your settings.`,
            action: { url: `/api/notifications/unsubscribe?token=${encodeURIComponent(request.query.token)}`, label: 'Unsubscribe' },
          }),
        );
      },
    );

    s.post(
      '/api/notifications/unsubscribe',
      {
        config,
        schema: { tags, summary: 'Unsubscribe from one type of email (one click, RFC 8058; no sign-in)', querystring: unsubscribeQuery },
      },
      async (request, reply) => {
        const done = await unsubscribe(app, request.query.token);
        if (!done) return refuse(request, reply);
        if (!page(request)) return { ok: true as const };
        const what = scopeLabel(done.scope);
        return reply.type('text/html; charset=utf-8').send(
          unsubscribePage({
            title: 'You are unsubscribed',
            detail: `You will no longer get emails about ${what}. Change your mind any time in your notification settings.`,
          }),
        );
      },
    );
  });
}
