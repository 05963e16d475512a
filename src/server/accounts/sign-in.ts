import { APIError } from 'better-auth/api';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES, type SignInBody } from '../../shared/accounts.js';
import { user } from '../db/schema/accounts.js';
import { AppError, databaseFailure } from '../http/errors.js';
import { forwardCookies, toHeaders } from '../http/headers.js';
import { signInAttackEmail } from '../email/templates.js';
import type { AttemptCounter } from './attempts.js';

const WINDOW_SECONDS = 15 * 60;
const LIMIT_MESSAGE = 'Too many failed attempts to log in.';

/** The counter of failed log-ins of one account (a password reset clears it). */
export const accountAttemptsKey = (email: string) => `signin:account:${email.toLowerCase()}`;

/**
 * Password sign-in. Failed attempts are counted per IP and per account; at the limit
 * the caller gets 429 with the time to wait, before the password is even checked. The
 * attempt is counted first (atomically) and given back when it turns out not to be a
 * failure, so concurrent attempts cannot all be checked (docs/decisions/0003).
 * Sets the sign-in session cookie on the reply and answers the signed-in viewer, or
 * { twoFactorRequired } when the account asks for a code next (two-factor.ts).
 */
export async function signIn(
  app: FastifyInstance,
  attempts: AttemptCounter,
  request: FastifyRequest,
  reply: FastifyReply,
  input: Required<Pick<SignInBody, 'email' | 'password'>> & { rememberMe?: boolean },
) {
  if (!input.email || !input.password) {
    throw new AppError(400, 'empty_fields', MESSAGES.emptyFields, {
      fields: {
        ...(input.email ? {} : { email: 'Email is required' }),
        ...(input.password ? {} : { password: 'Password is required' }),
      },
    });
  }
  const email = input.email.toLowerCase();
  const ipKey = `signin:ip:${request.ip}`;
  const accountKey = accountAttemptsKey(email);
  let giveBack: Awaited<ReturnType<AttemptCounter['take']>>;
  try {
    giveBack = await attempts.take([ipKey, accountKey], app.config.authRateLimit, WINDOW_SECONDS, LIMIT_MESSAGE);
  } catch (err) {
    // In the background: the answer must not take longer when the account exists.
    if (err instanceof AppError && err.status === 429) {
      warnOwnerOfAttack(app, attempts, email).catch((e) => request.log.warn({ err: e }, 'could not warn the owner of an attacked account'));
    }
    throw err;
  }
  let failed = false;

  let cookies: string[];
  try {
    const { headers, response } = await app.auth.api.signInEmail({
      body: { email, password: input.password, rememberMe: input.rememberMe ?? true, callbackURL: '/email-verified' },
      headers: toHeaders(request),
      returnHeaders: true,
    });
    forwardCookies(headers, reply);
    await attempts.clear([accountKey]);
    // Two-factor on: no session yet, only the short-lived cookie of the second step.
    if ((response as { twoFactorRedirect?: boolean }).twoFactorRedirect) return { twoFactorRequired: true as const };
    cookies = headers.getSetCookie();
  } catch (err) {
    if (err instanceof APIError && (err.statusCode === 401 || err.statusCode === 400)) {
      failed = true;
      throw new AppError(401, 'incorrect_credentials', MESSAGES.incorrectCredentials);
    }
    if (err instanceof APIError && err.statusCode === 403 && err.body?.code === 'EMAIL_NOT_VERIFIED') {
      throw new AppError(403, 'email_not_verified', MESSAGES.emailNotVerified);
    }
    if (err instanceof APIError && err.statusCode === 403) {
      // Banned (admin console): the password was right, so the owner may read why.
      const [row] = await app.database.db.select({ banReason: user.banReason }).from(user).where(eq(user.email, email));
      const why = row?.banReason ? ` Reason: ${row.banReason}.` : '';
      throw new AppError(403, 'account_banned', `This account has been suspended.${why} Contact support for help.`);
    }
    // A database that is gone is a 503 for the error handler, not a failed sign-in.
    if (databaseFailure(err) === 'unavailable') throw err;
    request.log.error({ err }, 'sign-in failed');
    throw new AppError(500, 'sign_in_error', MESSAGES.signInError);
  } finally {
    // Only failures count: a success or a refusal for another reason gives the attempt back.
    if (!failed) await giveBack([ipKey, accountKey]).catch((err) => request.log.warn({ err }, 'could not give back a sign-in attempt'));
  }
  const viewer = await app.viewerFromCookie(cookies.map((c) => c.split(';')[0]).join('; '));
  if (!viewer) throw new AppError(500, 'sign_in_error', MESSAGES.signInError);
  return viewer;
}

/**
 * The account is locked after failed log-ins: its owner hears of it by email, once per
 * window, with the way back in (a password reset clears the lock: email-links.ts).
 */
async function warnOwnerOfAttack(app: FastifyInstance, attempts: AttemptCounter, email: string) {
  if ((await attempts.count(accountAttemptsKey(email))) < app.config.authRateLimit) return;
  const ctx = await app.auth.$context;
  const found = await ctx.internalAdapter.findUserByEmail(email);
  if (!found) return;
  try {
    await attempts.take([`signin:alert:${email}`], 1, WINDOW_SECONDS, 'Already warned.');
  } catch (err) {
    if (err instanceof AppError && err.status === 429) return;
    throw err;
  }
  const user = found.user as typeof found.user & { firstName?: string };
  await app.mailer.send(
    signInAttackEmail(user.email, user.firstName ?? '', new URL('/send-password-reset', app.config.publicUrl).toString()),
  );
}
