import type { FastifyInstance, FastifyRequest } from 'fastify';
import { signedInSessions } from '../accounts/viewer.js';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { Realtime } from '../realtime/hub.js';
import { readEventLog } from '../realtime/event-log.js';
import { installRealtimeSockets } from '../realtime/sockets.js';
import { SAFE_METHODS, type SameOrigin } from './security.js';

/** Signing out ends the caller's own session: its sockets close as "signed out" (ADR 0023). */
const SIGN_OUT = '/api/accounts/sign-out';
/** Routes that end some of the caller's sessions: their sockets are re-checked after. */
const ENDS_OWN_SESSIONS = new Set([
  SIGN_OUT,
  '/api/accounts/sessions/:signInSessionId',
  '/api/accounts/sessions/revoke-others',
  '/api/accounts/sessions/revoke-all',
  '/api/accounts/password',
]);
/** Admin routes that end a user's sessions (the user is the path's :userId). */
const ENDS_USER_SESSIONS = new Set(['/api/admin/users/:userId/ban', '/api/admin/users/:userId/delete']);

/**
 * The realtime socket (decorates realtimeSockets): signed in by the session cookie, same
 * origin rule as every write (a WebSocket upgrade is a GET the browser sends cross-site with
 * cookies). A user's open sockets close promptly when their sessions end (this process or
 * another): the routes that end sessions ask every process to re-check that user's sockets.
 */
export async function installSockets(
  app: FastifyInstance,
  { config, db, realtime, sameOrigin }: { config: Config; db: Database; realtime: Realtime; sameOrigin: SameOrigin },
) {
  app.decorate(
    'realtimeSockets',
    await installRealtimeSockets(app, {
      realtime,
      sameOrigin,
      authenticate: async (cookie) => {
        const viewer = await app.viewerFromCookie(cookie);
        return viewer && { userId: viewer.user.id, sessionId: viewer.signInSessionId };
      },
      signedInSessions: (sessions) => signedInSessions(db.db, sessions),
      // Soon, and once the longest statement that began before the socket's user was present has ended.
      catchUpAgainMs: [2_000, config.databaseTimeouts.statementMs + 1_000],
      readLog: (userId, after, max) => readEventLog(db, userId, after, max),
      maxSocketsPerUser: config.realtimeMaxSocketsPerUser,
      deliveryLag: (seconds) => app.observe.realtimeDeliveryLag(seconds),
    }),
  );
  const endsSessionsOf = new WeakMap<FastifyRequest, { userId: string; signedOutSessionId?: string }>();
  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url ?? '';
    if (SAFE_METHODS.has(request.method)) return;
    if (ENDS_OWN_SESSIONS.has(route)) {
      const viewer = await app.viewerFromCookie(request.headers.cookie).catch(() => null);
      // A sign-out ends the caller's own session: its browser's sockets are told "signed out",
      // not "expired" (every tab of that browser shares the session).
      if (viewer)
        endsSessionsOf.set(request, { userId: viewer.user.id, ...(route === SIGN_OUT && { signedOutSessionId: viewer.signInSessionId }) });
    }
  });
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode >= 400) return;
    const route = request.routeOptions.url ?? '';
    const ended: { userId?: string; signedOutSessionId?: string } | undefined = ENDS_USER_SESSIONS.has(route)
      ? { userId: (request.params as { userId?: string }).userId }
      : endsSessionsOf.get(request);
    if (ended?.userId) await realtime.recheckSessions(ended.userId, ended.signedOutSessionId);
  });
}
