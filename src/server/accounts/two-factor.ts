import { APIError } from 'better-auth/api';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { twoFactor as twoFactorPlugin } from 'better-auth/plugins';
import QRCode from 'qrcode';
import { signInSession, twoFactor, user } from '../db/schema/accounts.js';
import { AppError } from '../http/errors.js';
import { forwardCookies, toHeaders } from '../http/headers.js';
import type { AttemptCounter } from './attempts.js';
import { sessionCookieName } from './auth.js';
import { tokenFromCookie, type Viewer } from './viewer.js';

/**
 * Two-factor sign-in with an authenticator app (better-auth's twoFactor plugin) behind our
 * rules: code attempts are counted per account and per IP, every change needs a recent
 * aal2 sign-in, and each sign-in session records its assurance level (docs/decisions/0013).
 */

/** The plugin's server API (createAuth's plugin list is untyped, so its endpoints are named here). */
type TwoFactorApi = ReturnType<typeof twoFactorPlugin>['endpoints'];
const tf = (app: FastifyInstance) => app.auth.api as unknown as TwoFactorApi;

/** How long after a second factor a session may change email, password or 2FA settings. */
export const RECENT_SECOND_FACTOR_SECONDS = 60 * 60;
const CODE_WINDOW_SECONDS = 15 * 60;
const CODE_LIMIT = 10;
const CODE_LIMIT_MESSAGE = 'Too many wrong codes.';

const TOTP_RE = /^\d{6}$/;
export const BACKUP_CODE_RE = /^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/;

/** "abcde-fghij" as stored; people may type it without the dash. */
function normaliseBackupCode(code: string) {
  const c = code.replace(/\s+/g, '');
  return c.includes('-') ? c : `${c.slice(0, 5)}-${c.slice(5)}`;
}

/** Maps the library's refusals onto our error body. */
function libraryError(err: unknown): never {
  if (err instanceof APIError) {
    const code = String(err.body?.code ?? '');
    if (code === 'INVALID_PASSWORD')
      throw new AppError(400, 'incorrect_password', 'The password is not correct', { fields: { password: 'The password is not correct' } });
    if (code === 'INVALID_CODE' || code === 'INVALID_BACKUP_CODE')
      throw new AppError(400, 'invalid_code', 'This code is not correct or has expired', {
        fields: { code: 'This code is not correct or has expired' },
      });
    if (code === 'ACCOUNT_TEMPORARILY_LOCKED' || code === 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE') {
      throw new AppError(429, 'rate_limited', 'Too many wrong codes. Log in again in 15 minutes.', { retryAfterSeconds: 15 * 60 });
    }
    if (code === 'INVALID_TWO_FACTOR_COOKIE')
      throw new AppError(401, 'two_factor_expired', 'This log-in has expired. Enter your email and password again.');
    if (code === 'TOTP_ALREADY_ENABLED') throw new AppError(409, 'two_factor_already_on', 'Two-factor sign-in is already on');
    if (code === 'TOTP_NOT_ENABLED' || code === 'BACKUP_CODES_NOT_ENABLED')
      throw new AppError(409, 'two_factor_off', 'Two-factor sign-in is not on');
    if (err.statusCode === 401) throw AppError.unauthorized();
  }
  throw err;
}

/** The token of the session a library response set as cookie (after a session rotation). */
function sessionTokenFrom(app: FastifyInstance, headers: Headers): string | null {
  const cookie = headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return tokenFromCookie(cookie, sessionCookieName(app.config), app.config.authSecret);
}

async function markSecondFactor(app: FastifyInstance, where: { token: string } | { id: string }) {
  await app.database.db
    .update(signInSession)
    .set({ aal: 'aal2', secondFactorAt: new Date() })
    .where('token' in where ? eq(signInSession.token, where.token) : eq(signInSession.id, where.id));
}

