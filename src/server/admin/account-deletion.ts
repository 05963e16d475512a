import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AttemptCounter } from '../accounts/attempts.js';
import { checkCurrentPassword } from '../accounts/account-settings.js';
import { eraseAccount } from '../accounts/erasure.js';
import { sessionCookieName } from '../accounts/auth.js';
import { requireRecentSecondFactor } from '../accounts/two-factor.js';
import type { Viewer } from '../accounts/viewer.js';
import { runningSubscriptionOf } from '../payments/purchases.js';
import { accountDeletedEmail } from '../email/templates.js';
import { AppError } from '../http/errors.js';
import { eraseUser } from './users.js';

/**
 * The owner deletes their own account from settings: the current password, the account's
 * email typed again, a recent second factor when two-factor is on. The erasure is the
 * admin console's (users.ts): personal data erased, payment records kept under a
 * pseudonym. Running installment plans or an Educator Pro subscription must end first, so
 * that no card is charged for an account that no longer exists.
 */
export async function deleteOwnAccount(
  app: FastifyInstance,
  attempts: AttemptCounter,
  reply: FastifyReply,
  viewer: Viewer,
  input: { password: string; confirmEmail: string },
) {
  if (input.confirmEmail.toLowerCase() !== viewer.user.email.toLowerCase()) {
    throw new AppError(400, 'confirmation_mismatch', 'Type the email of your account to confirm', {
      fields: { confirmEmail: 'Does not match your email' },
    });
  }
  await requireRecentSecondFactor(app, viewer);
  await checkCurrentPassword(app, attempts, viewer, input.password, 'password');
  const running = await runningSubscriptionOf(app.database.db, viewer.user.id);
  if (running) {
    throw new AppError(
      409,
      'subscription_running',
      running === 'plan'
        ? 'End your Educator Pro plan first: then delete your account.'
        : 'You are paying for a course in installments: drop that session (or pay the rest) first, then delete your account.',
    );
  }
  const { email, firstName } = viewer.user;
  await eraseAccount(app, viewer.user.id, (tx) => eraseUser(tx, viewer.user.id, 'Account deleted by its owner'));
  reply.header(
    'set-cookie',
    `${sessionCookieName(app.config)}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${app.config.production ? '; Secure' : ''}`,
  );
  await app.mailer
    .send(accountDeletedEmail(email, firstName, app.config.publicUrl))
    .catch((err) => app.log.warn({ err }, 'could not send the account deletion email'));
}
