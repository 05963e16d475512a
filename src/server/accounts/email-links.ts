import { APIError } from 'better-auth/api';
import { MESSAGES, passwordWeaknesses } from '../../shared/accounts.js';
import type { AppServices } from '../app-services.js';
import { AppError } from '../http/errors.js';
import type { AttemptCounter } from './attempts.js';
import { accountAttemptsKey } from './sign-in.js';

/**
 * What is done through an emailed link: verifying the email, resetting the password.
 * `headers` are the request's, passed on to the auth library. The answers never tell
 * whether an account exists (no account enumeration).
 */

type Auth = Pick<AppServices, 'auth' | 'log'>;

/** Sends the verification email again, at most once a minute per email; answers the message to show. */
export async function resendVerification(app: Auth, attempts: AttemptCounter, headers: Headers, input: { email: string }): Promise<string> {
  const email = input.email.toLowerCase();
  if (!email) throw new AppError(400, 'empty_fields', MESSAGES.emptyFields, { fields: { email: 'Email is required' } });
  const key = `resend:${email}`;
  // Counted before sending (one atomic upsert), so concurrent requests cannot all pass.
  await attempts.take([key], 1, 60, 'We just sent a link.');
  try {
    await app.auth.api.sendVerificationEmail({ body: { email, callbackURL: '/email-verified' }, headers });
  } catch (err) {
    // Unknown or already verified emails get the same answer.
    if (!(err instanceof APIError)) throw err;
  }
  return `If ${email} has an account waiting for verification, a new link is on its way.`;
}

/** Emails a password-reset link (the same answer for every email). */
export async function requestPasswordReset(app: Auth, headers: Headers, input: { email: string }): Promise<void> {
  const email = input.email.toLowerCase();
  if (!email) throw new AppError(400, 'empty_fields', MESSAGES.emptyFields, { fields: { email: 'Email is required' } });
  try {
    await app.auth.api.requestPasswordReset({ body: { email, redirectTo: '/reset-password' }, headers });
  } catch (err) {
    if (!(err instanceof APIError)) throw err;
    app.log.warn({ err }, 'password reset request refused');
  }
}

/**
 * Sets a new password with the emailed token (the auth library signs out every sign-in
 * session). It also ends a lock-out of the account after failed log-ins: whoever holds
 * the emailed link is the owner, and the attacker does not know the new password.
 */
export async function resetPassword(
  app: Auth,
  attempts: AttemptCounter,
  headers: Headers,
  input: { token: string; password: string },
): Promise<void> {
  const { token, password } = input;
  if (!password) throw new AppError(400, 'empty_fields', MESSAGES.emptyFields, { fields: { password: 'Password is required' } });
  const reasons = passwordWeaknesses(password);
  if (reasons.length)
    throw new AppError(400, 'weak_password', 'This password is too weak', { reasons, fields: { password: reasons.join('. ') } });
  const ctx = await app.auth.$context;
  const pending = await ctx.internalAdapter.findVerificationValue(`reset-password:${token}`);
  const owner = pending ? await ctx.internalAdapter.findUserById(pending.value) : null;
  try {
    await app.auth.api.resetPassword({ body: { token, newPassword: password }, headers });
    if (owner) await attempts.clear([accountAttemptsKey(owner.email)]);
    // Holding the emailed link proves the address (an invited account starts unverified).
    if (owner && !owner.emailVerified) await ctx.internalAdapter.updateUser(owner.id, { emailVerified: true });
  } catch (err) {
    if (err instanceof APIError && err.statusCode < 500) {
      throw new AppError(400, 'invalid_token', 'This reset link is invalid or has expired. Ask for a new one.', {
        fields: { token: 'invalid or expired' },
      });
    }
    throw err;
  }
}
