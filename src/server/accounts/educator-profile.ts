import { eq } from 'drizzle-orm';
import { educator, user } from '../db/schema/accounts.js';
import type { Conn } from '../db/transaction.js';

/**
 * The educator record of an account (accounts own the `educator` table, ADR 0035): what the
 * other domains read and write of it. educators/ holds the use cases (onboarding, profile
 * editing); payments keep their provider ids through provider-ids.ts.
 */
export interface EducatorFields {
  headline: string;
  bio: string;
  subjects: string[];
  links: string[];
}

/** Makes the user an educator; false when they already are (the primary key decides). */
export async function createEducatorProfile(conn: Conn, userId: string, fields: EducatorFields): Promise<boolean> {
  const rows = await conn
    .insert(educator)
    .values({ userId, ...fields })
    .onConflictDoNothing()
    .returning({ userId: educator.userId });
  return rows.length > 0;
}

export async function updateEducatorProfile(
  conn: Conn,
  userId: string,
  fields: Partial<EducatorFields> & { profileImage?: string | null },
) {
  await conn.update(educator).set(fields).where(eq(educator.userId, userId));
}

/** An educator's public profile: their record and the user's name, picture and city; null for no educator. */
export async function educatorProfileOf(conn: Conn, userId: string) {
  const [row] = await conn
    .select({ e: educator, u: { firstName: user.firstName, lastName: user.lastName, image: user.image, city: user.city } })
    .from(educator)
    .innerJoin(user, eq(user.id, educator.userId))
    .where(eq(educator.userId, userId))
    .limit(1);
  return row ?? null;
}

/** An erased account's educator profile: personal data, emptied. */
export async function eraseEducatorProfile(conn: Conn, userId: string) {
  await conn
    .update(educator)
    .set({ bio: null, headline: null, profileImage: null, links: [], subjects: [] })
    .where(eq(educator.userId, userId));
}
