import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, like, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { birthdateProblem, passwordWeaknesses } from '../../shared/accounts.js';
import { account, learnerProfile, user, verification } from '../db/schema/accounts.js';
import { learnerInviteEmail } from '../email/templates.js';
import { AppError } from '../http/errors.js';
import type { AttemptCounter } from './attempts.js';
import { lockOwn } from './learner-profile-service.js';
import type { Viewer } from './viewer.js';

/**
 * Family accounts (ADR 0074): a learner profile becomes an account of its own. The account
 * holder invites the learner by email; the one-time link (a `verification` row
 * `learner-invite:<hash>`, 7 days) opens the sign-up page, which creates the account with its
 * email verified; in that transaction accounts announce `learner-profile.became-account` and
 * each domain moves the learner's rows to the new user (courses: the enrolments). The profile
 * stays, hidden, with `became_user_id`.
 */

const PREFIX = 'learner-invite:';
export const INVITE_DAYS = 7;
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
const invalid = () => new AppError(404, 'invite_invalid', 'This invitation link is invalid, used or expired. Ask for a new one.');
const emailTaken = () =>
  new AppError(409, 'email_in_use', 'This address already has an Agora account: invite another address.', {
    fields: { email: 'Already has an account' },
  });

type Invite = { learnerProfileId: string; email: string };

/**
 * The invitation rows of learner profiles (a new invitation replaces them; cancelling deletes
 * them). By text, as they were written: `verification` also holds other kinds of value than JSON.
 */
const invitesOf = (...learnerProfileIds: string[]) =>
  and(
    like(verification.identifier, `${PREFIX}%`),
    or(...learnerProfileIds.map((id) => like(verification.value, `%"learnerProfileId":"${id}"%`))),
  );

async function addressTaken(conn: FastifyInstance['database']['db'], email: string) {
  const [row] = await conn
    .select({ id: user.id })
    .from(user)
    .where(eq(sql`lower(${user.email})`, email))
    .limit(1);
  return !!row;
}

/** Sends the invitation (a new one replaces the profile's previous link). */
export async function inviteLearner(
  app: FastifyInstance,
  attempts: AttemptCounter,
  viewer: Viewer,
  learnerProfileId: string,
  input: { email: string },
): Promise<{ message: string }> {
  const email = input.email.trim().toLowerCase();
  if (email === viewer.user.email.toLowerCase())
    throw new AppError(400, 'own_email', 'This is your own address: enter the learner’s', { fields: { email: 'Your own address' } });
  const token = randomBytes(32).toString('base64url');
  const profile = await app.database.db.transaction((tx) => lockOwn(tx, viewer, learnerProfileId));
  if (await addressTaken(app.database.db, email)) throw emailTaken();
  // Each invitation is an email to an address we do not know yet: a few an hour per account.
  await attempts.take([`learner-invite:${viewer.user.id}`], 5, 3600, 'You sent several invitations recently.');
  await app.database.db.transaction(async (tx) => {
    await tx.delete(verification).where(invitesOf(profile.id));
    await tx.insert(verification).values({
      identifier: PREFIX + tokenHash(token),
      value: JSON.stringify({ learnerProfileId: profile.id, email } satisfies Invite),
      expiresAt: new Date(Date.now() + INVITE_DAYS * 86400_000),
    });
  });
  const holder = `${viewer.user.firstName} ${viewer.user.lastName}`.trim();
  const url = `${app.config.publicUrl}/signup?invite=${token}`;
  await app.mailer.send(learnerInviteEmail(email, profile.firstName, holder, url, INVITE_DAYS));
  return {
    message: `We sent an invitation to ${email}. When ${profile.firstName} creates the account (within ${INVITE_DAYS} days), their classes move to it.`,
  };
}

/**
 * The open invitations of some learner profiles (the caller's own: it lists them first), for
 * the settings page: the address each went to and when its link stops working.
 */
export async function pendingLearnerInvites(
  conn: FastifyInstance['database']['db'],
  learnerProfileIds: string[],
): Promise<{ learnerProfileId: string; email: string; expiresAt: string }[]> {
  if (!learnerProfileIds.length) return [];
  const rows = await conn
    .select({ value: verification.value, expiresAt: verification.expiresAt })
    .from(verification)
    .where(and(invitesOf(...learnerProfileIds), gt(verification.expiresAt, new Date())));
  return rows.map((r) => {
    const invite = JSON.parse(r.value) as Invite;
    return { learnerProfileId: invite.learnerProfileId, email: invite.email, expiresAt: r.expiresAt.toISOString() };
  });
}

