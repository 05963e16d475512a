import { sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { rowsOf } from '../db/transaction.js';
import { CLUB_CARD_COLUMNS, toCard } from './search-clubs.js';

/** Clubs on the landing page. */
export const FEATURED_CLUBS = 6;

/**
 * A few clubs to show anyone (the landing page, composed in system/): public clubs only
 * (an approval club's page is for its members), the most members first. A read for the
 * composition layer, so courses never import clubs. Walks club_members_idx.
 */
export async function getFeaturedClubs(app: AppServices, limit = FEATURED_CLUBS) {
  const rows = await rowsOf<Parameters<typeof toCard>[0]>(
    app.database.db,
    sql`
    select ${CLUB_CARD_COLUMNS} from club
    where visibility = 'public'
    order by member_count desc, id
    limit ${limit}`,
  );
  return rows.map(toCard).map(({ id, name, summary, category, coverImage, memberCount }) => ({
    id,
    name,
    summary,
    category,
    coverImage,
    memberCount,
  }));
}
