import { eq } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import type { Viewer } from '../accounts/viewer.js';
import { club } from '../db/schema/clubs.js';
import { managedClub } from './access.js';
import type { ClubFields } from './create-club.js';

/** Edits a club's settings (owner and organisers). */
export async function updateClub(app: AppServices, viewer: Viewer, clubId: string, input: ClubFields) {
  await app.database.db.transaction(async (tx) => {
    await managedClub(tx, clubId, viewer, true);
    await tx
      .update(club)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(club.id, clubId));
  });
}

/** Sets the club's cover image (the course upload pipeline: checked, re-encoded, stored). */
export async function setClubCover(app: AppServices, viewer: Viewer, clubId: string, readPicture: () => Promise<Buffer>) {
  const db = app.database.db;
  await managedClub(db, clubId, viewer);
  const url = await app.images.saveCover(await readPicture());
  await db.update(club).set({ coverImage: url, updatedAt: new Date() }).where(eq(club.id, clubId));
  return url;
}
