import { and, eq, gt } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { club, clubEvent } from '../db/schema/clubs.js';
import { AppError } from '../http/errors.js';
import { ownedClub } from './access.js';
import { attendeeIds, unscheduleAllReminders } from './attendance.js';
import type { Tx } from '../db/transaction.js';
import type { Announce } from '../events/domain-events.js';
import type { ClubEventMap } from './events.js';

/**
 * Deletes a club (its owner, who types its name to confirm). Its events still to come are
 * cancelled and their attendees told (club.deleted carries who); memberships, events and
 * RSVPs go with the club (ON DELETE CASCADE), and its queued jobs with it: no orphan rows.
 */
export async function deleteClub(app: AppServices, viewer: Viewer, clubId: string, confirmName: string) {
  await app.clubEvents.transaction(app.database.db, async (tx, announce) => {
    const { club: c } = await ownedClub(tx, clubId, viewer, true);
    if (confirmName.trim() !== c.name)
      throw AppError.badRequest('Type the club name exactly to confirm', { confirmName: 'Type the club name exactly' });
    await removeClub(app, tx, announce, c);
  });
}

/**
 * The deletion itself, in the caller's transaction: events still to come cancelled (their
 * attendees, except `exceptUserId`, told through club.deleted), queued jobs unscheduled, the
 * club's rows gone (ON DELETE CASCADE). Also used when the owner's account is erased and no
 * organiser can take the club over.
 */
export async function removeClub(
  app: AppServices,
  tx: Tx,
  announce: Announce<ClubEventMap>,
  c: { id: string; name: string },
  exceptUserId?: string,
) {
  const clubId = c.id;
  const upcoming = await tx
    .select()
    .from(clubEvent)
    .where(and(eq(clubEvent.clubId, clubId), eq(clubEvent.status, 'scheduled'), gt(clubEvent.startsAt, new Date())))
    .for('no key update');
  const cancelledEvents = [];
  for (const e of upcoming)
    cancelledEvents.push({
      eventId: e.id,
      title: e.title,
      startsAt: e.startsAt.toISOString(),
      endsAt: e.endsAt.toISOString(),
      timeZone: e.timeZone,
      attendeeIds: (await attendeeIds(tx, e.id)).filter((id) => id !== exceptUserId),
    });
  await unscheduleAllReminders(tx, clubId);
  await app.jobs.unschedule(`club-next-event:${clubId}`, tx);
  await tx.delete(club).where(eq(club.id, clubId));
  await announce('club.deleted', { clubId, name: c.name, cancelledEvents });
}
