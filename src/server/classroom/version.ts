import { sql } from 'drizzle-orm';
import { classroomVersion } from '../db/schema/classroom.js';
import type { Conn } from '../db/transaction.js';

/** A change to the classroom's posts, in its transaction: the page's kept shared part is made again (view.ts). */
export async function bumpVersion(conn: Conn, sessionId: string) {
  await conn
    .insert(classroomVersion)
    .values({ sessionId, version: 1 })
    .onConflictDoUpdate({ target: classroomVersion.sessionId, set: { version: sql`${classroomVersion.version} + 1` } });
}
