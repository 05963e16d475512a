import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { club, clubEvent, clubMembership, clubRsvp } from '../db/schema/clubs.js';
import type { Tx } from '../db/transaction.js';
import type { Announce } from '../events/domain-events.js';
import { refreshNextEvent, releaseMemberRsvps } from './attendance.js';
import { removeClub } from './delete-club.js';
import type { ClubEventMap } from './events.js';

/**
 * A deleted account leaves every club in the erasing transaction
 * (docs/decisions/0024-erasure-reaches-every-domain.md):
 * - a club it owns goes to its longest-standing organiser (the earliest to have joined), or,
 *   with no organiser, is deleted: its events still to come are cancelled and their
 *   attendees told (club.deleted);
 * - in every other club its answers to events still to come are released (the waitlist
 *   moves up and the promoted are told: rsvp.promoted), then its membership or request goes;
 * - its remaining answers (past events) go, the events' counts kept exact.
 * What clubs announce here runs its in-transaction listeners in the same transaction and
 * its after-commit steps once the erasure has committed.
 */
export async function eraseFromClubs(app: AppServices, tx: Tx, { userId }: { userId: string }) {
  const { afterCommit } = await app.clubEvents.joinTransaction(tx, (announce) => leaveEveryClub(app, tx, announce, userId));
  return afterCommit;
}

async function leaveEveryClub(app: AppServices, tx: Tx, announce: Announce<ClubEventMap>, userId: string) {
  const memberships = await tx
    .select({ m: clubMembership, name: club.name })
    .from(clubMembership)
    .innerJoin(club, eq(club.id, clubMembership.clubId))
    .where(eq(clubMembership.userId, userId))
    .orderBy(asc(clubMembership.clubId));
  for (const { m, name } of memberships) {
    // The club row first (the lock every membership change takes), then its members.
    await tx.select({ id: club.id }).from(club).where(eq(club.id, m.clubId)).for('update');
    if (m.role === 'owner' && m.state === 'active') {
      const [heir] = await tx
        .select({ userId: clubMembership.userId })
        .from(clubMembership)
        .where(
          and(
            eq(clubMembership.clubId, m.clubId),
            eq(clubMembership.role, 'organiser'),
            eq(clubMembership.state, 'active'),
            ne(clubMembership.userId, userId),
          ),
        )
        .orderBy(asc(clubMembership.createdAt), asc(clubMembership.userId))
        .limit(1);
      if (!heir) {
        await removeClub(app, tx, announce, { id: m.clubId, name }, userId);
        continue;
      }
      // One owner per club (a unique index): the old owner's row goes before the heir's changes.
      await tx.delete(clubMembership).where(and(eq(clubMembership.clubId, m.clubId), eq(clubMembership.userId, userId)));
      await tx
        .update(clubMembership)
        .set({ role: 'owner', updatedAt: new Date() })
        .where(and(eq(clubMembership.clubId, m.clubId), eq(clubMembership.userId, heir.userId)));
      await announce('club.owner-changed', { clubId: m.clubId, ownerId: heir.userId, previousOwnerId: userId, reason: 'account-closed' });
    } else {
      await tx.delete(clubMembership).where(and(eq(clubMembership.clubId, m.clubId), eq(clubMembership.userId, userId)));
    }
    if (m.state === 'active') {
      await tx
        .update(club)
        .set({ memberCount: sql`${club.memberCount} - 1`, updatedAt: new Date() })
        .where(eq(club.id, m.clubId));
      await releaseMemberRsvps(app, tx, announce, m.clubId, userId);
    }
  }
  // Answers left: past events (and any club they were no longer a member of).
  const going = await tx
    .select({ eventId: clubRsvp.eventId, clubId: clubEvent.clubId })
    .from(clubRsvp)
    .innerJoin(clubEvent, eq(clubEvent.id, clubRsvp.eventId))
    .where(and(eq(clubRsvp.userId, userId), eq(clubRsvp.status, 'going')))
    .orderBy(asc(clubRsvp.eventId));
  if (going.length) {
    await tx
      .update(clubEvent)
      .set({ goingCount: sql`greatest(${clubEvent.goingCount} - 1, 0)` })
      .where(
        inArray(
          clubEvent.id,
          going.map((g) => g.eventId),
        ),
      );
  }
  await tx.delete(clubRsvp).where(eq(clubRsvp.userId, userId));
  for (const clubId of new Set(going.map((g) => g.clubId))) await refreshNextEvent(app, tx, clubId);
}
