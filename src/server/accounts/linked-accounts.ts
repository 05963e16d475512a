import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { passwordWeaknesses } from '../../shared/accounts.js';
import type { LinkedProvider } from '../../shared/accounts-security-schemas.js';
import { account, signInSession } from '../db/schema/accounts.js';
import { AppError } from '../http/errors.js';
import { forwardCookies, toHeaders } from '../http/headers.js';
import { sessionCookieName } from './auth.js';
import { requireRecentSecondFactor } from './two-factor.js';
import type { Viewer } from './viewer.js';

/**
 * The ways into an account (a password, Google) and the sign-out scopes. better-auth calls
 * a password "credential"; we say "password" to people.
 */
const PROVIDER_ID: Record<LinkedProvider, string> = { password: 'credential', google: 'google' };

export async function listLinkedAccounts(app: FastifyInstance, viewer: Viewer) {
  const rows = await app.database.db
    .select({ providerId: account.providerId, createdAt: account.createdAt })
    .from(account)
    .where(eq(account.userId, viewer.user.id));
  const accounts = rows.flatMap((r) => {
    const provider = r.providerId === 'credential' ? 'password' : r.providerId === 'google' ? 'google' : null;
    return provider ? [{ provider: provider as LinkedProvider, linkedAt: r.createdAt.toISOString() }] : [];
  });
  return { accounts, googleAvailable: !!app.config.google };
}

/** Starts the Google redirect flow that links Google to the signed-in account. */
export async function startGoogleLink(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  viewer: Viewer,
  returnTo: string,
) {
  if (!app.config.google) throw AppError.notFound('Google sign-in is not set up on this server');
  await requireRecentSecondFactor(app, viewer);
  const { headers, response } = await app.auth.api.linkSocialAccount({
    body: { provider: 'google', callbackURL: returnTo, errorCallbackURL: returnTo },
    headers: toHeaders(request),
    returnHeaders: true,
  });
  // The state cookie the callback checks.
  forwardCookies(headers, reply);
  return { url: response.url };
}

/** Unlinks one way in; the last one is refused (single_identity_not_deletable). */
export async function unlinkAccount(app: FastifyInstance, viewer: Viewer, provider: LinkedProvider) {
  await requireRecentSecondFactor(app, viewer);
  const db = app.database.db;
  await db.transaction(async (tx) => {
    // Locks the user's rows so two concurrent unlinks cannot remove both ways in.
    const rows = await tx
      .select({ id: account.id, providerId: account.providerId })
      .from(account)
      .where(eq(account.userId, viewer.user.id))
      .for('update');
    const target = rows.find((r) => r.providerId === PROVIDER_ID[provider]);
    if (!target) throw AppError.notFound('This account is not linked');
    if (rows.length <= 1) {
      throw new AppError(
        409,
        'single_identity_not_deletable',
        provider === 'password'
          ? `Your password is the only way to log in to this account, so it cannot be removed.${app.config.google ? ' Link Google first.' : ''}`
          : 'Google is the only way to log in to this account, so it cannot be unlinked. Set a password first.',
      );
    }
    await tx.delete(account).where(and(eq(account.id, target.id), eq(account.userId, viewer.user.id)));
  });
}

/** A Google-only account sets a password (then it can log in with email and password too). */
export async function setPassword(app: FastifyInstance, request: FastifyRequest, viewer: Viewer, password: string) {
  await requireRecentSecondFactor(app, viewer);
  const reasons = passwordWeaknesses(password, viewer.user.email);
  if (reasons.length)
    throw new AppError(400, 'weak_password', 'This password is too weak', { reasons, fields: { password: reasons.join('. ') } });
  const [existing] = await app.database.db
    .select({ id: account.id })
    .from(account)
    .where(and(eq(account.userId, viewer.user.id), eq(account.providerId, 'credential')));
  if (existing) throw new AppError(409, 'password_already_set', 'This account already has a password. Use "Forgot password" to change it.');
  await app.auth.api.setPassword({ body: { newPassword: password }, headers: toHeaders(request) });
}

/** Signs out every device, this one included, and clears this browser's cookie. */
export async function signOutEverywhere(app: FastifyInstance, reply: FastifyReply, viewer: Viewer) {
  const deleted = await app.database.db
    .delete(signInSession)
    .where(eq(signInSession.userId, viewer.user.id))
    .returning({ id: signInSession.id });
  reply.header(
    'set-cookie',
    `${sessionCookieName(app.config)}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${app.config.production ? '; Secure' : ''}`,
  );
  return deleted.length;
}
