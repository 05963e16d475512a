import { APIError } from 'better-auth/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, emailBody, resetPasswordBody, sessionInfo, signInBody, signUpBody } from '../../shared/accounts-schemas.js';
import { errorBody } from '../../shared/errors.js';
import { forwardCookies, toHeaders } from '../http/headers.js';
import { createAttemptCounter } from './attempts.js';
import { presentCurrentUser } from './presenters.js';
import { requestPasswordReset, resendVerification, resetPassword } from './email-links.js';
import { signIn } from './sign-in.js';
import { currentSignInSession, listSignInSessions, signOutDevice, signOutOtherDevices } from './sign-in-sessions.js';
import { signUp } from './sign-up.js';

const ok = z.object({ ok: z.literal(true), message: z.string() });
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 429: errorBody, 500: errorBody };
const perIp = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });

export async function accountRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const attempts = createAttemptCounter(app.database.db);
  const tags = ['accounts'];

  r.post(
    '/api/accounts/sign-up',
    {
      config: perIp(10),
      schema: {
        tags,
        summary: 'Create an account and email the verification link',
        body: signUpBody,
        response: { 201: z.object({ email: z.string() }), ...errors },
      },
    },
    async (request, reply) => {
      const result = await signUp(app, request, request.body);
      return reply.status(201).send(result);
    },
  );

  r.post(
    '/api/accounts/sign-in',
    {
      schema: {
        tags,
        summary: 'Log in with email and password (sets the session cookie)',
        body: signInBody,
        response: { 200: currentUser, 202: z.object({ twoFactorRequired: z.literal(true) }), ...errors },
      },
    },
    async (request, reply) => {
      const result = await signIn(app, attempts, request, reply, request.body);
      if ('twoFactorRequired' in result) return reply.status(202).send(result);
      return presentCurrentUser(result);
    },
  );

  r.post(
    '/api/accounts/sign-out',
    {
      schema: { tags, summary: 'End this session', response: { 200: ok } },
    },
    async (request, reply) => {
      try {
        const { headers } = await app.auth.api.signOut({ headers: toHeaders(request), returnHeaders: true });
        forwardCookies(headers, reply);
      } catch (err) {
        if (!(err instanceof APIError)) throw err;
      }
      return { ok: true as const, message: 'Signed out' };
    },
  );

  r.post(
    '/api/accounts/resend-verification',
    {
      config: perIp(5),
      schema: { tags, summary: 'Send the verification email again (throttled)', body: emailBody, response: { 200: ok, ...errors } },
    },
    async (request) => {
      return { ok: true as const, message: await resendVerification(app, attempts, toHeaders(request), request.body) };
    },
  );

  r.post(
    '/api/accounts/password-reset',
    {
      config: perIp(5),
      schema: {
        tags,
        summary: 'Email a password-reset link (same answer for every email)',
        body: emailBody,
        response: { 200: ok, ...errors },
      },
    },
    async (request) => {
      await requestPasswordReset(app, toHeaders(request), request.body);
      return { ok: true as const, message: 'If an account exists for this email, we sent a link to reset the password.' };
    },
  );

  r.post(
    '/api/accounts/reset-password',
    {
      config: perIp(10),
      schema: {
        tags,
        summary: 'Set a new password with the emailed token; signs out every session',
        body: resetPasswordBody,
        response: { 200: ok, ...errors },
      },
    },
    async (request) => {
      await resetPassword(app, attempts, toHeaders(request), request.body);
      return { ok: true as const, message: 'Your password has been changed. Log in with the new one.' };
    },
  );

  r.get(
    '/api/me',
    {
      schema: { tags, summary: 'The signed-in user', response: { 200: currentUser, 401: errorBody } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return presentCurrentUser(await app.requireViewer(request));
    },
  );

  r.get(
    '/api/accounts/session',
    {
      schema: {
        tags,
        summary: 'The current session, for support (never the token)',
        response: { 200: z.object({ user: currentUser, session: sessionInfo }), 401: errorBody },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const viewer = await app.requireViewer(request);
      return { user: presentCurrentUser(viewer), session: await currentSignInSession(app, viewer) };
    },
  );

  r.get(
    '/api/accounts/sessions',
    {
      schema: {
        tags,
        summary: 'Active sessions of the signed-in user',
        response: { 200: z.object({ sessions: z.array(sessionInfo) }), 401: errorBody },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { sessions: await listSignInSessions(app, await app.requireViewer(request)) };
    },
  );

  r.delete(
    '/api/accounts/sessions/:signInSessionId',
    {
      schema: {
        tags,
        summary: 'Sign out one of your other sessions',
        params: z.object({ signInSessionId: z.uuid('Unknown session') }),
        response: { 200: ok, ...errors },
      },
    },
    async (request) => {
      await signOutDevice(app, await app.requireViewer(request), request.params.signInSessionId);
      return { ok: true as const, message: 'That device has been signed out' };
    },
  );

  r.post(
    '/api/accounts/sessions/revoke-others',
    {
      schema: {
        tags,
        summary: 'Sign out every other device',
        response: { 200: z.object({ ok: z.literal(true), message: z.string(), revoked: z.number() }), 401: errorBody },
      },
    },
    async (request) => {
      const revoked = await signOutOtherDevices(app, await app.requireViewer(request));
      return { ok: true as const, message: `Signed out ${revoked} other device${revoked === 1 ? '' : 's'}`, revoked };
    },
  );
}
