import type { ComponentType } from 'react';
import { createBrowserRouter, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { ROUTES, type Layout, type RoutePattern } from '@shared/routes';
import { paths } from '@web/lib/paths';
import { lazyPage } from '@web/lib/lazy-page';
import { meQuery } from '@web/lib/viewer';
import { comingSoon } from '@web/components/coming-soon';
import NotFoundPage from '@web/components/not-found-page';
import ErrorPage from './error-page';
import { RootLayout } from './root-layout';
import { AppLayout } from './app-layout';
import { AuthLayout, LandingLayout } from './landing-layout';

type Page = { lazy: ReturnType<typeof lazyPage> } | { Component: ComponentType };

const lazy = (load: Parameters<typeof lazyPage>[0]): Page => ({ lazy: lazyPage(load) });
const info = (name: 'ProjectPage' | 'RoadmapPage' | 'ContactPage') =>
  lazy(() => import('../features/marketing/info-pages').then((m) => ({ default: m[name] })));
/** Placeholders for the screens later issues build. */
const soon = (title: string, text: string): Page => ({ Component: comingSoon(title, text) });

/**
 * The page of every pattern of the shared route table (src/shared/routes.ts): the record's
 * type makes a pattern without a page, or a page without a pattern, a compile error.
 */
const PAGES: Record<RoutePattern, Page> = {
  '/': lazy(() => import('../features/marketing/landing-page')),
  '/landing': lazy(() => import('../features/marketing/landing-page')),
  '/pricing': lazy(() => import('./pages/pricing-page')),
  '/pricing/complete': lazy(() => import('../features/payments/pricing-complete-page')),
  '/project': info('ProjectPage'),
  '/roadmap': info('RoadmapPage'),
  '/contact': info('ContactPage'),
  '/dev/outbox': lazy(() => import('../features/dev/outbox-page')),

  '/login': lazy(() => import('../features/accounts/login-page')),
  '/signup': lazy(() => import('../features/accounts/signup-page')),
  '/verify-email': lazy(() => import('../features/accounts/verify-email-page')),
  '/email-verified': lazy(() => import('../features/accounts/email-verified-page')),
  '/send-password-reset': lazy(() => import('../features/accounts/send-password-reset-page')),
  '/reset-password': lazy(() => import('../features/accounts/reset-password-page')),
  '/google-login': lazy(() => import('../features/accounts/google-login-page')),

  '/explore': lazy(() => import('./pages/explore-page')),
  '/dashboard': lazy(() => import('./pages/dashboard-page')),
  '/not-found': { Component: NotFoundPage },
  '/auth-test': lazy(() => import('../features/accounts/auth-test-page')),
  '/user/settings': lazy(() => import('./pages/settings-page')),
  '/admin': lazy(() => import('../features/admin/admin-page')),
  '/user/:userID/edit': lazy(() => import('../features/accounts/edit-user-page')),

  '/course/new': lazy(() => import('../features/courses/editor/new-course-page')),
  '/course/search': lazy(() => import('../features/courses/search-page')),
  '/course/:id': lazy(() => import('../features/courses/course-page')),
  '/course/checkout': lazy(() => import('../features/payments/checkout-page')),
  '/course/checkout/complete': lazy(() => import('../features/payments/checkout-complete-page')),
  '/course/:courseID/edit': lazy(() => import('../features/courses/editor/edit-course-page')),
  '/course/:courseID/review': lazy(() => import('../features/courses/review-page')),
  '/course/:courseID/enrollment': lazy(() => import('../features/courses/roster-page')),
  '/course/:courseID/session/new': lazy(() => import('../features/courses/editor/new-session-page')),
  '/course/:courseID/session/:sessionID/drop': lazy(() => import('../features/courses/drop-page')),
  '/course/:courseID/session/:sessionID/enroll': lazy(() => import('../features/courses/enrol-page')),
  '/course/:courseID/session/:sessionID/new-class-time': lazy(() => import('../features/courses/editor/new-class-time-page')),

  '/educator/:id': lazy(() => import('../features/educators/educator-page')),
  '/educator/onboard': lazy(() => import('../features/educators/onboard-page')),
  '/educator/benefits': lazy(() => import('../features/educators/benefits-page')),
  '/educator/dashboard': lazy(() => import('../features/educators/educator-dashboard-page')),
  '/educator/onboard-success': lazy(() => import('../features/educators/onboard-success-page')),
  '/educator/:educatorID/edit': lazy(() => import('../features/educators/edit-educator-page')),
  '/educator/:educatorID/analytics': soon('Analytics', 'Enrolments and revenue over time.'),

  '/club/new': soon('Create a club', 'Start a club around what you love.'),
  '/club/search': soon('Find a club', 'Search clubs near you and online.'),
  '/club/:id': soon('Club', 'Club details and events will be shown here.'),
  '/club/:clubID/edit': soon('Edit club', 'Club organisers will edit their club here.'),
  '/club/:clubID/new-event': soon('New event', 'Club organisers will plan events here.'),
  '/club/:clubID/event/:eventID': soon('Event', 'Event details will be shown here.'),
  '/mailbox': lazy(() => import('../features/mailbox/mailbox-page')),
  '/mailbox/notifications': soon('Notifications', 'Everything that happened while you were away.'),
  '/mailbox/:senderID': lazy(() => import('../features/mailbox/thread-page')),
  '/mailbox/:userID/:notificationID': soon('Notification', 'The details of a notification.'),
};

const pagesOf = (layout: Layout): RouteObject[] =>
  ROUTES.filter((r) => r.layout === layout).map((r) => ({ path: r.pattern, ...PAGES[r.pattern] }));

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
        {
          Component: LandingLayout,
          errorElement: <ErrorPage />,
          children: [...pagesOf('landing'), { path: '*', Component: NotFoundPage }],
        },
        { Component: AuthLayout, errorElement: <ErrorPage />, children: pagesOf('auth') },
        {
          Component: AppLayout,
          loader: requireSignIn(queryClient),
          // Filters in the query string (search) need no sign-in check; a new page does.
          shouldRevalidate: ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
            currentUrl.pathname !== nextUrl.pathname && defaultShouldRevalidate,
          errorElement: <ErrorPage />,
          children: pagesOf('default'),
        },
      ],
    },
  ];
  return createBrowserRouter(routes);
}
