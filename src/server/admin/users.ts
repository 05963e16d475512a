import type { AdminUserDetail, UserList, UserListQuery } from '../../shared/admin-schemas.js';
import type { AppServices } from '../app-services.js';
import { eraseAccount, eraseAccountRows } from '../accounts/erasure.js';
import type { Viewer } from '../accounts/viewer.js';
import {
  accountRecordOf,
  banAccount,
  createInvitedAccount,
  listAccounts,
  liveSignInSessionsOf,
  lockActiveAdmins,
  promoteAdminsByEmail,
  resetAccountTwoFactor,
  setAccountRole,
  unbanAccount,
} from '../accounts/account-admin.js';
import { archivePublishedCoursesOf } from '../courses/erasure.js';
import { courseTitlesOf, learnerEnrolments } from '../courses/course-records.js';
import { purchaseRecordsOf, type PurchaseRecord } from '../payments/purchase-records.js';
import { AppError } from '../http/errors.js';
import { audit, requireAdmin, type Tx } from './require-admin.js';

function present<T extends { createdAt: Date; lastSignInAt: Date | null }>(r: T) {
  return { ...r, createdAt: r.createdAt.toISOString(), lastSignInAt: r.lastSignInAt?.toISOString() ?? null };
}

export async function listUsers(app: AppServices, viewer: Viewer, query: UserListQuery): Promise<UserList> {
  await requireAdmin(app, viewer);
  const { rows, total } = await listAccounts(app.database.db, query);
  return { users: rows.map(present), total, page: query.page, pageSize: query.pageSize };
}

async function findUser(app: AppServices, userId: string) {
  const row = await accountRecordOf(app.database.db, userId);
  if (!row) throw AppError.notFound('No such user');
  return row;
}

export async function userDetail(app: AppServices, viewer: Viewer, userId: string): Promise<AdminUserDetail> {
  await requireAdmin(app, viewer);
  const db = app.database.db;
  const row = await findUser(app, userId);
  const [sessions, enrolments, purchases] = await Promise.all([
    liveSignInSessionsOf(db, userId),
    learnerEnrolments(db, userId, { order: 'enrolled', limit: 100 }),
    purchaseRecordsOf(db, userId),
  ]);
  const titles = await courseTitlesOf(
    db,
    purchases.flatMap((p) => (p.courseId ? [p.courseId] : [])),
  );
  const iso = <T extends { createdAt: Date }>(r: T) => ({ ...r, createdAt: r.createdAt.toISOString() });
  const record = ({ planName, ...p }: PurchaseRecord) => ({
    ...iso(p),
    title: planName ?? (p.courseId ? (titles.get(p.courseId) ?? 'A deleted course') : 'A deleted course'),
  });
  const isCheckout = (p: PurchaseRecord) => p.state.startsWith('checkout_');
  return {
    user: { ...present(row), city: row.city, image: row.image },
    signInSessions: sessions.map((s) => ({ ...iso(s), updatedAt: s.updatedAt.toISOString() })),
    enrolments: enrolments.map(iso),
    payments: purchases.filter((p) => !isCheckout(p)).map(record),
    checkouts: purchases.filter(isCheckout).map(record),
  };
}

function notSelf(viewer: Viewer, userId: string, what: string) {
  if (viewer.user.id === userId) throw new AppError(409, 'own_account', `You cannot ${what} your own account`);
}

/**
 * The last active admin survives any interleaving (docs/decisions/0053): an action that can
 * take an admin away (revoke, ban, delete) first locks the active admins' rows, in id order
 * so that two such actions queue instead of deadlocking, and checks under that lock that the
 * acting admin still is one (a concurrent action of another admin may just have revoked or
 * banned them) and that an active admin remains once the target is gone.
 */
async function lockAdmins(tx: Tx, viewer: Viewer, removedId: string | null) {
  const ids = await lockActiveAdmins(tx);
  if (!ids.has(viewer.user.id)) throw new AppError(403, 'not_admin', 'Only admins can do this');
  if (removedId) ids.delete(removedId);
  if (ids.size === 0) throw new AppError(409, 'last_admin', 'At least one active admin must remain');
}

/** Bans a user and ends every sign-in session of theirs in the same transaction. */
export async function banUser(app: AppServices, viewer: Viewer, userId: string, input: { reason: string }) {
  await requireAdmin(app, viewer);
  notSelf(viewer, userId, 'ban');
  await findUser(app, userId);
  await app.database.db.transaction(async (tx) => {
    await lockAdmins(tx, viewer, userId);
    await banAccount(tx, userId, input.reason);
    await audit(tx, viewer, { action: 'ban', targetId: userId, reason: input.reason });
  });
}