export async function twoFactorState(app: FastifyInstance, viewer: Viewer) {
  const [row] = await app.database.db
    .select({ enabled: user.twoFactorEnabled, aal: signInSession.aal, secondFactorAt: signInSession.secondFactorAt })
    .from(signInSession)
    .innerJoin(user, eq(user.id, signInSession.userId))
    .where(eq(signInSession.id, viewer.signInSessionId));
  if (!row) throw AppError.unauthorized();
  const recent =
    row.aal === 'aal2' && !!row.secondFactorAt && Date.now() - row.secondFactorAt.getTime() < RECENT_SECOND_FACTOR_SECONDS * 1000;
  return { enabled: row.enabled, aal: row.aal as 'aal1' | 'aal2', recentSecondFactor: recent };
}

/**
 * Changing email, password, linked accounts or two-factor settings while two-factor is on
 * needs a second factor in this session within the last hour (403 second_factor_required:
 * the web app asks for a code and calls the step-up route).
 */
export async function requireRecentSecondFactor(app: FastifyInstance, viewer: Viewer) {
  const state = await twoFactorState(app, viewer);
  if (state.enabled && !state.recentSecondFactor) {
    throw new AppError(403, 'second_factor_required', 'Enter a code from your authenticator app to confirm it is you.');
  }
}

async function takeCodeAttempt(attempts: AttemptCounter, request: FastifyRequest, subject: string) {
  const keys = [`2fa:ip:${request.ip}`, `2fa:${subject}`];
  const giveBack = await attempts.take(keys, CODE_LIMIT, CODE_WINDOW_SECONDS, CODE_LIMIT_MESSAGE);
  return () => giveBack(keys).catch((err) => request.log.warn({ err }, 'could not give back a code attempt'));
}

