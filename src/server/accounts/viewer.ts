import { createHmac, timingSafeEqual } from 'node:crypto';
import { eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Database, Db } from '../db/client.js';
import { signInSession } from '../db/schema/accounts.js';

/** The signed-in user and their sign-in session, as resolved from the session cookie. */
export interface Viewer {
  signInSessionId: string;
  signInSessionUpdatedAt: Date;
  user: {
    id: string;
    email: string;
    firstName: string;
    lastName: string;
    city: string | null;
    timeZone: string | null;
    stripeCustomerId: string | null;
    image: string | null;
    verified: boolean;
    createdAt: Date;
    lastSignInAt: Date | null;
  };
  educator: { bio: string | null; profileImage: string | null; stripeConnectAccountId: string | null } | null;
}

function parseCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eqAt = part.indexOf('=');
    if (eqAt < 0) continue;
    if (part.slice(0, eqAt).trim() === name) return part.slice(eqAt + 1).trim();
  }
  return null;
}

/**
 * Verifies the cookie's HMAC (the library's format: encodeURIComponent(token + "." +
 * base64(HMAC-SHA256(token, secret)))) without touching the database.
 */
export function tokenFromCookie(cookieHeader: string | undefined, cookieName: string, secret: string): string | null {
  const raw = parseCookie(cookieHeader, cookieName);
  if (!raw) return null;
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return null;
  }
  const dot = value.lastIndexOf('.');
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1), 'base64');
  const expected = createHmac('sha256', secret).update(token).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return token;
}

/**
 * Resolves a Cookie header to the viewer: the session lookup (viewerBySessionToken, the one
 * definition) as a prepared statement, since it runs on every authenticated request.
 */
export function createViewerResolver(database: Pick<Database, 'prepared'>, cookieName: string, secret: string) {
  const byToken = sql`${viewerBySessionToken(sql.placeholder('token'))}`;
  return async function viewerFromCookie(cookieHeader: string | undefined): Promise<Viewer | null> {
    const token = tokenFromCookie(cookieHeader, cookieName, secret);
    if (!token) return null;
    const [row] = await database.prepared<ViewerRow>('viewer_by_session_token', byToken, { token });
    return row ? toViewer(row) : null;
  };
}

/** A timestamp as a driver hands it over: a Date (node-postgres, PGlite's query) or PostgreSQL's text (drizzle's execute). */
type Timestamp = Date | string;

/**
 * One row of the session lookup (viewerBySessionToken), as read by any statement that embeds
 * it: its timestamps arrive as Dates or as text depending on the driver path, so only
 * toViewer (the one decoder) reads it.
 */
export interface ViewerRow {
  signInSessionId: string;
  signInSessionUpdatedAt: Timestamp;
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  city: string | null;
  timeZone: string | null;
  stripeCustomerId: string | null;
  image: string | null;
  verified: boolean;
  createdAt: Timestamp;
  lastSignInAt: Timestamp | null;
  banned: boolean;
  educatorUserId: string | null;
  bio: string | null;
  educatorImage: string | null;
  stripeConnectAccountId: string | null;
}

/**
 * A route's session check with a statement of its own (app.requireViewerWith bound to the
 * request): `load` reads the viewer (viewerBySessionToken) and the route's data in one round
 * trip; the viewer is adopted as the request's, or the call answers 401.
 */
export type RequireViewerWith = <T>(
  load: (token: string) => Promise<{ viewer: Viewer | null; data: T }>,
) => Promise<{ viewer: Viewer; data: T }>;

/** A sign-in session `s` that still signs its user in (the cookie check's rule, also for many at once below). */
const sessionLive = sql.raw('s.expires_at > now()');

/**
 * The session lookup, the one definition of "who does this session token sign in": the
 * session exists and has not expired, with its user and their educator record, in the
 * columns ViewerRow names. The cookie check runs it as it is (createViewerResolver); a hot
 * route puts it in its own statement as a CTE (`with v as (...)`, app.requireViewerWith) to
 * read the viewer and its data in one round trip. Whatever embeds it decodes the row with
 * toViewer; a banned user's row is there and toViewer refuses it.
 */
export function viewerBySessionToken(token: string | Placeholder | SQL): SQL {
  return sql`select s.id as "signInSessionId", s.updated_at as "signInSessionUpdatedAt", u.id, u.email, u.first_name as "firstName",
      u.last_name as "lastName", u.city, u.time_zone as "timeZone", u.stripe_customer_id as "stripeCustomerId", u.profile_image as image,
      u.verified, u.created_at as "createdAt", u.last_sign_in_at as "lastSignInAt", u.banned, e.user_id as "educatorUserId", e.bio,
      e.profile_image as "educatorImage", e.stripe_connect_account_id as "stripeConnectAccountId"
    from session s join "user" u on u.id = s.user_id left join educator e on e.user_id = u.id
    where s.token = ${token} and ${sessionLive} limit 1`;
}

const asDate = (value: Timestamp): Date => (value instanceof Date ? value : new Date(value));

/**
 * The one decoder of a session lookup row (null: a banned user), whatever statement read it
 * and through whichever driver path (timestamps as Dates or as text).
 */
export function toViewer(row: ViewerRow): Viewer | null {
  if (row.banned) return null;
  return {
    signInSessionId: row.signInSessionId,
    signInSessionUpdatedAt: asDate(row.signInSessionUpdatedAt),
    user: {
      id: row.id,
      email: row.email,
      firstName: row.firstName,
      lastName: row.lastName,
      city: row.city,
      timeZone: row.timeZone,
      stripeCustomerId: row.stripeCustomerId,
      image: row.image,
      verified: row.verified,
      createdAt: asDate(row.createdAt),
      lastSignInAt: row.lastSignInAt === null ? null : asDate(row.lastSignInAt),
    },
    educator: row.educatorUserId
      ? { bio: row.bio, profileImage: row.educatorImage, stripeConnectAccountId: row.stripeConnectAccountId }
      : null,
  };
}

/**
 * Of these sign-in sessions, the ids of those that still sign their user in: what the
 * cookie check asks (the session exists, has not expired, belongs to that user, who is not
 * banned), for many at once (realtime re-checks every open socket's session each heartbeat).
 */
export async function signedInSessions(db: Db, sessions: { userId: string; sessionId: string }[]): Promise<Set<string>> {
  if (!sessions.length) return new Set();
  const res = (await db.execute(sql`
    select s.id from session s
    join unnest(${`{${sessions.map((x) => x.sessionId).join(',')}}`}::uuid[], ${`{${sessions.map((x) => x.userId).join(',')}}`}::uuid[])
      as w (session_id, user_id) on w.session_id = s.id and w.user_id = s.user_id
    join "user" u on u.id = s.user_id
    where ${sessionLive} and not u.banned`)) as unknown as { rows: { id: string }[] };
  return new Set(res.rows.map((r) => r.id));
}

/** Marks the sign-in session as seen now and slides its expiry; at most once per 5 minutes. */
export async function touchSignInSession(db: Db, viewer: Viewer, maxAgeSeconds: number) {
  if (Date.now() - viewer.signInSessionUpdatedAt.getTime() < 5 * 60 * 1000) return;
  await db
    .update(signInSession)
    .set({ updatedAt: new Date(), expiresAt: new Date(Date.now() + maxAgeSeconds * 1000) })
    .where(eq(signInSession.id, viewer.signInSessionId));
}
