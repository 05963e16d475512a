import { createHash, randomBytes } from 'node:crypto';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { passwordWeaknesses } from '../../shared/accounts.js';
import { account, signInSession, user, verification } from '../db/schema/accounts.js';
import { emailChangedNoticeEmail, emailChangeEmail } from '../email/templates.js';
import { AppError } from '../http/errors.js';
import type { AttemptCounter } from './attempts.js';
import { requireRecentSecondFactor } from './two-factor.js';
import type { Viewer } from './viewer.js';

/**
 * Changes the signed-in person makes to their own account from settings: the password and
 * the email address (verified at the new address before it takes effect). Each asks for
 * the current password, and for a recent second factor when two-factor is on; wrong
 * passwords count towards a per-account limit. (Deleting the account is in admin/, where
 * the erasure lives.)
 */

const PASSWORD_LIMIT = 5;
const PASSWORD_WINDOW_SECONDS = 15 * 60;
const EMAIL_CHANGE_HOURS = 24;
const EMAIL_CHANGE_PREFIX = 'email-change:';

type App = FastifyInstance;

/** The current password is right; a wrong one counts (5 in 15 minutes per account) and answers 400 on `field`. */
export async function checkCurrentPassword(
  app: App,
  attempts: AttemptCounter,
  viewer: Viewer,
  password: string,
  field = 'currentPassword',
): Promise<void> {
  const ctx = await app.auth.$context;
  const credential = await ctx.internalAdapter.findCredentialAccount(viewer.user.id);
  if (!credential?.password) {
    throw new AppError(409, 'no_password', 'This account logs in with Google only: set a password first (Ways to log in, above).');
  }
  if (!password) throw new AppError(400, 'empty_fields', 'Enter your current password', { fields: { [field]: 'Required' } });
  const keys = [`settings-password:${viewer.user.id}`];
  const giveBack = await attempts.take(keys, PASSWORD_LIMIT, PASSWORD_WINDOW_SECONDS, 'Too many wrong passwords.');
  if (!(await ctx.password.verify({ hash: credential.password, password }))) {
    throw new AppError(400, 'wrong_password', 'Your current password is not right', { fields: { [field]: 'Not your current password' } });
  }
  await giveBack(keys);
}

/** A new password: the current one first; every other sign-in session is signed out. */
export async function changePassword(
  app: App,
  attempts: AttemptCounter,
  viewer: Viewer,
  input: { currentPassword: string; newPassword: string },
): Promise<{ signedOut: number }> {
  await requireRecentSecondFactor(app, viewer);
  await checkCurrentPassword(app, attempts, viewer, input.currentPassword);
  const reasons = passwordWeaknesses(input.newPassword, viewer.user.email);
  if (reasons.length)
    throw new AppError(400, 'weak_password', 'This password is too weak', { reasons, fields: { newPassword: reasons.join('. ') } });
  if (input.newPassword === input.currentPassword)
    throw new AppError(400, 'same_password', 'Choose a password different from the current one', {
      fields: { newPassword: 'Same as the current password' },
    });
  const ctx = await app.auth.$context;
  const hash = await ctx.password.hash(input.newPassword);
  return app.database.db.transaction(async (tx) => {
    await tx
      .update(account)
      .set({ password: hash, updatedAt: new Date() })
      .where(and(eq(account.userId, viewer.user.id), eq(account.providerId, 'credential')));
    const others = await tx
      .delete(signInSession)
      .where(and(eq(signInSession.userId, viewer.user.id), ne(signInSession.id, viewer.signInSessionId)))
      .returning({ id: signInSession.id });
    return { signedOut: others.length };
  });
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Asks to move the account to a new address: a link goes to the new address, and nothing
 * changes until it is opened (within 24 hours). A new request replaces the previous one.
 */
export async function requestEmailChange(
  app: App,
  attempts: AttemptCounter,
  viewer: Viewer,
  input: { newEmail: string; password: string },
): Promise<{ message: string }> {
  const newEmail = input.newEmail.trim().toLowerCase();
  if (newEmail === viewer.user.email.toLowerCase())
    throw new AppError(400, 'same_email', 'This is already your email address', { fields: { newEmail: 'Same as your current email' } });
  await requireRecentSecondFactor(app, viewer);
  await checkCurrentPassword(app, attempts, viewer, input.password, 'password');
  // At most 3 links an hour per account: each one is an email to an address we do not know yet.
  await attempts.take([`email-change:${viewer.user.id}`], 3, 3600, 'You asked for several email changes recently.');
  const [taken] = await app.database.db
    .select({ id: user.id })
    .from(user)
    .where(eq(sql`lower(${user.email})`, newEmail))
    .limit(1);
  if (taken) throw new AppError(409, 'email_taken', 'Another account uses this email address', { fields: { newEmail: 'Already in use' } });

  const token = randomBytes(32).toString('base64url');
  await app.database.db.transaction(async (tx) => {
    await tx.execute(
      sql`delete from verification where identifier like ${EMAIL_CHANGE_PREFIX + '%'} and value like ${`%"userId":"${viewer.user.id}"%`}`,
    );
    await tx.insert(verification).values({
      identifier: EMAIL_CHANGE_PREFIX + tokenHash(token),
      value: JSON.stringify({ userId: viewer.user.id, newEmail }),
      expiresAt: new Date(Date.now() + EMAIL_CHANGE_HOURS * 3600_000),
    });
  });
  const url = `${app.config.publicUrl}/api/accounts/email-change/confirm?token=${token}`;
  await app.mailer.send(emailChangeEmail(newEmail, viewer.user.firstName, viewer.user.email, url));
  return { message: `We sent a link to ${newEmail}. Your email changes when you open it (within ${EMAIL_CHANGE_HOURS} hours).` };
}

/**
 * The link from the new address: the account's email becomes it (verified), the old
 * address is told. Answers where to send the browser.
 */
export async function confirmEmailChange(app: App, token: string): Promise<{ ok: boolean }> {
  const now = new Date();
  const result = await app.database.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(verification)
      .where(eq(verification.identifier, EMAIL_CHANGE_PREFIX + tokenHash(token)))
      .returning({ value: verification.value, expiresAt: verification.expiresAt });
    if (!row || row.expiresAt < now) return null;
    const { userId, newEmail } = JSON.parse(row.value) as { userId: string; newEmail: string };
    const [before] = await tx
      .select({ email: user.email, firstName: user.firstName, banned: user.banned })
      .from(user)
      .where(eq(user.id, userId))
      .for('update');
    if (!before || before.banned) return null;
    const [taken] = await tx
      .select({ id: user.id })
      .from(user)
      .where(eq(sql`lower(${user.email})`, newEmail))
      .limit(1);
    if (taken) return null;
    await tx.update(user).set({ email: newEmail, emailVerified: true, updatedAt: now }).where(eq(user.id, userId));
    return { oldEmail: before.email, firstName: before.firstName ?? '', newEmail };
  });
  if (!result) return { ok: false };
  await app.mailer
    .send(emailChangedNoticeEmail(result.oldEmail, result.firstName, result.newEmail, `${app.config.publicUrl}/send-password-reset`))
    .catch((err) => app.log.warn({ err }, 'could not tell the old address about the email change'));
  return { ok: true };
}
