import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loginRedirect, matchRoute, type RoutePattern } from '../../shared/routes.js';
import { WEB_DIST } from '../http/build-info.js';
import { errorPage } from '../http/error-page.js';
import { sessionCookieName } from '../accounts/auth.js';

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
  // Created up front: the static plugin expects its root to exist (a fresh DATA_DIR has none yet).
  mkdirSync(app.images.root, { recursive: true });
  await app.register(fastifyStatic, {
    root: app.images.root,
    prefix: '/uploads/',
    decorateReply: false,
    setHeaders(res) {
      res.header('cache-control', 'public, max-age=31536000, immutable');
      res.header('x-content-type-options', 'nosniff');
    },
  });

  const preloads = modulePreloads();
  const sendShell = (reply: FastifyReply, status: number, pattern?: RoutePattern) => {
    const hints = pattern && hasBuild ? preloads(pattern) : '';
    const html = hints ? shell().replace('</head>', `${hints}</head>`) : shell();
    return reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
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
      return sendShell(reply, 404);
    }
    if (match.canonicalPath !== url.pathname) {
      return reply.redirect(match.canonicalPath + url.search, 301);
    }
    if (!match.route.public && !(await app.resolveViewer(request))) {
      // A cookie that no longer opens a session: say why, and drop the stale cookie.
      const cookieName = sessionCookieName(app.config);
      const stale = (request.headers.cookie ?? '').split(';').some((c) => c.trim().startsWith(`${cookieName}=`));
      if (stale) {
        reply.header('set-cookie', `${cookieName}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${app.config.production ? '; Secure' : ''}`);
        return reply.redirect(`${loginRedirect(url.pathname + url.search)}&reason=session-expired`, 302);
      }
      return reply.redirect(loginRedirect(url.pathname + url.search), 302);
    }
    return sendShell(reply, 200, match.route.pattern);
  });
}

/**
 * The lazy chunks of the most visited pages (their layout and page module, as in
 * src/web/app/router.tsx), announced in the page's HTML as modulepreloads: the browser
 * fetches them with the entry script instead of after it ran (one round trip less before
 * the page shows). A page missing here still works; it just loads its chunk later.
 */
const FIRST_LOAD_MODULES: Partial<Record<RoutePattern, string[]>> = {
  '/': ['app/landing-layout.tsx', 'features/marketing/landing-page.tsx'],
  '/landing': ['app/landing-layout.tsx', 'features/marketing/landing-page.tsx'],
  '/login': ['app/auth-layout.tsx', 'features/accounts/login-page.tsx'],
  '/signup': ['app/auth-layout.tsx', 'features/accounts/signup-page.tsx'],
  '/explore': ['app/app-layout.tsx', 'app/pages/explore-page.tsx'],
  '/dashboard': ['app/app-layout.tsx', 'app/pages/dashboard-page.tsx'],
  '/course/search': ['app/app-layout.tsx', 'features/courses/search-page.tsx'],
  '/course/:id': ['app/app-layout.tsx', 'features/courses/course-page.tsx'],
};

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
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
    const files = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest?.[key];
      if (!chunk || chunk.isEntry || files.has(chunk.file)) return;
      files.add(chunk.file);
      chunk.imports?.forEach(visit);
    };
    (FIRST_LOAD_MODULES[pattern] ?? []).forEach(visit);
    const hints = [...files].map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`).join('');
    cache.set(pattern, hints);
    return hints;
  };
}
