/**
 * The product's route table (spec section 2), written once: the server takes from it the
 * public-path rule, case redirects and 404 status; the web router mounts one page per
 * pattern under the layout named here. Patterns are lowercase and canonical; matching is
 * case-insensitive for the fixed segments.
 */
export type Layout = 'landing' | 'default' | 'auth';

export interface RouteDef {
  pattern: RoutePattern;
  public: boolean;
  layout: Layout;
}

const PUBLIC_PATHS = new Set<string>([
  '/',
  '/login',
  '/signup',
  '/verify-email',
  '/reset-password',
  '/send-password-reset',
  '/project',
  '/roadmap',
  '/contact',
  '/email-verified',
  '/google-login',
  // Development tool (absent in production): a newcomer reads the verification email here.
  '/dev/outbox',
]);

/** Layouts: landing (marketing pages, no session needed to render), auth (sign-in forms), default (the app, behind the session guard). */
const LANDING = new Set<string>(['/', '/landing', '/pricing', '/project', '/roadmap', '/contact', '/dev/outbox']);
const AUTH = new Set<string>([
  '/login',
  '/signup',
  '/verify-email',
  '/reset-password',
  '/send-password-reset',
  '/email-verified',
  '/google-login',
]);

const PATTERNS = [
  // General
  '/',
  '/login',
  '/signup',
  '/contact',
  '/explore',
  '/landing',
  '/pricing',
  '/pricing/complete',
  '/project',
  '/roadmap',
  '/dashboard',
  '/not-found',
  '/auth-test',
  '/google-login',
  '/verify-email',
  '/email-verified',
  '/reset-password',
  '/send-password-reset',
  // Club
  '/club/new',
  '/club/search',
  '/club/:id',
  '/club/:clubID/edit',
  '/club/:clubID/new-event',
  '/club/:clubID/event/:eventID',
  // Course
  '/course/new',
  '/course/search',
  '/course/:id',
  '/course/checkout',
  '/course/checkout/complete',
  '/course/:courseID/edit',
  '/course/:courseID/review',
  '/course/:courseID/enrollment',
  '/course/:courseID/session/new',
  '/course/:courseID/session/:sessionID/drop',
  '/course/:courseID/session/:sessionID/enroll',
  '/course/:courseID/session/:sessionID/new-class-time',
  '/course/:courseID/session/:sessionID/attendance',
  '/course/:courseID/session/:sessionID/classroom',
  // Educator
  '/educator/:id',
  '/educator/onboard',
  '/educator/benefits',
  '/educator/dashboard',
  '/educator/promo-codes',
  '/educator/onboard-success',
  '/educator/:educatorID/edit',
  '/educator/:educatorID/analytics',
  // User
  '/user/settings',
  '/user/:userID/edit',
  // Mailbox
  '/mailbox',
  '/mailbox/:senderID',
  '/mailbox/notifications',
  '/mailbox/:userID/:notificationID',
  // Admin console (admins only; not in the spec's route list)
  '/admin',
  // Development tools (not served in production)
  '/dev/outbox',
] as const;

export type RoutePattern = (typeof PATTERNS)[number];

export const ROUTES: RouteDef[] = PATTERNS.map((pattern) => ({
  pattern,
  public: PUBLIC_PATHS.has(pattern),
  layout: LANDING.has(pattern) ? 'landing' : AUTH.has(pattern) ? 'auth' : 'default',
}));

export interface RouteMatch {
  route: RouteDef;
  params: Record<string, string>;
  /** The path with fixed segments lowercased and params kept as given. */
  canonicalPath: string;
}

const split = (p: string) => p.split('/').filter(Boolean);

/** Fixed segments win over params (so /course/new is not /course/:id). */
function score(pattern: string): number {
  return split(pattern).reduce((s, seg, i) => s + (seg.startsWith(':') ? 1 : 2) * 10 ** (8 - i), 0);
}

const ORDERED = [...ROUTES].sort((a, b) => score(b.pattern) - score(a.pattern));

export function matchRoute(pathname: string): RouteMatch | null {
  let path = pathname;
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const segs = split(path);
  for (const route of ORDERED) {
    const pSegs = split(route.pattern);
    if (pSegs.length !== segs.length) continue;
    const params: Record<string, string> = {};
    const canon: string[] = [];
    let ok = true;
    for (let i = 0; i < pSegs.length; i++) {
      const p = pSegs[i];
      const s = segs[i];
      if (p.startsWith(':')) {
        let value: string;
        try {
          value = decodeURIComponent(s);
        } catch {
          ok = false;
          break;
        }
        params[p.slice(1)] = value;
        canon.push(s);
      } else if (p === s.toLowerCase()) {
        canon.push(p);
      } else {
        ok = false;
        break;
      }
    }
    if (ok) return { route, params, canonicalPath: '/' + canon.join('/') };
  }
  return null;
}

export function isPublicPath(pathname: string): boolean {
  return matchRoute(pathname)?.route.public ?? false;
}

/** Where a visitor without a session is sent, keeping where they wanted to go. */
export function loginRedirect(pathAndQuery: string): string {
  return `/login?next=${encodeURIComponent(pathAndQuery)}`;
}

/** A course session's classroom (issue 25): its educator and enrolled learners only; every class reminder and calendar invitation leads there. */
export const classroomPath = (courseId: string, sessionId: string) => `/course/${courseId}/session/${sessionId}/classroom`;

/** Only same-site relative paths are accepted as a post-login destination. */
/** Where a log-in without `?next=` lands: educators on their dashboard, learners on /explore. */
export const homeAfterSignIn = (user: { educator: unknown }): string => (user.educator ? '/educator/dashboard' : '/explore');

export function safeNext(next: string | null | undefined, fallback = '/explore'): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  return next;
}
