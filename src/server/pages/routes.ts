import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loginRedirect, matchRoute } from '../../shared/routes.js';
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

  const sendShell = (reply: FastifyReply, status: number) =>
    reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(shell());

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
    return sendShell(reply, 200);
  });
}
