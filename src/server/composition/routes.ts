import type { FastifyInstance } from 'fastify';
import { accountSettingsRoutes } from '../accounts/account-settings-routes.js';
import { learnerProfileRoutes } from '../accounts/learner-profile-routes.js';
import { authRoutes } from '../accounts/auth-routes.js';
import { accountRoutes } from '../accounts/routes.js';
import { twoFactorRoutes } from '../accounts/two-factor-routes.js';
import { userRoutes } from '../accounts/user-routes.js';
import { accountDeletionRoutes } from '../admin/account-deletion-routes.js';
import { adminRoutes } from '../admin/routes.js';
import { countCoursePageViews } from '../analytics/page-views.js';
import { analyticsRoutes } from '../analytics/routes.js';
import { attendanceRoutes } from '../attendance/routes.js';
import { classroomRoutes } from '../classroom/routes.js';
import { clubRoutes } from '../clubs/routes.js';
import type { Config } from '../config.js';
import { contactRoutes } from '../contact/routes.js';
import type { CalendarSources } from '../courses/calendar.js';
import { courseRoutes } from '../courses/routes.js';
import { courseSearchRoutes } from '../courses/search-routes.js';
import type { Database } from '../db/client.js';
import { benchRoutes } from '../dev/bench-routes.js';
import { devRoutes } from '../dev/routes.js';
import { educatorRoutes } from '../educators/routes.js';
import { apiDocs } from '../http/api-docs.js';
import { mailboxRoutes } from '../mailbox/routes.js';
import { notificationRoutes } from '../notifications/routes.js';
import { pageRoutes } from '../pages/routes.js';
import { paymentRoutes } from '../payments/routes.js';
import { landingRoutes } from '../system/landing-routes.js';
import { systemRoutes } from '../system/routes.js';

/**
 * Every route of the app, domain by domain (route plugins only register routes: what a
 * domain hears is wired by subscribeDomains), then the payments sandbox, the dev tools and
 * the web pages.
 */
export async function registerRoutes(
  app: FastifyInstance,
  { config, db, calendarSources }: { config: Config; db: Database; calendarSources: CalendarSources },
) {
  // Course page views (analytics/page-views.ts): counted after the answer is sent, flushed in batches.
  countCoursePageViews(app);
  if (config.devTools) await app.register(apiDocs);
  await app.register(authRoutes);
  await app.register(systemRoutes);
  await app.register(landingRoutes);
  await app.register(accountRoutes);
  await app.register(twoFactorRoutes);
  await app.register(accountSettingsRoutes);
  await app.register(learnerProfileRoutes);
  await app.register(userRoutes);
  await app.register(educatorRoutes);
  await app.register(courseSearchRoutes);
  await app.register(courseRoutes, { calendarSources });
  await app.register(paymentRoutes);
  await app.register(notificationRoutes);
  await app.register(mailboxRoutes);
  await app.register(contactRoutes);
  await app.register(clubRoutes);
  await app.register(attendanceRoutes);
  await app.register(classroomRoutes);
  await app.register(analyticsRoutes);
  await app.register(adminRoutes);
  await app.register(accountDeletionRoutes);
  if (config.payments.mode === 'sandbox' && !config.production) {
    // Imported only here: with a Stripe key set, the sandbox's code is never loaded.
    const { stripeSandbox } = await import('@agora/stripe-sandbox');
    await app.register(stripeSandbox, {
      database: db.db,
      secretKey: config.payments.secretKey,
      webhookSecret: config.payments.webhookSecret,
      connectWebhookSecret: config.payments.connectWebhookSecret,
      webhookUrl: '/api/stripe/webhook',
      publicUrl: config.publicUrl,
    });
  }
  if (config.devTools) await app.register(devRoutes);
  if (config.benchRoutes) await app.register(benchRoutes);
  await app.register(pageRoutes);
}
