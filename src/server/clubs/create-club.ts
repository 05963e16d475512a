import type { z } from 'zod';
import type { clubInput } from '../../shared/clubs-schemas.js';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { club, clubMembership } from '../db/schema/clubs.js';

export type ClubFields = z.output<typeof clubInput>;

/** Starts a club: the creator is its owner and first member (member_count 1), in one transaction. */
export async function createClub(app: AppServices, viewer: Viewer, input: ClubFields): Promise<string> {
  return app.database.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(club)
      .values({ ...input, city: input.city, createdBy: viewer.user.id, memberCount: 1 })
      .returning({ id: club.id });
    await tx.insert(clubMembership).values({ clubId: row.id, userId: viewer.user.id, role: 'owner', state: 'active' });
    return row.id;
  });
}
