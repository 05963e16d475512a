import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SESSION_MAX_AGE_SECONDS, sessionCookieName } from '../accounts/auth.js';
import { createViewerResolver, tokenFromCookie, touchSignInSession, type Viewer } from '../accounts/viewer.js';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { AppError } from '../http/errors.js';

/**
 * Who is signed in, for every route: decorates viewerFromCookie, resolveViewer,
 * resolvedViewer, requireViewer and requireViewerWith (their contracts: app.ts). A viewer
 * a request resolved extends its sign-in session; it is kept for the request, so an
 * onResponse hook (page-view counting) reads it without a second query.
 */
export function installViewer(app: FastifyInstance, { config, db }: { config: Config; db: Database }) {
  const viewerFromCookie = createViewerResolver(db, sessionCookieName(config), config.authSecret);
  const resolved = new WeakMap<FastifyRequest, Viewer | null>();
  const adoptViewer = (request: FastifyRequest, viewer: Viewer | null) => {
    resolved.set(request, viewer);
    if (viewer) {
      touchSignInSession(db.db, viewer, SESSION_MAX_AGE_SECONDS).catch((err) => request.log.warn({ err }, 'could not touch session'));
    }
    return viewer;
  };
  const resolveViewer = async (request: FastifyRequest) => adoptViewer(request, await viewerFromCookie(request.headers.cookie));
  const sessionEnded = () => new AppError(401, 'unauthorized', 'Your session has ended. Please log in again.');

  app.decorate('viewerFromCookie', viewerFromCookie);
  app.decorate('resolveViewer', resolveViewer);
  app.decorate('resolvedViewer', (request: FastifyRequest) => resolved.get(request));
  app.decorate('requireViewer', async (request: FastifyRequest) => {
    const viewer = await resolveViewer(request);
    if (!viewer) throw sessionEnded();
    return viewer;
  });
  app.decorate(
    'requireViewerWith',
    async <T>(request: FastifyRequest, load: (token: string) => Promise<{ viewer: Viewer | null; data: T }>) => {
      const token = tokenFromCookie(request.headers.cookie, sessionCookieName(config), config.authSecret);
      const loaded = token ? await load(token) : null;
      const viewer = adoptViewer(request, loaded?.viewer ?? null);
      if (!viewer || !loaded) throw sessionEnded();
      return { viewer, data: loaded.data };
    },
  );
}