/** Starts turning two-factor on: a new key (as text and QR code); it is on once confirmed. */
export async function startTwoFactorSetup(app: FastifyInstance, request: FastifyRequest, viewer: Viewer, password: string) {
  const state = await twoFactorState(app, viewer);
  if (state.enabled) throw new AppError(409, 'two_factor_already_on', 'Two-factor sign-in is already on');
  const result = await tf(app)
    .enableTwoFactor({
      body: { password: password || undefined, method: 'totp' },
      headers: toHeaders(request),
    })
    .catch(libraryError);
  const totpUri = (result as { totpURI: string }).totpURI;
  const key = new URL(totpUri).searchParams.get('secret') ?? '';
  const qrCodeSvg = await QRCode.toString(totpUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
  return { totpUri, key, qrCode: `data:image/svg+xml;base64,${Buffer.from(qrCodeSvg).toString('base64')}` };
}

/** Confirms the new key with a first code: two-factor is on, this session is aal2; answers the backup codes. */
export async function confirmTwoFactorSetup(
  app: FastifyInstance,
  attempts: AttemptCounter,
  request: FastifyRequest,
  reply: FastifyReply,
  viewer: Viewer,
  code: string,
) {
  const state = await twoFactorState(app, viewer);
  if (state.enabled) throw new AppError(409, 'two_factor_already_on', 'Two-factor sign-in is already on');
  const [pending] = await app.database.db.select({ id: twoFactor.id }).from(twoFactor).where(eq(twoFactor.userId, viewer.user.id));
  if (!pending) throw new AppError(409, 'two_factor_not_started', 'Start again: scan a new QR code first');
  if (!TOTP_RE.test(code))
    throw new AppError(400, 'invalid_code', 'Enter the 6-digit code from your app', {
      fields: { code: 'Enter the 6-digit code from your app' },
    });
  const giveBack = await takeCodeAttempt(attempts, request, `user:${viewer.user.id}`);
  // The library rotates the session when two-factor turns on: forward the new cookie.
  const { headers } = await tf(app)
    .verifyTOTP({ body: { code }, headers: toHeaders(request), returnHeaders: true })
    .catch(libraryError);
  await giveBack();
  forwardCookies(headers, reply);
  const token = sessionTokenFrom(app, headers);
  if (token) await markSecondFactor(app, { token });
  else await markSecondFactor(app, { id: viewer.signInSessionId });
  return backupCodesOf(app, viewer.user.id);
}

async function backupCodesOf(app: FastifyInstance, userId: string): Promise<string[]> {
  const { backupCodes } = await tf(app).viewBackupCodes({ body: { userId } });
  return backupCodes;
}

/** New backup codes (the old ones stop working). */
export async function regenerateBackupCodes(app: FastifyInstance, request: FastifyRequest, viewer: Viewer, password: string) {
  const state = await twoFactorState(app, viewer);
  if (!state.enabled) throw new AppError(409, 'two_factor_off', 'Two-factor sign-in is not on');
  await requireRecentSecondFactor(app, viewer);
  const result = await tf(app)
    .generateBackupCodes({ body: { password: password || undefined }, headers: toHeaders(request) })
    .catch(libraryError);
  return result.backupCodes;
}

/**
 * Checks a code (authenticator or backup code) for the signed-in session and records the
 * second factor on it: the step-up before a sensitive change.
 */
export async function stepUp(app: FastifyInstance, attempts: AttemptCounter, request: FastifyRequest, viewer: Viewer, code: string) {
  const state = await twoFactorState(app, viewer);
  if (!state.enabled) throw new AppError(409, 'two_factor_off', 'Two-factor sign-in is not on');
  const giveBack = await takeCodeAttempt(attempts, request, `user:${viewer.user.id}`);
  const headers = toHeaders(request);
  if (TOTP_RE.test(code)) {
    await tf(app).verifyTOTP({ body: { code }, headers }).catch(libraryError);
  } else if (BACKUP_CODE_RE.test(code)) {
    await tf(app)
      .verifyBackupCode({ body: { code: normaliseBackupCode(code), disableSession: true }, headers })
      .catch(libraryError);
  } else {
    throw new AppError(400, 'invalid_code', 'This code is not correct or has expired', {
      fields: { code: 'This code is not correct or has expired' },
    });
  }
  await giveBack();
  await markSecondFactor(app, { id: viewer.signInSessionId });
}

/** Turns two-factor off: needs the password (when the account has one) and a code. */
export async function disableTwoFactor(
  app: FastifyInstance,
  attempts: AttemptCounter,
  request: FastifyRequest,
  reply: FastifyReply,
  viewer: Viewer,
  input: { password: string; code: string },
) {
  await stepUp(app, attempts, request, viewer, input.code);
  const { headers } = await tf(app)
    .disableTwoFactor({
      body: { password: input.password || undefined },
      headers: toHeaders(request),
      returnHeaders: true,
    })
    .catch(libraryError);
  forwardCookies(headers, reply);
}

/**
 * The second step of a password sign-in: a code from the app or a backup code, read with
 * the short-lived two-factor cookie the first step set. The new session is aal2.
 */
export async function completeTwoFactorSignIn(
  app: FastifyInstance,
  attempts: AttemptCounter,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { code: string; trustDevice: boolean },
) {
  const code = input.code.replace(/\s+/g, '');
  if (!TOTP_RE.test(code) && !BACKUP_CODE_RE.test(code)) {
    throw new AppError(400, 'invalid_code', 'Enter the 6-digit code from your app or one of your backup codes', {
      fields: { code: 'Enter a 6-digit code or a backup code' },
    });
  }
  const keys = [`2fa:ip:${request.ip}`];
  const giveBack = await attempts.take(keys, app.config.authRateLimit, CODE_WINDOW_SECONDS, CODE_LIMIT_MESSAGE);
  const call = TOTP_RE.test(code)
    ? tf(app).verifyTOTP({ body: { code, trustDevice: input.trustDevice }, headers: toHeaders(request), returnHeaders: true })
    : tf(app).verifyBackupCode({
        body: { code: normaliseBackupCode(code), trustDevice: input.trustDevice },
        headers: toHeaders(request),
        returnHeaders: true,
      });
  const { headers } = await call.catch(libraryError);
  await giveBack(keys).catch(() => undefined);
  forwardCookies(headers, reply);
  const token = sessionTokenFrom(app, headers);
  if (!token) throw AppError.unauthorized();
  await markSecondFactor(app, { token });
  const cookies = headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const viewer = await app.viewerFromCookie(cookies);
  if (!viewer) throw AppError.unauthorized();
  return viewer;
}
