import { createBrowserRouter, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { paths } from '../lib/paths';
import { lazyPage } from '../lib/lazy-page';
import { comingSoon } from '../components/coming-soon';
import { meQuery } from '../features/accounts/api';
import ErrorPage from '../features/errors/error-page';
import NotFoundPage from '../features/errors/not-found-page';
import { RootLayout } from './root-layout';
import { AppLayout } from './app-layout';
import { AuthLayout, LandingLayout } from './landing-layout';

const info = (name: 'ProjectPage' | 'RoadmapPage' | 'ContactPage') =>
  lazyPage(() => import('../features/marketing/info-pages').then((m) => ({ default: m[name] })));

/** Placeholders for the screens later issues build (spec section 2 route table). */
const SOON: [string, string, string][] = [
  ['/club/new', 'Create a club', 'Start a club around what you love.'],
  ['/club/search', 'Find a club', 'Search clubs near you and online.'],
  ['/club/:id', 'Club', 'Club details and events will be shown here.'],
  ['/club/:clubID/edit', 'Edit club', 'Club organisers will edit their club here.'],
  ['/club/:clubID/new-event', 'New event', 'Club organisers will plan events here.'],
  ['/club/:clubID/event/:eventID', 'Event', 'Event details will be shown here.'],
  ['/educator/:educatorID/analytics', 'Analytics', 'Enrolments and revenue over time.'],
  ['/mailbox', 'Mailbox', 'Your conversations with learners and educators.'],
  ['/mailbox/notifications', 'Notifications', 'Everything that happened while you were away.'],
  ['/mailbox/:senderID', 'Conversation', 'Your messages with this person.'],
  ['/mailbox/:userID/:notificationID', 'Notification', 'The details of a notification.'],
];

/** Protected pages: without a session the visitor goes to /login?next=<path>. */
function requireSession(queryClient: QueryClient) {
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
          children: [
            { path: '/', lazy: lazyPage(() => import('../features/marketing/landing-page')) },
            { path: '/landing', lazy: lazyPage(() => import('../features/marketing/landing-page')) },
            { path: '/pricing', lazy: lazyPage(() => import('../features/payments/pricing-page')) },
            { path: '/project', lazy: info('ProjectPage') },
            { path: '/roadmap', lazy: info('RoadmapPage') },
            { path: '/contact', lazy: info('ContactPage') },
            { path: '/dev/outbox', lazy: lazyPage(() => import('../features/dev/outbox-page')) },
            { path: '*', Component: NotFoundPage },
          ],
        },
        {
          Component: AuthLayout,
          errorElement: <ErrorPage />,
          children: [
            { path: '/login', lazy: lazyPage(() => import('../features/accounts/login-page')) },
            { path: '/signup', lazy: lazyPage(() => import('../features/accounts/signup-page')) },
            { path: '/verify-email', lazy: lazyPage(() => import('../features/accounts/verify-email-page')) },
            { path: '/email-verified', lazy: lazyPage(() => import('../features/accounts/email-verified-page')) },
            { path: '/send-password-reset', lazy: lazyPage(() => import('../features/accounts/send-password-reset-page')) },
            { path: '/reset-password', lazy: lazyPage(() => import('../features/accounts/reset-password-page')) },
            { path: '/google-login', lazy: lazyPage(() => import('../features/accounts/google-login-page')) },
          ],
        },
        {
          Component: AppLayout,
          loader: requireSession(queryClient),
          // Filters in the query string (search) need no session check; a new page does.
          shouldRevalidate: ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
            currentUrl.pathname !== nextUrl.pathname && defaultShouldRevalidate,
          errorElement: <ErrorPage />,
          children: [
            { path: '/explore', lazy: lazyPage(() => import('../features/home/explore-page')) },
            { path: '/user/settings', lazy: lazyPage(() => import('../features/accounts/settings-page')) },
            { path: '/user/:userID/edit', lazy: lazyPage(() => import('../features/accounts/edit-user-page')) },
            { path: '/auth-test', lazy: lazyPage(() => import('../features/accounts/auth-test-page')) },
            { path: '/not-found', Component: NotFoundPage },
            { path: '/educator/onboard', lazy: lazyPage(() => import('../features/educators/onboard-page')) },
            { path: '/educator/:id', lazy: lazyPage(() => import('../features/educators/educator-page')) },
            { path: '/educator/:educatorID/edit', lazy: lazyPage(() => import('../features/educators/edit-educator-page')) },
            { path: '/course/new', lazy: lazyPage(() => import('../features/courses/editor/new-course-page')) },
            { path: '/course/:courseID/edit', lazy: lazyPage(() => import('../features/courses/editor/edit-course-page')) },
            { path: '/course/:courseID/session/new', lazy: lazyPage(() => import('../features/courses/editor/new-session-page')) },
            { path: '/course/:courseID/session/:sessionID/new-class-time', lazy: lazyPage(() => import('../features/courses/editor/new-class-time-page')) },
            { path: '/course/:courseID/enrollment', lazy: lazyPage(() => import('../features/courses/roster-page')) },
            { path: '/course/search', lazy: lazyPage(() => import('../features/courses/search-page')) },
            { path: '/course/:id', lazy: lazyPage(() => import('../features/courses/course-page')) },
            { path: '/course/:courseID/session/:sessionID/enroll', lazy: lazyPage(() => import('../features/courses/enroll-page')) },
            { path: '/course/:courseID/session/:sessionID/drop', lazy: lazyPage(() => import('../features/courses/drop-page')) },
            { path: '/course/:courseID/review', lazy: lazyPage(() => import('../features/courses/review-page')) },
            { path: '/dashboard', lazy: lazyPage(() => import('../features/dashboard/dashboard-page')) },
            { path: '/course/checkout', lazy: lazyPage(() => import('../features/payments/checkout-page')) },
            { path: '/course/checkout/complete', lazy: lazyPage(() => import('../features/payments/checkout-complete-page')) },
            { path: '/pricing/complete', lazy: lazyPage(() => import('../features/payments/pricing-complete-page')) },
            { path: '/educator/benefits', lazy: lazyPage(() => import('../features/payments/benefits-page')) },
            { path: '/educator/dashboard', lazy: lazyPage(() => import('../features/payments/educator-dashboard-page')) },
            { path: '/educator/onboard-success', lazy: lazyPage(() => import('../features/payments/onboard-success-page')) },
            ...SOON.map(([path, title, text]) => ({ path, Component: comingSoon(title, text) })),
          ],
        },
      ],
    },
  ];
  return createBrowserRouter(routes);
}