/** Cancels a learner's open invitation: its link stops working at once. 404 when none is open (or not the caller's learner). */
export async function cancelLearnerInvite(app: FastifyInstance, viewer: Viewer, learnerProfileId: string): Promise<{ message: string }> {
  return app.database.db.transaction(async (tx) => {
    const profile = await lockOwn(tx, viewer, learnerProfileId);
    const removed = await tx
      .delete(verification)
      .where(invitesOf(profile.id))
      .returning({ value: verification.value, expiresAt: verification.expiresAt });
    // An expired link goes too, but was not waiting any more.
    const email = removed.filter((r) => r.expiresAt > new Date()).map((r) => (JSON.parse(r.value) as Invite).email)[0];
    if (!email) throw AppError.notFound(`No invitation for ${profile.firstName} is waiting`);
    return { message: `The invitation to ${email} was cancelled: its link no longer works.` };
  });
}

/** The invitation behind a link, still valid, with its learner and account holder; 404 otherwise. */
async function openInvite(conn: FastifyInstance['database']['db'], token: string) {
  const [row] = await conn
    .select({ value: verification.value, expiresAt: verification.expiresAt })
    .from(verification)
    .where(eq(verification.identifier, PREFIX + tokenHash(token)))
    .limit(1);
  if (!row || row.expiresAt < new Date()) throw invalid();
  const invite = JSON.parse(row.value) as Invite;
  const [found] = await conn
    .select({ firstName: learnerProfile.firstName, holderFirst: user.firstName, holderLast: user.lastName })
    .from(learnerProfile)
    .innerJoin(user, eq(user.id, learnerProfile.accountId))
    .where(and(eq(learnerProfile.id, invite.learnerProfileId), isNull(learnerProfile.becameUserId), isNull(learnerProfile.removedAt)))
    .limit(1);
  if (!found) throw invalid();
  return { ...invite, firstName: found.firstName, holderName: `${found.holderFirst ?? ''} ${found.holderLast ?? ''}`.trim() };
}

/** What the sign-up page shows for an invitation link. */
export async function readLearnerInvite(app: FastifyInstance, token: string) {
  const { email, firstName, holderName } = await openInvite(app.database.db, token);
  return { email, firstName, holderName };
}

/**
 * Creates the learner's account from the invitation, in one transaction: the link is used up,
 * the user is made (email verified: the link reached it) with its password, the profile points
 * to it, and every domain moves the learner's rows there (`learner-profile.became-account`).
 */
export async function acceptLearnerInvite(
  app: FastifyInstance,
  input: { token: string; lastName: string; password: string; birthdate: string },
): Promise<{ email: string }> {
  const preview = await openInvite(app.database.db, input.token);
  const dateProblem = birthdateProblem(input.birthdate);
  if (dateProblem) throw AppError.badRequest(dateProblem, { birthdate: dateProblem });
  const reasons = passwordWeaknesses(input.password, preview.email);
  if (reasons.length)
    throw new AppError(400, 'weak_password', 'This password is too weak', { reasons, fields: { password: reasons.join('. ') } });
  const ctx = await app.auth.$context;
  const hash = await ctx.password.hash(input.password);

  await app.accountEvents.transaction(app.database.db, async (tx, announce) => {
    const [used] = await tx
      .delete(verification)
      .where(eq(verification.identifier, PREFIX + tokenHash(input.token)))
      .returning({ value: verification.value, expiresAt: verification.expiresAt });
    if (!used || used.expiresAt < new Date()) throw invalid();
    const invite = JSON.parse(used.value) as Invite;
    const [profile] = await tx
      .select()
      .from(learnerProfile)
      .where(and(eq(learnerProfile.id, invite.learnerProfileId), isNull(learnerProfile.becameUserId), isNull(learnerProfile.removedAt)))
      .for('update');
    if (!profile) throw invalid();
    const [created] = await tx
      .insert(user)
      .values({
        email: invite.email,
        name: `${profile.firstName} ${input.lastName}`,
        firstName: profile.firstName,
        lastName: input.lastName,
        birthdate: input.birthdate,
        emailVerified: true,
      })
      .onConflictDoNothing()
      .returning({ id: user.id });
    if (!created) throw emailTaken();
    await tx.insert(account).values({ accountId: created.id, providerId: 'credential', userId: created.id, password: hash });
    await tx.update(learnerProfile).set({ becameUserId: created.id, updatedAt: new Date() }).where(eq(learnerProfile.id, profile.id));
    // Courses moves the profile's enrolments to the new account here (and any domain keeping rows of it).
    await announce('learner-profile.became-account', { accountId: profile.accountId, learnerProfileId: profile.id, userId: created.id });
  });
  return { email: preview.email };
}
