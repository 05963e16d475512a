import { and, desc, eq, gt, ne, sql } from 'drizzle-orm';
import type { AppServices } from '../app-services.js';
import { signInSession } from '../db/schema/accounts.js';
import { AppError } from '../http/errors.js';
import { describeDevice } from './presenters.js';
import type { Viewer } from './viewer.js';

/** The caller's sign-in sessions (one per device): see them, sign one or all others out. */

/** The caller's current sign-in session, for support (never the token). */
export async function currentSignInSession(app: AppServices, viewer: Viewer) {
  const [row] = await app.database.db.select().from(signInSession).where(eq(signInSession.id, viewer.signInSessionId));
  if (!row) throw AppError.unauthorized();
  return presentSignInSession(row, viewer.signInSessionId);
}

/** The caller's sign-in sessions still valid, most recently used first. */
export async function listSignInSessions(app: AppServices, viewer: Viewer) {
  const rows = await app.database.db
    .select()
    .from(signInSession)
    .where(and(eq(signInSession.userId, viewer.user.id), gt(signInSession.expiresAt, sql`now()`)))
    .orderBy(desc(signInSession.updatedAt))
    .limit(100);
  return rows.map((s) => presentSignInSession(s, viewer.signInSessionId));
}

/** Signs out one device of the caller's (404 when it is not theirs). */
export async function signOutDevice(app: AppServices, viewer: Viewer, signInSessionId: string) {
  const deleted = await app.database.db
    .delete(signInSession)
    .where(and(eq(signInSession.id, signInSessionId), eq(signInSession.userId, viewer.user.id)))
    .returning({ id: signInSession.id });
  if (!deleted.length) throw AppError.notFound('This session does not exist or is not yours');
}

/** Signs out every device of the caller's but this one; answers how many. */
export async function signOutOtherDevices(app: AppServices, viewer: Viewer): Promise<number> {
  const deleted = await app.database.db
    .delete(signInSession)
    .where(and(eq(signInSession.userId, viewer.user.id), ne(signInSession.id, viewer.signInSessionId)))
    .returning({ id: signInSession.id });
  return deleted.length;
}

function presentSignInSession(s: typeof signInSession.$inferSelect, currentId: string) {
  return {
    id: s.id,
    current: s.id === currentId,
    device: describeDevice(s.userAgent),
    ipAddress: s.ipAddress,
    createdAt: s.createdAt.toISOString(),
    lastSeenAt: s.updatedAt.toISOString(),
    expiresAt: s.expiresAt.toISOString(),
  };
}
