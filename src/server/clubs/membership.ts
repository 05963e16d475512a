import { and, eq, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { club, clubMembership } from '../db/schema/clubs.js';
import { AppError } from '../http/errors.js';
import { clubWithMembership, isActive, managedClub, ownedClub } from './access.js';
import { releaseMemberRsvps } from './attendance.js';

const bump = (n: number) => sql`${club.memberCount} + ${n}`;

/**
 * Joins a club: a public club at once, an approval club as a request (with the answer to
 * its join question) that its organisers are told of. Removed and banned people cannot
 * rejoin. The club row is locked, so member_count stays exact under concurrent joins.
 */
export async function joinClub(app: AppServices, viewer: Viewer, clubId: string, answer: string | null) {
  const { value } = await app.clubEvents.transaction(app.database.db, async (tx, announce) => {
    const { club: c, membership: m } = await clubWithMembership(tx, clubId, viewer, true);
    if (m?.state === 'active') return { state: 'active' as const, message: 'You are already a member' };
    if (m?.state === 'pending') return { state: 'pending' as const, message: 'Your request is waiting for an organiser' };
    if (m?.state === 'removed' || m?.state === 'banned') throw AppError.forbidden('You cannot rejoin this club');
    if (c.visibility === 'public') {
      await tx.insert(clubMembership).values({ clubId, userId: viewer.user.id, role: 'member', state: 'active' });
      await tx
        .update(club)
        .set({ memberCount: bump(1) })
        .where(eq(club.id, clubId));
      return { state: 'active' as const, message: `Welcome to ${c.name}` };
    }
    await tx.insert(clubMembership).values({ clubId, userId: viewer.user.id, role: 'member', state: 'pending', joinAnswer: answer });
    const organisers = await tx
      .select({ userId: clubMembership.userId })
      .from(clubMembership)
      .where(and(eq(clubMembership.clubId, clubId), eq(clubMembership.state, 'active'), sql`${clubMembership.role} <> 'member'`));
    await announce('club.join-requested', { clubId, userId: viewer.user.id, organiserIds: organisers.map((o) => o.userId) });
    return { state: 'pending' as const, message: 'Your request was sent to the organisers' };
  });
  return value;
}

/** Leaves a club (or withdraws a request): the member's answers to events to come are cancelled (waitlists move up). */
export async function leaveClub(app: AppServices, viewer: Viewer, clubId: string) {
  await app.clubEvents.transaction(app.database.db, async (tx, announce) => {
    const { membership: m } = await clubWithMembership(tx, clubId, viewer, true);
    if (!m || (m.state !== 'active' && m.state !== 'pending')) throw AppError.notFound('You are not a member of this club');
    if (m.role === 'owner') throw AppError.badRequest('The owner cannot leave: transfer the club to another member first, or delete it');
    await tx.delete(clubMembership).where(and(eq(clubMembership.clubId, clubId), eq(clubMembership.userId, viewer.user.id)));
    if (isActive(m)) {
      await tx
        .update(club)
        .set({ memberCount: bump(-1) })
        .where(eq(club.id, clubId));
      await releaseMemberRsvps(app, tx, announce, clubId, viewer.user.id);
    }
  });
}

const MESSAGES = {
  approve: 'Request approved',
  decline: 'Request declined',
  promote: 'Now an organiser',
  demote: 'Now a member',
  remove: 'Member removed',
  ban: 'Member banned',
  transfer: 'Ownership transferred',
} as const;
export type MemberAction = keyof typeof MESSAGES;

/**
 * What organisers do with members: approve or decline requests, remove or ban members
 * (an organiser only members; the owner anyone but themself); the owner promotes and
 * demotes organisers and transfers ownership (the owner becomes an organiser).
 */
export async function manageMember(app: AppServices, viewer: Viewer, clubId: string, userId: string, action: MemberAction) {
  await app.clubEvents.transaction(app.database.db, async (tx, announce) => {
    const isOwnerAction = action === 'promote' || action === 'demote' || action === 'transfer';
    const { membership: me } = isOwnerAction ? await ownedClub(tx, clubId, viewer, true) : await managedClub(tx, clubId, viewer, true);
    if (userId === viewer.user.id) throw AppError.badRequest('You cannot do this to yourself');
    const [target] = await tx
      .select()
      .from(clubMembership)
      .where(and(eq(clubMembership.clubId, clubId), eq(clubMembership.userId, userId)))
      .limit(1)
      .for('update');
    if (!target || target.state === 'removed' || (target.state === 'banned' && action !== 'ban'))
      throw AppError.notFound('This person is not a member of the club');
    const where = and(eq(clubMembership.clubId, clubId), eq(clubMembership.userId, userId));
    const now = new Date();
    if (action === 'approve' || action === 'decline') {
      if (target.state !== 'pending') throw AppError.badRequest('There is no request from this person');
      if (action === 'decline') {
        await tx.delete(clubMembership).where(where);
        return;
      }
      await tx.update(clubMembership).set({ state: 'active', updatedAt: now }).where(where);
      await tx
        .update(club)
        .set({ memberCount: bump(1) })
        .where(eq(club.id, clubId));
      await announce('club.request-approved', { clubId, userId });
      return;
    }
    if (target.state !== 'active') throw AppError.badRequest('This person is not an active member');
    if (action === 'remove' || action === 'ban') {
      if (target.role === 'owner' || (target.role === 'organiser' && me?.role !== 'owner'))
        throw AppError.forbidden('Only the owner can remove an organiser, and nobody the owner');
      await tx
        .update(clubMembership)
        .set({ state: action === 'ban' ? 'banned' : 'removed', role: 'member', updatedAt: now })
        .where(where);
      await tx
        .update(club)
        .set({ memberCount: bump(-1) })
        .where(eq(club.id, clubId));
      await releaseMemberRsvps(app, tx, announce, clubId, userId);
      return;
    }
    if (action === 'promote') await tx.update(clubMembership).set({ role: 'organiser', updatedAt: now }).where(where);
    if (action === 'demote') await tx.update(clubMembership).set({ role: 'member', updatedAt: now }).where(where);
    if (action === 'transfer') {
      // Two statements under the club's lock; the unique index allows one owner at a time.
      await tx
        .update(clubMembership)
        .set({ role: 'organiser', updatedAt: now })
        .where(and(eq(clubMembership.clubId, clubId), eq(clubMembership.userId, viewer.user.id)));
      await tx.update(clubMembership).set({ role: 'owner', updatedAt: now }).where(where);
      await announce('club.owner-changed', { clubId, ownerId: userId, previousOwnerId: viewer.user.id, reason: 'transferred' });
    }
  });
  return MESSAGES[action];
}
