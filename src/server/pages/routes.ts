import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loginRedirect, matchRoute, type RoutePattern } from '../../shared/routes.js';
import { WEB_DIST } from '../http/build-info.js';
import { errorPage } from '../http/error-page.js';
import { registerUploadRoutes } from '../storage/serve.js';
import { sessionCookieName } from '../accounts/auth.js';
import type { Viewer } from '../accounts/viewer.js';
import { bootstrapScript, pageBootstrap } from './bootstrap.js';

/** Search engines and link-preview bots: they get bare statuses, never the app's error screen. */
const CRAWLER =
  /bot|crawl|spider|slurp|facebookexternalhit|embedly|quora link preview|whatsapp|telegrambot|discordbot|bingpreview|yandex|baidu/i;

export function isCrawler(request: FastifyRequest) {
  return CRAWLER.test(request.headers['user-agent'] ?? '');
}

/**
 * Serves the built web app and applies the route rules on full page loads: unknown
 * paths get 404, protected paths without a session get a redirect to /login?next=,
 * non-canonical capitals get a redirect to the lowercase path.
 */
export async function pageRoutes(app: FastifyInstance) {
  const indexFile = path.join(WEB_DIST, 'index.html');
  const hasBuild = existsSync(indexFile);
  let indexHtml: string | null = null;
  const shell = () => {
    if (!hasBuild) return errorPage(200, 'Agora', 'The web app has not been built yet. Run `npm run build` (npm start does it for you).');
    indexHtml ??= readFileSync(indexFile, 'utf8');
    return indexHtml;
  };

  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: WEB_DIST,
      prefix: '/',
      wildcard: false,
      index: false,
      allowedPath: (p) => p !== '/index.html',
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      },
      preCompressed: false,
    });
  }
  registerUploadRoutes(app, app.files);

  const preloads = modulePreloads();
  const sendNotFound = (reply: FastifyReply) =>
    reply.status(404).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(shell());
  /**
   * A page with what its first render needs (decision 0027): the viewer and the page's first
   * data. It is this viewer's page: never stored by the browser or any cache on the way.
   */
  const sendPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    viewer: Viewer | null,
    pattern: RoutePattern,
    params: Record<string, string>,
    search: string,
  ) => {
    const { bootstrap, status } = await pageBootstrap(app, request, viewer, pattern, params, search);
    const hints = hasBuild ? preloads(pattern) : '';
    const html = shell().replace('</head>', `${hints}${bootstrapScript(bootstrap)}</head>`);
    // 404: the page's resource does not exist (the web app shows the not-found page).
    return reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'private, no-store').send(html);
  };

  app.setNotFoundHandler(async (request, reply) => {
    const url = new URL(request.url, 'http://x');
    if (url.pathname.startsWith('/api/') || !['GET', 'HEAD'].includes(request.method)) {
      return reply.status(404).send({ error: { code: 'not_found', message: 'Not found' } });
    }
    const match = matchRoute(url.pathname);
    const devOnly = match?.route.pattern.startsWith('/dev/') && !app.config.devTools;
    if (!match || devOnly) {
      if (isCrawler(request)) return reply.status(404).type('text/plain').send('Not Found');
      return sendNotFound(reply);
    }
    if (match.canonicalPath !== url.pathname) {
      return reply.redirect(match.canonicalPath + url.search, 301);
    }
    // Without a session cookie there is no viewer to look up: a visitor's page costs no query.
    const cookieName = sessionCookieName(app.config);
    const hasSessionCookie = (request.headers.cookie ?? '').split(';').some((c) => c.trim().startsWith(`${cookieName}=`));
    const viewer = hasSessionCookie ? await app.resolveViewer(request) : null;
    if (!match.route.public && !viewer) {
      // A cookie that no longer opens a session: say why, and drop the stale cookie.
      if (hasSessionCookie) {
        reply.header('set-cookie', `${cookieName}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${app.config.production ? '; Secure' : ''}`);
        return reply.redirect(`${loginRedirect(url.pathname + url.search)}&reason=session-expired`, 302);
      }
      return reply.redirect(loginRedirect(url.pathname + url.search), 302);
    }
    return sendPage(request, reply, viewer, match.route.pattern, match.params, url.search);
  });
}

/**
 * The lazy chunks of the most visited pages (their layout and page module, as in
 * src/web/app/router.tsx), announced in the page's HTML as modulepreloads: the browser
 * fetches them with the entry script instead of after it ran (one round trip less before
 * the page shows). A page missing here still works; it just loads its chunk later.
 */
export const FIRST_LOAD_MODULES: Partial<Record<RoutePattern, string[]>> = {
  '/': ['app/landing-layout.tsx', 'app/pages/landing-page.tsx'],
  '/landing': ['app/landing-layout.tsx', 'app/pages/landing-page.tsx'],
  '/login': ['app/auth-layout.tsx', 'features/accounts/login-page.tsx'],
  '/signup': ['app/auth-layout.tsx', 'features/accounts/signup-page.tsx'],
  '/explore': ['app/app-layout.tsx', 'app/pages/explore-page.tsx'],
  '/dashboard': ['app/app-layout.tsx', 'app/pages/dashboard-page.tsx'],
  '/course/search': ['app/app-layout.tsx', 'features/courses/search-page.tsx'],
  '/course/:id': ['app/app-layout.tsx', 'features/courses/course-page.tsx'],
};

export interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
}

/**
 * The files to preload for these source modules (paths under src/web), with the chunks they
 * import, from Vite's manifest; the entry (in the HTML already) is left out. A module is its
 * own chunk, keyed by its path, or was inlined into a shared chunk named after it, keyed
 * "_<name>-<hash>.js" (a layout that another lazy module imports too; vite.config.ts).
 */
export function preloadFiles(manifest: Record<string, ManifestChunk>, modules: string[]): string[] {
  const chunkOf = (key: string) => {
    if (manifest[key]) return manifest[key];
    const name = path.basename(key).replace(/\.[jt]sx?$/, '');
    return Object.entries(manifest).find(([k, c]) => k.startsWith('_') && c.name === name)?.[1];
  };
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = chunkOf(key);
    if (!chunk || chunk.isEntry || files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  modules.forEach(visit);
  return [...files];
}

function modulePreloads(): (pattern: RoutePattern) => string {
  const cache = new Map<RoutePattern, string>();
  let manifest: Record<string, ManifestChunk> | null | undefined;
  return (pattern) => {
    const cached = cache.get(pattern);
    if (cached !== undefined) return cached;
    if (manifest === undefined) {
      const file = path.join(WEB_DIST, '.vite/manifest.json');
      manifest = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>) : null;
    }
    const files = manifest ? preloadFiles(manifest, FIRST_LOAD_MODULES[pattern] ?? []) : [];
    const hints = files.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`).join('');
    cache.set(pattern, hints);
    return hints;
  };
}
