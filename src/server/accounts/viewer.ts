import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { educator, signInSession, user } from '../db/schema/accounts.js';

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
 * One query for the sign-in session, its user and their educator record: this runs on every
 * authenticated request, so it is a single prepared statement.
 */
export function createViewerResolver(db: Db, cookieName: string, secret: string) {
  const byToken = db
    .select({
      signInSessionId: signInSession.id,
      signInSessionUpdatedAt: signInSession.updatedAt,
      id: user.id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      city: user.city,
      timeZone: user.timeZone,
      stripeCustomerId: user.stripeCustomerId,
      image: user.image,
      verified: user.emailVerified,
      createdAt: user.createdAt,
      lastSignInAt: user.lastSignInAt,
      banned: user.banned,
      educatorUserId: educator.userId,
      bio: educator.bio,
      educatorImage: educator.profileImage,
      stripeConnectAccountId: educator.stripeConnectAccountId,
    })
    .from(signInSession)
    .innerJoin(user, eq(user.id, signInSession.userId))
    .leftJoin(educator, eq(educator.userId, user.id))
    .where(and(eq(signInSession.token, sql.placeholder('token')), gt(signInSession.expiresAt, sql`now()`)))
    .limit(1)
    .prepare('viewer_by_session_token');

  return async function viewerFromCookie(cookieHeader: string | undefined): Promise<Viewer | null> {
    const token = tokenFromCookie(cookieHeader, cookieName, secret);
    if (!token) return null;
    const [row] = await byToken.execute({ token });
    return row ? toViewer(row) : null;
  };
}

/** One row of the viewer lookup (the prepared statement above, or viewerBySessionToken). */
export interface ViewerRow {
  signInSessionId: string;
  signInSessionUpdatedAt: Date;
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

/**
 * The viewer lookup as a statement to put in another one (a CTE: `with v as (...)`), for a
 * hot route that reads the viewer and its own data in one round trip (app.requireViewerWith).
 * The same rule and the same columns (as ViewerRow names them) as the prepared statement.
 */
export function viewerBySessionToken(token: string | Placeholder | SQL): SQL {
  return sql`select s.id as "signInSessionId", s.updated_at as "signInSessionUpdatedAt", u.id, u.email, u.first_name as "firstName",
      u.last_name as "lastName", u.city, u.time_zone as "timeZone", u.stripe_customer_id as "stripeCustomerId", u.profile_image as image,
      u.verified, u.created_at as "createdAt", u.last_sign_in_at as "lastSignInAt", u.banned, e.user_id as "educatorUserId", e.bio,
      e.profile_image as "educatorImage", e.stripe_connect_account_id as "stripeConnectAccountId"
    from session s join "user" u on u.id = s.user_id left join educator e on e.user_id = u.id
    where s.token = ${token} and s.expires_at > now() limit 1`;
}

/** The viewer of a lookup row (null: a banned user). */
export function toViewer(row: ViewerRow): Viewer | null {
  if (row.banned) return null;
  return {
    signInSessionId: row.signInSessionId,
    signInSessionUpdatedAt: row.signInSessionUpdatedAt,
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
      createdAt: row.createdAt,
      lastSignInAt: row.lastSignInAt,
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
    where s.expires_at > now() and not u.banned`)) as unknown as { rows: { id: string }[] };
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
