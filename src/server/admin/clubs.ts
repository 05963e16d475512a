import type { AdminClubDetail, ClubList, ClubListQuery } from '../../shared/admin-schemas.js';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { clubForAdmin, deleteClubAsAdmin, listClubsForAdmin } from '../clubs/club-admin.js';
import { AppError } from '../http/errors.js';
import { audit, requireAdmin } from './require-admin.js';

/** Clubs in the admin console: the list, one club, and deleting one (with a reason, audited). */

/** The column's check constraint allows these two only. */
const visibilityOf = (v: string) => (v === 'approval' ? 'approval' : 'public') as 'public' | 'approval';
const iso = <T extends { createdAt: Date }>(r: T) => ({ ...r, createdAt: r.createdAt.toISOString() });

export async function listClubs(app: AppServices, viewer: Viewer, query: ClubListQuery): Promise<ClubList> {
  await requireAdmin(app, viewer);
  const { rows, total } = await listClubsForAdmin(app.database.db, query);
  return {
    clubs: rows.map((r) => ({ ...iso(r), visibility: visibilityOf(r.visibility) })),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

export async function clubDetail(app: AppServices, viewer: Viewer, clubId: string): Promise<AdminClubDetail> {
  await requireAdmin(app, viewer);
  const c = await clubForAdmin(app.database.db, clubId);
  if (!c) throw AppError.notFound('No such club');
  return {
    ...iso(c),
    visibility: visibilityOf(c.visibility),
    upcomingEvents: c.upcomingEvents.map((e) => ({ ...e, startsAt: e.startsAt.toISOString() })),
  };
}

/**
 * Deletes a club as its owner could (events to come cancelled, their attendees told), for a
 * club that breaks the rules: the reason and the name it had go to the audit log, in the
 * deleting transaction.
 */
export async function deleteClub(app: AppServices, viewer: Viewer, clubId: string, input: { confirmName: string; reason: string }) {
  await requireAdmin(app, viewer);
  await deleteClubAsAdmin(app, clubId, input.confirmName, (tx, deleted) =>
    audit(tx, viewer, {
      action: 'delete_club',
      targetId: clubId,
      reason: input.reason,
      details: { name: deleted.name, ownerId: deleted.ownerId },
    }),
  );
}