export async function unbanUser(app: AppServices, viewer: Viewer, userId: string, input: { reason?: string }) {
  await requireAdmin(app, viewer);
  await findUser(app, userId);
  await app.database.db.transaction(async (tx) => {
    await unbanAccount(tx, userId);
    await audit(tx, viewer, { action: 'unban', targetId: userId, reason: input.reason });
  });
}

/** For a user who lost their authenticator and backup codes: they sign in with the password alone. */
export async function resetTwoFactor(app: AppServices, viewer: Viewer, userId: string, input: { reason?: string }) {
  await requireAdmin(app, viewer);
  await findUser(app, userId);
  await app.database.db.transaction(async (tx) => {
    await resetAccountTwoFactor(tx, userId);
    await audit(tx, viewer, { action: 'reset_two_factor', targetId: userId, reason: input.reason });
  });
}

export async function setRole(app: AppServices, viewer: Viewer, userId: string, input: { role: 'user' | 'admin' }) {
  await requireAdmin(app, viewer);
  // The last admin cannot lock everyone out by demoting themselves.
  if (input.role !== 'admin') notSelf(viewer, userId, 'revoke admin from');
  await findUser(app, userId);
  await app.database.db.transaction(async (tx) => {
    await lockAdmins(tx, viewer, input.role === 'admin' ? null : userId);
    await setAccountRole(tx, userId, input.role);
    await audit(tx, viewer, { action: input.role === 'admin' ? 'grant_admin' : 'revoke_admin', targetId: userId });
  });
}

/**
 * Erases a user's personal data. The row stays, pseudonymised, because purchases and
 * payments (which the books must keep) reference its id; sign-in is impossible afterwards.
 */
export async function deleteUser(app: AppServices, viewer: Viewer, userId: string, input: { confirmEmail: string; reason?: string }) {
  await requireAdmin(app, viewer);
  notSelf(viewer, userId, 'delete');
  const target = await findUser(app, userId);
  if (input.confirmEmail.toLowerCase() !== target.email.toLowerCase()) {
    throw new AppError(400, 'confirmation_mismatch', 'Type the email of the account to confirm', {
      fields: { confirmEmail: 'Does not match the email of the account' },
    });
  }
  await eraseAccount(app, userId, async (tx) => {
    await lockAdmins(tx, viewer, userId);
    const erased = await eraseUser(tx, userId, 'Account deleted');
    await audit(tx, viewer, { action: 'delete_user', targetId: userId, reason: input.reason });
    return erased;
  });
}

/**
 * The erasure itself, in the caller's transaction (an admin's delete, or the owner's from
 * settings; accounts' eraseAccount announces it): personal data gone, sign-in impossible, the
 * row kept under a pseudonym for the payment records that reference it. Answers the address it had.
 */
export async function eraseUser(tx: Tx, userId: string, banReason: string): Promise<{ email: string }> {
  const before = await eraseAccountRows(tx, userId, banReason);
  // Their courses leave the catalogue (enrolment and payment records keep them) and stop showing the name.
  await archivePublishedCoursesOf(tx, userId);
  return before;
}

/** ADMIN_EMAILS at every start: an account created before the setting gets the role too. */
export async function promoteConfiguredAdmins(app: AppServices) {
  if (!app.config.adminEmails.length) return;
  await promoteAdminsByEmail(app.database.db, app.config.adminEmails);
}

/**
 * Invites someone by email: the account is created unverified with no password, and the
 * password-reset email carries the link to set one (setting it proves the address).
 */
export async function inviteUser(app: AppServices, viewer: Viewer, input: { email: string; firstName: string; lastName: string }) {
  await requireAdmin(app, viewer);
  const email = input.email.toLowerCase();
  const id = await app.database.db.transaction(async (tx) => {
    const created = await createInvitedAccount(tx, { email, firstName: input.firstName, lastName: input.lastName });
    if (!created)
      throw new AppError(409, 'email_taken', 'An account with this email already exists', { fields: { email: 'Already has an account' } });
    await audit(tx, viewer, { action: 'invite_user', targetId: created });
    return created;
  });
  await app.auth.api.requestPasswordReset({ body: { email, redirectTo: '/reset-password' } });
  return id;
}
