import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../shared/accounts-schemas.js';
import {
  backupCodes,
  codeBody,
  disableTwoFactorBody,
  linkedAccounts,
  linkedProvider,
  passwordBody,
  setPasswordBody,
  twoFactorSetup,
  twoFactorSignInBody,
  twoFactorStatus,
} from '../../shared/accounts-security-schemas.js';
import { errorBody } from '../../shared/errors.js';
import { createAttemptCounter } from './attempts.js';
import { listLinkedAccounts, setPassword, signOutEverywhere, startGoogleLink, unlinkAccount } from './linked-accounts.js';
import { presentCurrentUser } from './presenters.js';
import {
  completeTwoFactorSignIn,
  confirmTwoFactorSetup,
  disableTwoFactor,
  regenerateBackupCodes,
  startTwoFactorSetup,
  stepUp,
  twoFactorState,
} from './two-factor.js';

const ok = z.object({ ok: z.literal(true), message: z.string() });
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 429: errorBody };
/** Per-IP ceiling on top of the per-account code counter (attempts.ts). */
const perIp = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });

/**
 * Our routes for two-factor sign-in, linked accounts and signing out everywhere. They call
 * the auth library server-side (app.auth.api), never through its HTTP endpoints, so our
 * validation, limits and error body apply (docs/decisions/0013).
 */
export async function twoFactorRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const attempts = createAttemptCounter(app.database.db);
  const tags = ['accounts'];

  r.post(
    '/api/accounts/sign-in/two-factor',
    {
      config: perIp(20),
      schema: {
        tags,
        summary: 'Second step of logging in: a code from the app or a backup code',
        body: twoFactorSignInBody,
        response: { 200: currentUser, ...errors },
      },
    },
    async (request, reply) => {
      return presentCurrentUser(await completeTwoFactorSignIn(app, attempts, request, reply, request.body));
    },
  );

  r.get(
    '/api/accounts/two-factor',
    {
      schema: {
        tags,
        summary: 'Is two-factor sign-in on, and the assurance level of this session',
        response: { 200: twoFactorStatus, 401: errorBody },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return twoFactorState(app, await app.requireViewer(request));
    },
  );

  r.post(
    '/api/accounts/two-factor/setup',
    {
      config: perIp(10),
      schema: {
        tags,
        summary: 'Start turning two-factor on: a new key and its QR code',
        body: passwordBody,
        response: { 200: twoFactorSetup, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return startTwoFactorSetup(app, request, await app.requireViewer(request), request.body.password);
    },
  );

  r.post(
    '/api/accounts/two-factor/confirm',
    {
      config: perIp(20),
      schema: {
        tags,
        summary: 'Confirm the key with a code: two-factor is on; answers 10 backup codes',
        body: codeBody,
        response: { 200: backupCodes, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return {
        backupCodes: await confirmTwoFactorSetup(app, attempts, request, reply, await app.requireViewer(request), request.body.code),
      };
    },
  );

  r.post(
    '/api/accounts/two-factor/backup-codes',
    {
      config: perIp(10),
      schema: {
        tags,
        summary: 'New backup codes (the old ones stop working)',
        body: passwordBody,
        response: { 200: backupCodes, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { backupCodes: await regenerateBackupCodes(app, request, await app.requireViewer(request), request.body.password) };
    },
  );

  r.post(
    '/api/accounts/two-factor/verify',
    {
      config: perIp(20),
      schema: {
        tags,
        summary: 'Confirm it is you with a code before a sensitive change (this session becomes aal2)',
        body: codeBody,
        response: { 200: ok, ...errors },
      },
    },
    async (request) => {
      await stepUp(app, attempts, request, await app.requireViewer(request), request.body.code);
      return { ok: true as const, message: 'Confirmed' };
    },
  );

  r.post(
    '/api/accounts/two-factor/disable',
    {
      config: perIp(10),
      schema: { tags, summary: 'Turn two-factor off (password and a code)', body: disableTwoFactorBody, response: { 200: ok, ...errors } },
    },
    async (request, reply) => {
      await disableTwoFactor(app, attempts, request, reply, await app.requireViewer(request), request.body);
      return { ok: true as const, message: 'Two-factor sign-in is off' };
    },
  );

  r.get(
    '/api/accounts/linked-accounts',
    {
      schema: { tags, summary: 'The ways to log in to your account', response: { 200: linkedAccounts, 401: errorBody } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return listLinkedAccounts(app, await app.requireViewer(request));
    },
  );

  r.post(
    '/api/accounts/linked-accounts/google',
    {
      config: perIp(20),
      schema: {
        tags,
        summary: 'Start linking Google to your account (answers the Google URL)',
        response: { 200: z.object({ url: z.string() }), ...errors },
      },
    },
    async (request, reply) => {
      return startGoogleLink(app, request, reply, await app.requireViewer(request), '/user/settings');
    },
  );

  r.post(
    '/api/accounts/linked-accounts/unlink',
    {
      schema: {
        tags,
        summary: 'Unlink a way to log in (never the last one)',
        body: z.object({ provider: linkedProvider }),
        response: { 200: ok, ...errors },
      },
    },
    async (request) => {
      await unlinkAccount(app, await app.requireViewer(request), request.body.provider);
      return { ok: true as const, message: request.body.provider === 'google' ? 'Google is unlinked' : 'Your password is removed' };
    },
  );

  r.post(
    '/api/accounts/password',
    {
      config: perIp(10),
      schema: {
        tags,
        summary: 'Set a password on an account that only logs in with Google',
        body: setPasswordBody,
        response: { 200: ok, ...errors },
      },
    },
    async (request) => {
      await setPassword(app, request, await app.requireViewer(request), request.body.password);
      return { ok: true as const, message: 'Your password is set. You can now log in with your email and password.' };
    },
  );

  r.post(
    '/api/accounts/sessions/revoke-all',
    {
      schema: {
        tags,
        summary: 'Sign out everywhere, this device included',
        response: { 200: z.object({ ok: z.literal(true), message: z.string(), revoked: z.number() }), 401: errorBody },
      },
    },
    async (request, reply) => {
      const revoked = await signOutEverywhere(app, reply, await app.requireViewer(request));
      return { ok: true as const, message: 'Signed out everywhere', revoked };
    },
  );
}
