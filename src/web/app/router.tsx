import type { ComponentType } from 'react';
import { createBrowserRouter, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { ROUTES, type Layout, type RoutePattern } from '@shared/routes';
import { paths } from '@web/lib/paths';
import { lazyPage } from '@web/lib/lazy-page';
import { meQuery } from '@web/lib/viewer';
import { isUuid } from '@web/lib/ids';
import { pricingQuery } from '@web/lib/pricing';
import { courseQuery } from '../features/courses/api/courses';
import { exploreQuery } from '../features/courses/api/explore';
import { dashboardQuery } from '../features/dashboard/api/dashboard';
import NotFoundPage from '@web/components/not-found-page';
import ErrorPage from './error-page';
import { RootLayout } from './root-layout';

/** A page prefetching its data: the request starts with the page's chunk, not after it rendered. */
type Prefetch = (queryClient: QueryClient, params: Record<string, string | undefined>) => Promise<unknown>;
type Page = { lazy: ReturnType<typeof lazyPage>; prefetch?: Prefetch } | { Component: ComponentType };

const lazy = (load: Parameters<typeof lazyPage>[0], prefetch?: Prefetch): Page => ({ lazy: lazyPage(load), prefetch });
const layout = lazyPage;
const info = (name: 'ProjectPage' | 'RoadmapPage') =>
  lazy(() => import('../features/marketing/info-pages').then((m) => ({ default: m[name] })));

/**
 * The page of every pattern of the shared route table (src/shared/routes.ts): the record's
 * type makes a pattern without a page, or a page without a pattern, a compile error.
 */
const PAGES: Record<RoutePattern, Page> = {
  '/': lazy(() => import('./pages/landing-page')),
  '/landing': lazy(() => import('./pages/landing-page')),
  '/pricing': lazy(() => import('./pages/pricing-page')),
  '/pricing/complete': lazy(() => import('../features/payments/pricing-complete-page')),
  '/project': info('ProjectPage'),
  '/roadmap': info('RoadmapPage'),
  '/contact': lazy(() => import('../features/contact/contact-page')),
  '/dev/outbox': lazy(() => import('../features/dev/outbox-page')),

  '/login': lazy(() => import('../features/accounts/login-page')),
  '/signup': lazy(() => import('../features/accounts/signup-page')),
  '/verify-email': lazy(() => import('../features/accounts/verify-email-page')),
  '/email-verified': lazy(() => import('../features/accounts/email-verified-page')),
  '/send-password-reset': lazy(() => import('../features/accounts/send-password-reset-page')),
  '/reset-password': lazy(() => import('../features/accounts/reset-password-page')),
  '/google-login': lazy(() => import('../features/accounts/google-login-page')),

  '/explore': lazy(
    () => import('./pages/explore-page'),
    (qc) => qc.prefetchQuery(exploreQuery),
  ),
  '/dashboard': lazy(
    () => import('./pages/dashboard-page'),
    (qc) => qc.prefetchQuery(dashboardQuery),
  ),
  '/not-found': { Component: NotFoundPage },
  '/auth-test': lazy(() => import('../features/accounts/auth-test-page')),
  '/user/settings': lazy(() => import('./pages/settings-page')),
  '/admin': lazy(() => import('../features/admin/admin-page')),
  '/user/:userID/edit': lazy(() => import('../features/accounts/edit-user-page')),

  '/course/new': lazy(() => import('../features/courses/editor/new-course-page')),
  '/course/search': lazy(() => import('../features/courses/search-page')),
  '/course/:id': lazy(
    () => import('../features/courses/course-page'),
    (qc, { id }) => (id && isUuid(id) ? qc.prefetchQuery(courseQuery(id)) : Promise.resolve()),
  ),
  '/course/checkout': lazy(() => import('../features/payments/checkout-page')),
  '/course/checkout/complete': lazy(() => import('../features/payments/checkout-complete-page')),
  '/course/:courseID/edit': lazy(() => import('../features/courses/editor/edit-course-page')),
  '/course/:courseID/review': lazy(() => import('../features/courses/review-page')),
  '/course/:courseID/enrollment': lazy(() => import('../features/courses/roster-page')),
  '/course/:courseID/session/new': lazy(() => import('../features/courses/editor/new-session-page')),
  '/course/:courseID/session/:sessionID/drop': lazy(() => import('../features/courses/drop-page')),
  '/course/:courseID/session/:sessionID/enroll': lazy(() => import('../features/courses/enrol-page')),
  '/course/:courseID/session/:sessionID/new-class-time': lazy(() => import('../features/courses/editor/new-class-time-page')),
  '/course/:courseID/session/:sessionID/attendance': lazy(() => import('../features/attendance/attendance-page')),
  '/course/:courseID/session/:sessionID/classroom': lazy(() => import('../features/classroom/classroom-page')),

  '/educator/:id': lazy(() => import('../features/educators/educator-page')),
  '/educator/onboard': lazy(() => import('../features/educators/onboard-page')),
  '/educator/benefits': lazy(
    () => import('../features/educators/benefits-page'),
    (qc) => qc.prefetchQuery(pricingQuery),
  ),
  '/educator/dashboard': lazy(() => import('../features/educators/educator-dashboard-page')),
  '/educator/promo-codes': lazy(() => import('../features/payments/educator-promo-codes-page')),
  '/educator/onboard-success': lazy(() => import('../features/educators/onboard-success-page')),
  '/educator/:educatorID/edit': lazy(() => import('../features/educators/edit-educator-page')),
  '/educator/:educatorID/analytics': lazy(() => import('../features/analytics/analytics-page')),

  '/club/new': lazy(() => import('../features/clubs/new-club-page')),
  '/club/search': lazy(() => import('../features/clubs/search-page')),
  '/club/:id': lazy(() => import('../features/clubs/club-page')),
  '/club/:clubID/edit': lazy(() => import('../features/clubs/edit-club-page')),
  '/club/:clubID/new-event': lazy(() => import('../features/clubs/new-event-page')),
  '/club/:clubID/event/:eventID': lazy(() => import('../features/clubs/event-page')),
  '/mailbox': lazy(() => import('../features/mailbox/mailbox-page')),
  '/mailbox/notifications': lazy(() => import('../features/notifications/notifications-page')),
  '/mailbox/:senderID': lazy(() => import('../features/mailbox/conversation-page')),
  '/mailbox/:userID/:notificationID': lazy(() => import('../features/notifications/notification-page')),
};

const pagesOf = (layout: Layout, queryClient: QueryClient): RouteObject[] =>
  ROUTES.filter((r) => r.layout === layout).map((r) => {
    const { prefetch, ...page } = PAGES[r.pattern] as Page & { prefetch?: Prefetch };
    // Not awaited: the page renders as soon as its chunk is there, its data arriving in the cache meanwhile.
    // Only for a signed-in viewer (the sign-in guard redirects the others; their 401 would read as "session ended").
    // On the first load the viewer is not known yet, but the server only serves a protected page with a session.
    const loader = ({ params }: LoaderFunctionArgs) => {
      const me = queryClient.getQueryData(meQuery.queryKey);
      if (me !== null) void prefetch!(queryClient, params).catch(() => {});
      return null;
    };
    return { path: r.pattern, ...page, ...(prefetch && { loader }) };
  });

/**
 * The landing layout's pages, each under the public-path rule (spec section 2): a page
 * that is not public (/landing, /pricing) sends a visitor to /login as a reload does.
 */
const landingPages = (queryClient: QueryClient): RouteObject[] =>
  pagesOf('landing', queryClient).map((page) =>
    ROUTES.find((r) => r.pattern === page.path)?.public ? page : { ...page, loader: requireSignIn(queryClient) },
  );

/** Protected pages: without a sign-in session the visitor goes to /login?next=<path>. */
function requireSignIn(queryClient: QueryClient) {
  return async ({ request }: LoaderFunctionArgs) => {
    const me = await queryClient.ensureQueryData(meQuery);
    if (!me) {
      const url = new URL(request.url);
      throw redirect(paths.login(url.pathname + url.search));
    }
    return null;
  };
}

export function createRouter(queryClient: QueryClient) {
  const routes: RouteObject[] = [
    {
      Component: RootLayout,
      errorElement: <ErrorPage />,
      children: [
        // The layouts load with the first page that needs them (in parallel with it): the
        // first visit to /login does not download the app shell (decision 0022).
        {
          lazy: layout(() => import('./landing-layout').then((m) => ({ default: m.LandingLayout }))),
          errorElement: <ErrorPage />,
          children: landingPages(queryClient),
        },
        {
          lazy: layout(() => import('./auth-layout').then((m) => ({ default: m.AuthLayout }))),
          errorElement: <ErrorPage />,
          children: pagesOf('auth', queryClient),
        },
        {
          lazy: layout(() => import('./app-layout').then((m) => ({ default: m.AppLayout }))),
          loader: requireSignIn(queryClient),
          // Filters in the query string (search) need no sign-in check; a new page does.
          shouldRevalidate: ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
            currentUrl.pathname !== nextUrl.pathname && defaultShouldRevalidate,
          errorElement: <ErrorPage />,
          children: pagesOf('default', queryClient),
        },
        // An unknown path: the not-found page in the app's layout for a signed-in user, the landing layout otherwise.
        {
          path: '*',
          loader: () => queryClient.ensureQueryData(meQuery).then(() => null),
          lazy: layout(() => import('./not-found-in-layout').then((m) => ({ default: m.NotFoundInLayout }))),
        },
      ],
    },
  ];
  return createBrowserRouter(routes);
}
