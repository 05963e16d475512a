import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RoutePattern } from '../../shared/routes.js';
import type { CurrentUser } from '../../shared/accounts.js';
import { CATALOGUE_FIRST_PAGE_API } from '../../shared/courses.js';
import { isUuid } from '../../shared/ids.js';
import { presentCurrentUser } from '../accounts/presenters.js';
import type { Viewer } from '../accounts/viewer.js';

/** The id of the JSON block the web app reads on start (src/web/lib/bootstrap.ts). */
export const BOOTSTRAP_ELEMENT_ID = 'agora-bootstrap';

/**
 * What the first render of a page needs, served inside its HTML (decision 0027): the viewer
 * (what GET /api/me answers; null for a visitor) and the answers of the GET requests the
 * page makes first, by API path. The web app seeds its query cache with them instead of
 * waiting for the entry script, then /api/me, then the page's data.
 */
export interface PageBootstrap {
  viewer: CurrentUser | null;
  answers: Record<string, unknown>;
}

/** The API answers a signed-in page renders first (the requests its route prefetches in src/web/app/router.tsx, or its page makes on mount). */
const FIRST_DATA: Partial<Record<RoutePattern, (params: Record<string, string>, search: string) => string | null>> = {
  '/explore': () => '/api/explore',
  // The catalogue without filters (a filtered one asks with its own query string).
  '/course/search': (_, search) => (search === '' ? CATALOGUE_FIRST_PAGE_API : null),
  '/dashboard': () => '/api/dashboard',
  '/course/:id': ({ id }) => (isUuid(id) ? `/api/courses/${id}` : null),
  '/club/:id': ({ id }) => (isUuid(id) ? `/api/clubs/${id}` : null),
};

/**
 * Pages of one resource: an id that is not one (not a UUID, or the API answers 404) makes
 * the page the not-found page, served with 404 as an unknown path is.
 */
const ONE_RESOURCE = new Set<RoutePattern>(['/course/:id', '/club/:id']);

/** The same for a public page, whoever asks (a visitor too): the landing page's figures and featured courses. */
const PUBLIC_FIRST_DATA: Partial<Record<RoutePattern, string>> = {
  '/': '/api/landing',
  '/landing': '/api/landing',
};

/**
 * The bootstrap of a page for this request's viewer. The page's data comes from the API
 * route itself (an in-process request with the caller's cookie, address and user agent):
 * the same access checks, the same answer, the same page-view counting as the request the
 * browser would have made. An answer other than 200 is left out: the web app asks again
 * and shows what the API says. `status`: 404 when the page's one resource does not exist.
 */
export async function pageBootstrap(
  app: FastifyInstance,
  request: FastifyRequest,
  viewer: Viewer | null,
  pattern: RoutePattern,
  params: Record<string, string>,
  search: string,
): Promise<{ bootstrap: PageBootstrap; status: 200 | 404 }> {
  const answers: Record<string, unknown> = {};
  const apiPath = PUBLIC_FIRST_DATA[pattern] ?? (viewer ? FIRST_DATA[pattern]?.(params, search) : null);
  let status: 200 | 404 = viewer && ONE_RESOURCE.has(pattern) && !apiPath ? 404 : 200;
  if (apiPath) {
    const headers: Record<string, string> = { accept: 'application/json' };
    for (const name of ['cookie', 'user-agent', 'accept-language'] as const) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    try {
      const res = await app.inject({ method: 'GET', url: apiPath, headers, remoteAddress: request.ip });
      if (res.statusCode === 200) answers[apiPath] = res.json();
      else if ((res.statusCode === 404 || res.statusCode === 403) && ONE_RESOURCE.has(pattern)) status = 404;
    } catch (err) {
      request.log.warn({ err, apiPath }, 'could not embed the page data; the web app fetches it');
    }
  }
  return { bootstrap: { viewer: viewer ? presentCurrentUser(viewer) : null, answers }, status };
}

/**
 * The bootstrap as an HTML data block. JSON.stringify leaves `<`, `>` and `&` as they are:
 * a name holding `</script>` would end the element, so they (and the line separators some
 * parsers treat as line ends) are written as \u escapes, which JSON.parse reads back the same.
 * A data block (type application/json) is never run, so the Content-Security-Policy needs no nonce.
 */
export function bootstrapScript(bootstrap: PageBootstrap): string {
  const json = JSON.stringify(bootstrap).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `<script type="application/json" id="${BOOTSTRAP_ELEMENT_ID}">${json}</script>`;
}
